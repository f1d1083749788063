#!/usr/bin/env bash
# Builds the binfmt libFuzzer targets with g++ (ASan + UBSan, trace-pc/trace-cmp coverage)
# linked against clang's libFuzzer runtime. Why: clang 14 (Debian 12's) cannot compile
# libstdc++'s std::expected (no P0848 conditionally trivial destructors), so the CMake
# fuzz build (-DTFGPU_BUILD_FUZZ=ON with clang) fails on util/error.h until a clang >= 16
# is available. Usage: fuzz/build_gcc_libfuzzer.sh [OUT_DIR]; then OUT_DIR/elf_fuzz -max_total_time=60
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/fuzz-gcc}
runtime=$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | sort -V | tail -1)
[[ -n "$runtime" ]] || { echo "no libclang_rt.fuzzer-x86_64.a (apt-get install libclang-rt-14-dev or clang-14)" >&2; exit 2; }
mkdir -p "$out/obj"
# fmt is linked as the shared library here (header-only fmt makes each instrumented
# object take minutes to compile).
flags=(-std=c++23 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fsanitize-coverage=trace-pc,trace-cmp -Isrc)
objs=()
pids=()
for src in src/binfmt/*.cc src/util/strings.cc src/host/host.cc; do
  obj="$out/obj/$(echo "$src" | tr / _).o"
  if [[ ! -f "$obj" || "$src" -nt "$obj" ]]; then
    g++ "${flags[@]}" -c "$src" -o "$obj" &
    pids+=($!)
    if (( ${#pids[@]} >= 2 )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
  objs+=("$obj")
done
for p in "${pids[@]}"; do wait "$p"; done
gcc -O2 -c fuzz/gcc_coverage_shim.c -o "$out/obj/shim.o"
# libFuzzer's own __sanitizer_cov_trace_pc only prints "no longer supported"; weaken it so
# the shim's counter-based one is linked instead.
objcopy --weaken-symbol=__sanitizer_cov_trace_pc "$runtime" "$out/obj/libfuzzer.a"
runtime="$out/obj/libfuzzer.a"
for target in fuzz/elf_fuzz.cc fuzz/pe_fuzz.cc fuzz/ldcache_fuzz.cc fuzz/pymeta_fuzz.cc; do
  name=$(basename "$target" .cc)
  g++ "${flags[@]}" "$target" "${objs[@]}" "$out/obj/shim.o" "$runtime" -lfmt -lpthread -o "$out/$name"
  echo "built $out/$name"
done
