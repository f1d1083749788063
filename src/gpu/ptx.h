#pragma once
// The GPU code tfgpu runs, as PTX text embedded in the binary: the driver JIT-compiles it
// for whatever GPU is present (PTX ISA 6.0, target sm_50), so neither building nor
// running tfgpu needs the CUDA SDK. Loaded with cuModuleLoadData.

#include <string_view>

namespace tfgpu::gpu {

// The module text (NUL-terminated, as cuModuleLoadData requires for PTX).
const char* kernels_ptx();

// y[i] = a * x[i] + y[i] for i < n. Parameters: (float a, const float* x, float* y, u32 n).
inline constexpr const char* kSaxpyKernel = "tfgpu_saxpy";
// dst[i] = src[i] for i < n 16-byte words, grid-stride loop. Parameters:
// (const uint4* src, uint4* dst, u64 n).
inline constexpr const char* kCopyKernel = "tfgpu_copy16";

}  // namespace tfgpu::gpu
