#!/usr/bin/env bash
# Usage: probe_real_tf.sh TFGPU_EXE
# Uses $TFGPU_TF_VENV if set, else ${XDG_CACHE_HOME:-$HOME/.cache}/tfgpu-tests/venv-tf. Creates
# it (python3 -m venv + pip install tensorflow) only when TFGPU_ALLOW_DOWNLOAD=1.
# Then checks that `tfgpu probe --json --python VENV/bin/python3` reports the same
# TensorFlow version pip reports, its flavour, and a build_info with CUDA/cuDNN.
set -u
exe="$1"
venv="${TFGPU_TF_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tfgpu-tests/venv-tf}"
py="$venv/bin/python3"
if ! "$py" -c 'import importlib.metadata as m; m.version("tensorflow")' >/dev/null 2>&1; then
  if [ "${TFGPU_ALLOW_DOWNLOAD:-0}" != 1 ]; then
    echo "SKIP: no venv with TensorFlow at $venv (set TFGPU_ALLOW_DOWNLOAD=1 to pip-install it once, ~600 MB)"
    exit 77
  fi
  python3 -m venv "$venv" || { echo "SKIP: python3 -m venv failed"; exit 77; }
  "$venv/bin/pip" install --no-input -q tensorflow || { echo "SKIP: pip install tensorflow failed (network?)"; exit 77; }
fi
want=$("$py" -c 'import importlib.metadata as m; print(m.version("tensorflow"))')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$exe" probe --json --python "$py" > "$out" || { echo "FAIL: tfgpu probe exited $?"; exit 1; }
python3 - "$out" "$py" "$want" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
py, want = sys.argv[2], sys.argv[3]
envs = [e for e in snap["pythons"] if e["executable"] == py]
assert envs, f"{py} not among {[e['executable'] for e in snap['pythons']]}"
tf = envs[0]["tensorflow"]
assert tf, "no tensorflow reported"
t = tf[0]
assert t["version"] == want, (t["version"], want)
assert t["package"] == "tensorflow", t["package"]
assert t["build_info_state"]["status"] == "ok", t["build_info_state"]
bi = t["build_info"]
assert bi.get("is_cuda_build") == "True", bi
assert bi.get("cuda_version") and bi.get("cudnn_version"), bi
print(f"OK: tensorflow {t['version']} ({t['package']}), wants CUDA {bi['cuda_version']} / cuDNN {bi['cudnn_version']}")
PY
