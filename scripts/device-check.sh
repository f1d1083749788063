#!/usr/bin/env bash
# GPU acceptance for `tfgpu verify` / `tfgpu bench` (issue 7), for a machine with an NVIDIA
# GPU and PyTorch (the device machine). One run, well under 5 minutes:
#   1. tfgpu: use $TFGPU_BIN if given (a binary built elsewhere and carried in), else build
#      it here with CMake + Ninja (needs g++ >= 12 and the Debian dev packages of setup.sh);
#   2. `tfgpu verify`;
#   3. `tfgpu bench --json` on the GEMM sizes below, using the cuBLAS from PyTorch's wheel
#      so that both sides run the same library;
#   4. scripts/torch_gemm_peer.py: the same sizes through torch.matmul, the peer (FP8:
#      torch._scaled_mm where the card and this torch have it, else "peer n/a");
#   5. ratios: BF16 and FP16 GEMM vs PyTorch (goal >= 90%), device-to-device bandwidth vs
#      the KB peak (goal >= 85%). Exit 0 when every goal is met, 1 otherwise.
# Outputs land in $OUT (default ./build/device-out): verify.txt, bench.json, torch.json, ratios.txt.
#
# Environment: TFGPU_BIN, PYTHON (default python3), SIZES (default 4096,8192),
# COPY_MIB (default 1024), OUT.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/build/device-out}
PYTHON=${PYTHON:-python3}
SIZES=${SIZES:-4096,8192}
COPY_MIB=${COPY_MIB:-1024}
mkdir -p "$OUT"
started=$(date +%s)

