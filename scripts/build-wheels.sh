#!/usr/bin/env bash
# Builds tfgpu's wheels: manylinux_2_17_x86_64 (the portable binary, scripts/build-portable.sh)
# and win_amd64 (tfgpu.exe from the `windows` preset: mingw-w64, statically linked), each
# with the man page and shell completions, tag-checked (scripts/wheels.py). Nothing is
# downloaded except what the two builds install (Debian packages, zig from PyPI).
# Usage: scripts/build-wheels.sh [--out DIR] [--platform linux|windows|all]   (default dist/, all)
set -euo pipefail
out=dist
platforms=all
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || { echo "build-wheels.sh: --out needs a folder" >&2; exit 2; }; out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --platform) [ $# -ge 2 ] || { echo "build-wheels.sh: --platform needs linux, windows or all" >&2; exit 2; }
                platforms=$2; shift 2 ;;
    --platform=*) platforms=${1#--platform=}; shift ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "build-wheels.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
case "$platforms" in
  linux|windows|all) ;;
  *) echo "build-wheels.sh: --platform must be linux, windows or all, not '$platforms'" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."

version=$(sed -n 's/^project(tfgpu VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "build-wheels.sh: no project version in CMakeLists.txt" >&2; exit 1; }

# The portable build always: its binary also writes the man page and completions (cli-docs/).
bash scripts/build-portable.sh
linux_bin=build/portable/tfgpu
got=$("$linux_bin" --version)
[ "$got" = "tfgpu $version" ] || { echo "build-wheels.sh: $linux_bin says '$got', CMakeLists.txt says $version" >&2; exit 1; }

if [ "$platforms" != windows ]; then
  python3 scripts/wheels.py build --platform linux --binary "$linux_bin" --docs build/portable/cli-docs \
    --out "$out" --version "$version" --readme README.md
fi
if [ "$platforms" != linux ]; then
  bash scripts/setup.sh --windows >/dev/null
  cmake --preset windows >/dev/null
  cmake --build --preset windows --target tfgpu
  python3 scripts/wheels.py build --platform windows --binary build/windows/tfgpu.exe \
    --docs build/portable/cli-docs --out "$out" --version "$version" --readme README.md
fi
