#!/usr/bin/env bash
# Prints the real tier's agreement line (tests/real: doctor against real TensorFlow) and, when
# tests/real/plans.py ran, its `plans resolved: N/M` line; ctest keeps both to itself when the
# tests pass. Usage: scripts/real-summary.sh [BUILD_DIR]
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
