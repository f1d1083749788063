# Portable Linux build: Zig's clang driver targeting glibc 2.17 (the manylinux2014 floor).
# Zig ships the glibc 2.17 symbol-version stubs and LLVM's libc++/libunwind, so the binary
# needs nothing newer than GLIBC_2.17 and carries its C++ runtime inside (static libc++,
# libc++abi, libunwind; no libstdc++/libgcc_s at run time). Vendor libraries (libcuda,
# NVML, cudart, cuDNN) are still dlopen'ed at run time, in the child process, as before.
# The compiler wrappers are written by scripts/build-portable.sh (zig from PyPI's `ziglang`
# in a venv under build/tools/), which is the one way to configure this preset.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(TFGPU_ZIG_BIN "${CMAKE_CURRENT_LIST_DIR}/../build/tools/bin")
if(NOT EXISTS "${TFGPU_ZIG_BIN}/zig-c++")
  message(FATAL_ERROR "zig wrappers missing in ${TFGPU_ZIG_BIN}: run scripts/build-portable.sh")
endif()
set(CMAKE_C_COMPILER "${TFGPU_ZIG_BIN}/zig-cc")
set(CMAKE_CXX_COMPILER "${TFGPU_ZIG_BIN}/zig-c++")
set(CMAKE_AR "${TFGPU_ZIG_BIN}/zig-ar" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "${TFGPU_ZIG_BIN}/zig-ranlib" CACHE FILEPATH "" FORCE)
# Debian's header-only libraries (CLI11, nlohmann-json, toml++, fmt) come from /usr/include,
# searched after Zig's own libc++ and glibc 2.17 headers (CMakeLists.txt: -idirafter).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(TFGPU_PORTABLE ON CACHE BOOL "" FORCE)
