#!/usr/bin/env bash
# Speed of `tfgpu doctor` with a TensorFlow venv active, against the same venv's real
# interpreter, measured in one run (ratios, not absolute numbers; no assertions):
#   doctor / `python -c pass`             target < 1
#   doctor / `python -c "import tensorflow"`  target <= 1/100
#   tfgpu's peak RSS (/usr/bin/time -v)    target <= 20 MB
# Usage: bench/doctor_vs_python.sh VENV [TFGPU] [RUNS]
#   VENV: a venv with TensorFlow installed (activated for every command: VIRTUAL_ENV and
#   PATH, as `source VENV/bin/activate` sets them). TFGPU defaults to build/release/tfgpu,
#   RUNS to 20 (import tensorflow runs RUNS/5 times, at least 3). DOCTOR_ARGS adds
#   doctor arguments.
set -euo pipefail
VENV=${1:?usage: bench/doctor_vs_python.sh VENV [TFGPU] [RUNS]}
TFGPU=${2:-build/release/tfgpu}
RUNS=${3:-20}
read -r -a ARGS <<< "${DOCTOR_ARGS:-}"
[ -x "$TFGPU" ] || { echo "no tfgpu binary at $TFGPU (build first)" >&2; exit 2; }
[ -x "$VENV/bin/python" ] || { echo "no venv at $VENV (no bin/python)" >&2; exit 2; }
# The venv's own python: a symlink straight to the interpreter binary (never a pyenv shim,
# which is a shell script), and the path that makes Python read pyvenv.cfg and so see the
# venv's site-packages (the resolved binary alone would not find TensorFlow).
PY="$VENV/bin/python"
[ -x "$PY" ] || { echo "doctor_vs_python.sh: $PY is not executable" >&2; exit 2; }
case "$(head -c 2 "$(readlink -f "$PY")")" in '#!') echo "doctor_vs_python.sh: $PY is a script (a shim?), not an interpreter" >&2; exit 2 ;; esac
VENV=$(cd "$VENV" && pwd)
export VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH"
unset PYTHONHOME
TF_RUNS=$(( RUNS / 5 < 3 ? 3 : RUNS / 5 ))

# doctor and its peer alternate, run by run (alternate_medians.py: posix_spawn and wait, no
# shell or `date` processes inside the measurement): a machine that speeds up or slows down
# during the benchmark moves both alike, not the ratio.
TIMER_PY=$(command -v python3 || echo "$PY")
medians() { "$TIMER_PY" "$(dirname "$0")/alternate_medians.py" "$@"; }
mapfile -t medians < <(medians "$RUNS" "$TFGPU" doctor "${ARGS[@]}" :: "$PY" -c pass)
doctor=${medians[0]}
pass=${medians[1]}
import_tf=$(medians "$TF_RUNS" env TF_CPP_MIN_LOG_LEVEL=3 "$PY" -c "import tensorflow")
rss_kb=$( { /usr/bin/time -f '%M' "$TFGPU" doctor "${ARGS[@]}" 2>&1 >/dev/null || true; } | tail -1)

echo "venv: $VENV (interpreter $PY)"
echo "tfgpu doctor ${ARGS[*]}: ${doctor} ms (median of $RUNS)"
echo "python -c pass: ${pass} ms (median of $RUNS)"
echo "python -c 'import tensorflow': ${import_tf} ms (median of $TF_RUNS)"
awk -v d="$doctor" -v p="$pass" -v t="$import_tf" -v r="$rss_kb" 'BEGIN {
  printf "ratio doctor / python -c pass: %.2f (target < 1)\n", d / p
  printf "ratio doctor / import tensorflow: 1/%.0f (target <= 1/100)\n", t / d
  printf "tfgpu doctor peak RSS: %.1f MB (target <= 20 MB)\n", r / 1024
}'
