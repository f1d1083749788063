#!/usr/bin/env bash
# Benchmark (not a test): tfgpu explain's throughput on a synthetic TensorFlow log,
# next to grep counting the same signature literals on the same file in the same run.
#
#   bench/explain_vs_grep.sh [TFGPU_BINARY] [SIZE_MB]
#
# Defaults: build/release/tfgpu, 100 MB. Prints MB/s of both and the ratio
# (explain / grep). grep -F -f runs an Aho-Corasick / Commentz-Walter multi-literal
# search and prints only a count; explain additionally decides every signature per
# line, runs the extractors and ranks, so a ratio below 1 is expected.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
tfgpu=${1:-$here/build/release/tfgpu}
size_mb=${2:-100}
[[ -x $tfgpu ]] || { echo "no tfgpu binary at $tfgpu (build it: cmake --build --preset release)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read kb/signatures.toml" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/synthetic.log
literals=$work/literals.txt

# The signature literals (patterns all + any), one per line, as grep -F -f wants them.
python3 - "$here/kb/signatures.toml" >"$literals" <<'PY'
import sys, tomllib
doc = tomllib.load(open(sys.argv[1], "rb"))
seen = set()
for s in doc.get("signature", []):
    p = s.get("patterns", {})
    for lit in p.get("all", []) + p.get("any", []):
        lit = lit.lower()
        if lit not in seen:
            seen.add(lit)
            print(lit)
PY

# A synthetic start-up log: mostly ordinary INFO/progress lines, some harmless noise,
# a few real errors, prose and a pip list, with changing timestamps and numbers.
python3 - "$log" "$size_mb" <<'PY'
import sys, random
path, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
rnd = random.Random(42)
templates = [
    "{ts}: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.",
    "To enable the following instructions: AVX2 FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.",
    "{ts}: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
    "{ts}: I external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:901] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero.",
    "Epoch {n}/100 - {n}s - loss: 0.{n} - accuracy: 0.9{n} - val_loss: 0.1{n} - val_accuracy: 0.8{n}",
    "{n}/{n} [==============================] - 3s 12ms/step - loss: 0.{n} - accuracy: 0.{n}",
    "{ts}: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device /job:localhost/replica:0/task:0/device:GPU:0 with {n} MB memory:  -> device: 0, name: NVIDIA GeForce RTX 3060, pci bus id: 0000:01:00.0, compute capability: 8.6",
    "{ts}: W tensorflow/tsl/platform/default/dso_loader.cc:66] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory",
    "  File \"/home/user/.venv/lib/python3.11/site-packages/keras/src/engine/training.py\", line {n}, in fit",
    "nvidia-cudnn-cu12          8.9.{n}",
    "The model trains fine but I wonder why it is slow on batch {n} with the default settings of the optimizer",
]
weights = [6, 3, 3, 3, 30, 30, 2, 1, 10, 2, 10]
with open(path, "w") as out:
    written = 0
    while written < size:
        t = rnd.choices(templates, weights)[0]
        line = t.format(ts="2024-05-10 11:%02d:%02d.%06d" % (rnd.randrange(60), rnd.randrange(60), rnd.randrange(10**6)),
                        n=rnd.randrange(1, 9999)) + "\n"
        out.write(line)
        written += len(line)
PY

bytes=$(stat -c %s "$log")
cat "$log" >/dev/null  # warm the page cache for both

# Wall time and CPU time (user + sys) of each; on a shared, loaded machine the CPU time
# is the fairer comparison.
measure() {  # measure OUT_PREFIX cmd...
  local out=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$work/$out.time" "$@" >"$work/$out.stdout" 2>/dev/null || true
}
measure explain "$tfgpu" --json explain "$log"
measure grep grep -c -F -f "$literals" "$log"
measure grepi grep -c -i -F -f "$literals" "$log"

awk -v b="$bytes" -v n="$(wc -l <"$literals")" -v gc="$(cat "$work/grep.stdout")" \
    -v e="$(tail -n 1 "$work/explain.time")" -v g="$(tail -n 1 "$work/grep.time")" -v gi="$(tail -n 1 "$work/grepi.time")" '
function wall(t,  a) { split(t, a, " "); return a[1] }
function cpu(t,  a) { split(t, a, " "); return a[2] + a[3] }
function line(name, t, extra) {
  printf "%-18s wall %7.2f s %8.1f MB/s | cpu %7.2f s %8.1f MB/s %s\n", name, wall(t), mb / wall(t), cpu(t), mb / cpu(t), extra
}
BEGIN {
  mb = b / 1048576
  printf "synthetic log: %.1f MB, %d signature literals\n", mb, n
  line("tfgpu explain", e, "")
  line("grep -c -F -f", g, "(" gc " matching lines)")
  line("grep -c -i -F -f", gi, "(case-folded, like explain)")
  printf "throughput ratio explain / grep -F:    wall %.2f  cpu %.2f\n", wall(g) / wall(e), cpu(g) / cpu(e)
  printf "throughput ratio explain / grep -i -F: wall %.2f  cpu %.2f\n", wall(gi) / wall(e), cpu(gi) / cpu(e)
}'
