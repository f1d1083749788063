#include "gpu/nvml.h"

#include <fmt/format.h>

namespace tfgpu::nvml {

std::vector<std::string> default_candidates(Platform platform) {
  // nvidia.md §5a: the driver ships libnvidia-ml.so.1; the unversioned name exists only
  // with dev packages and never on WSL2, so the soname goes first. Windows: System32
  // (DCH drivers), then the older NVSMI folder.
  if (platform == Platform::kWindows) return {"nvml.dll", "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll"};
  return {"libnvidia-ml.so.1", "libnvidia-ml.so"};
}

Result<Loaded> load(const std::vector<std::string>& candidates, LoadOutcome* outcome) {
  auto lib = DynamicLibrary::open(candidates, outcome);
  if (!lib) return fail(lib.error());
  Loaded out{std::move(*lib), {}};
  using Need = SymbolBinder::Need;
  SymbolBinder b(out.library);
  Functions& f = out.fn;
  b.bind(f.init, {"nvmlInit_v2", "nvmlInit"});
  b.bind(f.shutdown, {"nvmlShutdown"});
  b.bind(f.error_string, {"nvmlErrorString"}, Need::kOptional);
  b.bind(f.system_get_driver_version, {"nvmlSystemGetDriverVersion"});
  b.bind(f.system_get_cuda_driver_version, {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"},
         Need::kOptional);
  b.bind(f.device_get_count, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
  b.bind(f.device_get_handle_by_index, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
  b.bind(f.device_get_name, {"nvmlDeviceGetName"}, Need::kOptional);
  b.bind(f.device_get_uuid, {"nvmlDeviceGetUUID"}, Need::kOptional);
  b.bind(f.device_get_cuda_compute_capability, {"nvmlDeviceGetCudaComputeCapability"}, Need::kOptional);
  b.bind(f.device_get_memory_info, {"nvmlDeviceGetMemoryInfo"}, Need::kOptional);
  b.bind(f.device_get_pci_info, {"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2", "nvmlDeviceGetPciInfo"},
         Need::kOptional);
  if (auto ok = b.finish(); !ok) return fail(ok.error());
  return out;
}

namespace {
const char* return_name(Return r) {
  // nvml.h nvmlReturn_enum (nvidia.md §5b).
  switch (r) {
    case 0: return "NVML_SUCCESS";
    case 1: return "NVML_ERROR_UNINITIALIZED";
    case 2: return "NVML_ERROR_INVALID_ARGUMENT";
    case 3: return "NVML_ERROR_NOT_SUPPORTED";
    case 4: return "NVML_ERROR_NO_PERMISSION";
    case 5: return "NVML_ERROR_ALREADY_INITIALIZED";
    case 6: return "NVML_ERROR_NOT_FOUND";
    case 7: return "NVML_ERROR_INSUFFICIENT_SIZE";
    case 9: return "NVML_ERROR_DRIVER_NOT_LOADED";
    case 12: return "NVML_ERROR_LIBRARY_NOT_FOUND";
    case 13: return "NVML_ERROR_FUNCTION_NOT_FOUND";
    case 15: return "NVML_ERROR_GPU_IS_LOST";
    case 18: return "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
    case 999: return "NVML_ERROR_UNKNOWN";
    default: return "NVML_ERROR";
  }
}
}  // namespace

std::string describe_return(Return r, const Functions* fn) {
  std::string s = fmt::format("{} ({})", return_name(r), r);
  if (r != kSuccess && fn && fn->error_string) {
    if (const char* text = fn->error_string(r); text && *text) s += fmt::format(": {}", text);
  }
  return s;
}

}  // namespace tfgpu::nvml
