#!/usr/bin/env bash
# Builds the portable Linux tfgpu (glibc >= 2.17, C++ runtime linked in) with Zig's clang
# driver: build/portable/tfgpu. Zig comes from PyPI (`ziglang`) into a venv under
# build/tools/ (pip's cache is reused); nothing else is downloaded.
# Usage: scripts/build-portable.sh [--tools-only]
set -euo pipefail
cd "$(dirname "$0")/.."
tools_only=0
for arg in "$@"; do
  case "$arg" in
    --tools-only) tools_only=1 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "build-portable.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
bash scripts/setup.sh >/dev/null
tools="$PWD/build/tools"
zig_version=0.17.1  # pinned: the wheels are built with a known toolchain
if [ ! -x "$tools/venv/bin/python" ]; then
  python3 -m venv "$tools/venv"
fi
if ! "$tools/venv/bin/python" -c "import ziglang" 2>/dev/null; then
  "$tools/venv/bin/pip" install -q "ziglang==$zig_version"
fi
zig="$("$tools/venv/bin/python" -c 'import ziglang,os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')"
mkdir -p "$tools/bin"
write_wrapper() {  # name, zig subcommand and its arguments
  local name=$1; shift
  printf '#!/bin/sh\n# written by scripts/build-portable.sh\nexec "%s" %s "$@"\n' "$zig" "$*" >"$tools/bin/$name.tmp"
  chmod +x "$tools/bin/$name.tmp"
  mv "$tools/bin/$name.tmp" "$tools/bin/$name"
}
write_wrapper zig-cc cc -target x86_64-linux-gnu.2.17
write_wrapper zig-c++ c++ -target x86_64-linux-gnu.2.17
write_wrapper zig-ar ar
write_wrapper zig-ranlib ranlib
[ "$tools_only" = 1 ] && exit 0
cmake --preset portable
cmake --build --preset portable
