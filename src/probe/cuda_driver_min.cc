#include "probe/cuda_driver_min.h"

#include <fmt/format.h>

namespace tfgpu::probe::cuda_min {

std::vector<std::string> default_candidates(Platform platform) {
  // Always the soname: the unversioned libcuda.so may be absent (WSL2, nvidia.md §6),
  // and the toolkit's lib64/stubs/libcuda.so must never be picked on purpose.
  if (platform == Platform::kWindows) return {"nvcuda.dll"};
  return {"libcuda.so.1"};
}

Result<Loaded> load(const std::vector<std::string>& candidates, LoadOutcome* outcome) {
  auto lib = DynamicLibrary::open(candidates, outcome);
  if (!lib) return fail(lib.error());
  Loaded out{std::move(*lib), {}};
  using Need = SymbolBinder::Need;
  SymbolBinder b(out.library);
  b.bind(out.fn.driver_get_version, {"cuDriverGetVersion"});
  b.bind(out.fn.init, {"cuInit"}, Need::kOptional);
  b.bind(out.fn.device_get_count, {"cuDeviceGetCount"}, Need::kOptional);
  b.bind(out.fn.get_error_name, {"cuGetErrorName"}, Need::kOptional);
  if (auto ok = b.finish(); !ok) return fail(ok.error());
  return out;
}

std::string describe_result(CuResult r, const Functions* fn) {
  const char* name = nullptr;
  if (fn && fn->get_error_name && fn->get_error_name(r, &name) != 0) name = nullptr;
  if (!name) {
    // cuda.h CUresult values the probe can meet (nvidia.md §5c).
    switch (r) {
      case 0: name = "CUDA_SUCCESS"; break;
      case 3: name = "CUDA_ERROR_NOT_INITIALIZED"; break;
      case 34: name = "CUDA_ERROR_STUB_LIBRARY"; break;
      case 100: name = "CUDA_ERROR_NO_DEVICE"; break;
      case 999: name = "CUDA_ERROR_UNKNOWN"; break;
      default: name = "CUDA_ERROR"; break;
    }
  }
  return fmt::format("{} ({})", name, r);
}

}  // namespace tfgpu::probe::cuda_min
