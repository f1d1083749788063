#!/usr/bin/env bash
# Builds tfgpu.exe and the Windows test binary with mingw-w64 and runs the tests under
# Wine, headless, in a throwaway WINEPREFIX. Usage: scripts/test-windows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --windows
cmake --preset windows
cmake --build --preset windows

WINEPREFIX="$(mktemp -d "${TMPDIR:-/tmp}/tfgpu-wine.XXXXXX")"
export WINEPREFIX WINEDEBUG=-all LANG=C.UTF-8
unset DISPLAY
cleanup() { wineserver -k >/dev/null 2>&1 || true; rm -rf "$WINEPREFIX"; }
trap cleanup EXIT
# Warm a persistent server with the helpers' stdio on /dev/null, or ctest waits for
# services.exe to let go of each test's output pipe (facts: windows-build-and-mocks.md §2).
wineserver -p </dev/null >/dev/null 2>&1
wine wineboot </dev/null >/dev/null 2>&1
ctest --preset windows
