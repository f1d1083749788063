#!/usr/bin/env bash
# Every source of src/ compiles on its own (g++ -fsyntax-only), with the flags of the core
# library: the unity build (TFGPU_UNITY, on by default) compiles files in batches, so a .cc
# that uses a name only an earlier file of its batch includes builds there and fails with
# TFGPU_UNITY=OFF or a one-file-at-a-time build (fuzz/build_gcc_libfuzzer.sh; it happened:
# explain/infer.cc and is_cuda_component). Windows-only files (*_win32.cc) are left to the
# mingw build. Usage: each_source_compiles_alone.sh [CXX]
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${1:-g++}
mapfile -t sources < <(find src -name '*.cc' ! -name '*_win32.cc' | sort)
# shellcheck disable=SC2016  # $0 and $1 are the inner shell's: the compiler and the file
printf '%s\0' "${sources[@]}" |
  xargs -0 -P "$(nproc)" -I{} sh -c '"$0" -std=c++23 -fsyntax-only -Isrc -DTOML_HEADER_ONLY=1 -DTOML_EXCEPTIONS=1 \
    -DTFGPU_VERSION=\"check\" "$1" || { echo "does not compile on its own: $1" >&2; exit 255; }' "$cxx" {}
echo "${#sources[@]} sources compile on their own"
