#!/usr/bin/env bash
# Benchmark (not a test): median wall time of `tfgpu probe --json` next to a bare
# `python3 -c pass` in the same run, and their ratio. Target: probe faster than Python.
# Usage: bench/probe_vs_python.sh [TFGPU_EXE] [RUNS]
set -eu
exe="${1:-build/release/tfgpu}"
runs="${2:-21}"
median_ms() {  # runs "$@" $runs times, prints the median in ms
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]/1000}'
}
"$exe" probe --json > /dev/null 2>&1  # warm the page cache for both
python3 -c pass
# `python3` may be a pyenv shim (a shell script); also time the interpreter it runs.
real_py=$(python3 -c 'import sys; print(sys.executable)')
probe=$(median_ms "$exe" probe --json)
python=$(median_ms python3 -c pass)
python_real=$(median_ms "$real_py" -c pass)
echo "tfgpu probe --json      : ${probe} ms (median of $runs)"
echo "python3 -c pass         : ${python} ms (median of $runs; $(command -v python3))"
echo "$real_py -c pass : ${python_real} ms (median of $runs)"
awk -v a="$probe" -v b="$python" 'BEGIN {printf "ratio probe / python3        : %.2f (%s)\n", a/b, (a < b ? "probe faster" : "python faster")}'
awk -v a="$probe" -v b="$python_real" 'BEGIN {printf "ratio probe / bare interpreter: %.2f (%s)\n", a/b, (a < b ? "probe faster" : "python faster")}'
