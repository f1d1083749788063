#pragma once
// A minimal CUDA driver API table for the probe's fallback only (cuDriverGetVersion,
// cuInit, cuDeviceGetCount): enough to learn the driver's CUDA version when NVML is
// missing. The full table for verify/bench lives in gpu/ (another slice); this one
// stays limited to what the probe needs. Signatures: nvidia.md §5c.

#include <string>
#include <vector>

#include "host/dynamic_library.h"
#include "host/host.h"
#include "util/error.h"

namespace tfgpu::probe::cuda_min {

using CuResult = int;

struct Functions {
  CuResult (*driver_get_version)(int*) = nullptr;
  CuResult (*init)(unsigned) = nullptr;               // optional
  CuResult (*device_get_count)(int*) = nullptr;       // optional
  CuResult (*get_error_name)(CuResult, const char**) = nullptr;  // optional
};

struct Loaded {
  DynamicLibrary library;
  Functions fn;
};

std::vector<std::string> default_candidates(Platform platform);
Result<Loaded> load(const std::vector<std::string>& candidates, LoadOutcome* outcome);
// "CUDA_ERROR_NO_DEVICE (100)" (name from the library when it has cuGetErrorName).
std::string describe_result(CuResult r, const Functions* fn = nullptr);

}  // namespace tfgpu::probe::cuda_min
