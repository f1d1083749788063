#!/usr/bin/env bash
# Prints the real tier's agreement line (tests/real: doctor against real TensorFlow), which
# ctest keeps to itself when the test passes. Usage: scripts/real-summary.sh [BUILD_DIR]
set -euo pipefail
build="${1:-build/release}"
if [ -f "$build/real/agreement.txt" ]; then
  cat "$build/real/agreement.txt"
else
  echo "real-TF agreement: not measured (the real tier was skipped or not run; see ctest's output)"
fi
