#!/usr/bin/env bash
# Prints the real tier's summary lines, which ctest keeps to itself when the tests pass: the
# agreement line (run_real.py: doctor against real TensorFlow), `plans resolved: N/M` and
# `plans installed and imported: N/M` (plans.py). Usage: scripts/real-summary.sh [BUILD_DIR]
set -euo pipefail
build="${1:-build/release}"
if [ -f "$build/real/agreement.txt" ]; then
  cat "$build/real/agreement.txt"
else
  echo "real-TF agreement: not measured (the real tier was skipped or not run; see ctest's output)"
fi
if [ -f "$build/real/plans.txt" ]; then
  cat "$build/real/plans.txt"
else
  echo "plans resolved: not measured (tests/real/plans.py was skipped or not run; see ctest's output)"
fi
if [ -f "$build/real/installs.txt" ]; then
  cat "$build/real/installs.txt"
else
  echo "plans installed and imported: not measured (tests/real/plans.py --install was skipped or not run)"
fi
