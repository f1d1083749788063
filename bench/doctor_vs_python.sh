#!/usr/bin/env bash
# Wall time of `tfgpu doctor` against `python3 -c "import json"` measured in the same
# run (a ratio, not an absolute number). Usage: bench/doctor_vs_python.sh [TFGPU] [RUNS]
#   TFGPU defaults to build/release/tfgpu, RUNS to 20. Extra doctor arguments can be
#   given in DOCTOR_ARGS (e.g. DOCTOR_ARGS="--snapshot tests/scenarios/wsl2_good.json").
set -euo pipefail
TFGPU=${1:-build/release/tfgpu}
RUNS=${2:-20}
read -r -a ARGS <<< "${DOCTOR_ARGS:-}"
[ -x "$TFGPU" ] || { echo "no tfgpu binary at $TFGPU (build first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 2; }

# Median of RUNS wall times in milliseconds for a command.
median_ms() {
  local times=()
  for _ in $(seq "$RUNS"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true   # doctor exits 1 when it finds blockers
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'
}

doctor=$(median_ms "$TFGPU" doctor "${ARGS[@]}")
python=$(median_ms python3 -c "import json")
ratio=$(awk -v d="$doctor" -v p="$python" 'BEGIN {printf "%.2f", d/p}')
echo "tfgpu doctor ${ARGS[*]}: ${doctor} ms (median of $RUNS)"
echo "python3 -c 'import json': ${python} ms (median of $RUNS)"
echo "ratio doctor/python: ${ratio}"
