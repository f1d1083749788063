#!/usr/bin/env bash
# Builds every libFuzzer target (fuzz/*_fuzz.cc) with g++ (ASan + UBSan, trace-pc/trace-cmp
# coverage) linked against clang's libFuzzer runtime. Why: clang 14 (Debian 12's) cannot
# compile libstdc++'s std::expected (no P0848 conditionally trivial destructors), so the
# CMake fuzz build (-DTFGPU_BUILD_FUZZ=ON with clang) fails on util/error.h until a
# clang >= 16 is available. The whole core library (src/ but main and the Windows files)
# is compiled instrumented, once, then each target links it.
# Usage: fuzz/build_gcc_libfuzzer.sh [OUT_DIR] [TARGET...]
#   then OUT_DIR/elf_fuzz -max_total_time=60 [CORPUS_DIR]
# The ordinary test run has a short, uninstrumented run of every target (ctest -L fuzz,
# tests/fuzz_smoke/CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/fuzz-gcc}
shift || true
runtime=$(find /usr/lib -path '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' 2>/dev/null | sort -V | tail -1)
[[ -n "$runtime" ]] || { echo "no libclang_rt.fuzzer-x86_64.a (apt-get install libclang-rt-14-dev or clang-14)" >&2; exit 2; }
mkdir -p "$out/obj" "$out/generated"
# The knowledge base embedded as the CMake build does it (cmake/embed_kb.cmake).
kb_cc="$out/generated/kb_embedded.cc"
cmake -DOUT="$kb_cc" -DKB_DIR="$PWD/kb" -P cmake/embed_kb.cmake
# shellcheck disable=SC2054  # the commas are -fsanitize's list, not array separators
flags=(-std=c++23 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fsanitize-coverage=trace-pc,trace-cmp -Isrc -DTOML_HEADER_ONLY=1 -DTOML_EXCEPTIONS=1
       -DTFGPU_VERSION=\"fuzz\")
jobs=${FUZZ_JOBS:-2}
objs=()
pids=()
mapfile -t sources < <(find src -name '*.cc' ! -name main.cc ! -name '*_win32.cc' | sort)
newest_header=$(find src -name '*.h' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
# No compiled KB blob (tools/kb_blob_none.cc): the fuzzers' knowledge base is parsed from
# the embedded TOML, through the same loader as `--kb DIR`.
for src in "${sources[@]}" "$kb_cc" tools/kb_blob_none.cc; do
  obj="$out/obj/$(echo "$src" | tr / _).o"
  # No dependency tracking: an object older than its source or than any header under src/
  # is rebuilt (a changed struct must never meet objects compiled against the old layout).
  if [[ ! -f "$obj" || "$src" -nt "$obj" || "$newest_header" -nt "$obj" ]]; then
    g++ "${flags[@]}" -c "$src" -o "$obj" &
    pids+=($!)
    if (( ${#pids[@]} >= jobs )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
  objs+=("$obj")
done
for p in "${pids[@]}"; do wait "$p"; done
gcc -O2 -c fuzz/gcc_coverage_shim.c -o "$out/obj/shim.o"
# libFuzzer's own __sanitizer_cov_trace_pc only prints "no longer supported"; weaken it so
# the shim's counter-based one is linked instead.
objcopy --weaken-symbol=__sanitizer_cov_trace_pc "$runtime" "$out/obj/libfuzzer.a"
runtime="$out/obj/libfuzzer.a"
ar rcs "$out/obj/core.a" "${objs[@]}"
targets=("$@")
if (( ${#targets[@]} == 0 )); then
  mapfile -t targets < <(find fuzz -maxdepth 1 -name '*_fuzz.cc' -printf '%f\n' | sed 's/\.cc$//' | sort)
fi
for name in "${targets[@]}"; do
  g++ "${flags[@]}" "fuzz/$name.cc" "$out/obj/core.a" "$out/obj/shim.o" "$runtime" -ldl -lpthread -o "$out/$name"
  echo "built $out/$name"
done