step() { printf '\n== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }

step "tfgpu binary"
if [[ -n "${TFGPU_BIN:-}" ]]; then
  tfgpu=$TFGPU_BIN
else
  cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFGPU_BUILD_TESTS=OFF >"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 2; }
  cmake --build build/device --target tfgpu -j "$(nproc)" >>"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 2; }
  tfgpu=build/device/tfgpu
fi
"$tfgpu" --version

step "nvidia-smi"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw --format=csv || true

step "PyTorch's cuBLAS"
# torch's own wheels: nvidia/cu13/lib (CUDA 13 layout) or nvidia/cublas/lib (CUDA 12).
cublas_dir=$("$PYTHON" - <<'PY' || true
import glob, os, sys
import torch
roots = [os.path.dirname(os.path.dirname(torch.__file__)), os.path.dirname(torch.__file__)]
for root in roots:
    for pattern in ("nvidia/cu13/lib/libcublas.so.*", "nvidia/cublas/lib/libcublas.so.*", "lib/libcublas.so.*"):
        hits = sorted(glob.glob(os.path.join(root, pattern)))
        if hits:
            print(os.path.dirname(hits[0]))
            sys.exit(0)
PY
)
if [[ -n "$cublas_dir" ]]; then
  echo "using $cublas_dir"
  export LD_LIBRARY_PATH="$cublas_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  echo "PyTorch's cuBLAS not found; tfgpu uses the system's"
fi

step "tfgpu verify"
verify_rc=0
timeout 120 "$tfgpu" verify | tee "$OUT/verify.txt" || verify_rc=$?

step "tfgpu bench --json (sizes $SIZES)"
bench_rc=0
timeout 200 "$tfgpu" bench --sizes "$SIZES" --copy-mib "$COPY_MIB" --json >"$OUT/bench.json" || bench_rc=$?
"$tfgpu" bench --sizes 1024 --copy-mib 64 --quick >"$OUT/bench-text-sample.txt" 2>&1 || true

step "PyTorch peer (same sizes)"
# The FP8 floor tfgpu used (its KB, kb/gpus.toml [[tensor_core_math]]), for the peer too.
fp8_floor=()
fp8_min_cc=$(grep -A1 '^feature = "fp8"' kb/gpus.toml | sed -n 's/^min_cc = "\(.*\)"/\1/p' || true)
[[ -n "$fp8_min_cc" ]] && fp8_floor=(--fp8-min-cc "$fp8_min_cc")
PYTHONUNBUFFERED=1 timeout 200 "$PYTHON" scripts/torch_gemm_peer.py --sizes "$SIZES" --warmup 3 --reps 10 \
  --copy-mib "$COPY_MIB" "${fp8_floor[@]}" >"$OUT/torch.json"

step "ratios"
set +e
"$PYTHON" - "$OUT/bench.json" "$OUT/torch.json" <<'PY' | tee "$OUT/ratios.txt"
import json, sys
bench = json.load(open(sys.argv[1]))
torch = json.load(open(sys.argv[2]))
ok = True
print("device: %s | torch %s (CUDA %s) on %s" % (bench.get("device", {}).get("name"), torch.get("torch"),
                                                  torch.get("cuda"), torch.get("device")))
print("cuBLAS used by tfgpu: %s" % bench.get("cublas_library", {}).get("path"))
print("cuBLASLt used by tfgpu (FP8): %s" % (bench.get("cublaslt_library", {}).get("path") or "-"))
if bench.get("fp8_note"):
    print(bench["fp8_note"])
peer = {(g["precision"], g["m"]): g for g in torch["gemm"] if "tflops" in g}
peer_errors = {(g["precision"], g["m"]): g["error"] for g in torch["gemm"] if "error" in g}
print("%-5s %6s %12s %12s %8s %10s" % ("type", "size", "tfgpu TFLOPS", "torch TFLOPS", "ratio", "% of peak"))
for g in bench["gemm"]:
    key = (g["precision"], g["m"])
    if g.get("error") or key not in peer:
        why = g.get("error") or peer_errors.get(key) or "no peer figure"
        if not g.get("error") and key[0] == "fp8":
            why = "%.1f TFLOPS%s; %s" % (g["tflops"], "" if g.get("percent_of_peak") is None else
                                         ", %.0f%% of KB peak" % g["percent_of_peak"],
                                         why if why.startswith("peer n/a") else "peer n/a: " + why)
        print("%-5s %6d  %s" % (key[0], key[1], why))
        ok = ok and key[0] not in ("bf16", "fp16")
        continue
    ratio = g["tflops"] / peer[key]["tflops"]
    pct = g.get("percent_of_peak")
    goal = key[0] in ("bf16", "fp16")
    met = ratio >= 0.90
    if goal and not met:
        ok = False
    print("%-5s %6d %12.1f %12.1f %7.1f%% %10s %s" % (key[0], key[1], g["tflops"], peer[key]["tflops"], 100 * ratio,
          "-" if pct is None else "%.0f%%" % pct, ("goal >= 90%: " + ("met" if met else "NOT MET")) if goal else ""))
peak = bench.get("peak", {}).get("bandwidth_gbs")
tp = torch["bandwidth"][0]["gb_per_s"] if torch.get("bandwidth") else None
for b in bench["bandwidth"]:
    line = "%-14s %10.1f GB/s" % (b["id"], b.get("gb_per_s", 0))
    if b["id"].startswith("d2d") and peak:
        frac = b.get("gb_per_s", 0) / peak
        line += "  %5.1f%% of KB peak %.0f GB/s" % (100 * frac, peak)
        if b["id"] == "d2d_kernel":
            line += "  goal >= 85%%: %s" % ("met" if frac >= 0.85 else "NOT MET")
            ok = ok and frac >= 0.85
        if tp:
            line += "  (torch copy_: %.1f GB/s)" % tp
    print(line)
if not peak:
    print("no KB bandwidth peak for this card: bandwidth goal not checked")
    ok = False
for fast in ("fp16", "bf16"):
    line = bench.get("mixed_precision_speedup", {}).get(fast)
    if line:
        print(line)
print("ALL GOALS MET" if ok else "SOME GOALS NOT MET")
sys.exit(0 if ok else 1)
PY
ratios_rc=${PIPESTATUS[0]}
set -e

step "done"
echo "verify exit $verify_rc, bench exit $bench_rc, ratios exit $ratios_rc"
exit "$ratios_rc"
