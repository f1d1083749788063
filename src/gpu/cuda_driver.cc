#include "gpu/cuda_driver.h"

#include <fmt/format.h>

namespace tfgpu::gpu {

std::vector<std::string> default_cuda_driver_candidates() {
#ifdef _WIN32
  return {"nvcuda.dll"};
#else
  // The SONAME: the unversioned libcuda.so is a development link, absent on WSL
  // (microsoft/WSL#8587) and on driver-only installs.
  return {"libcuda.so.1"};
#endif
}

Result<CudaDriver> CudaDriver::open(const std::vector<std::string>& candidates, LoadOutcome* outcome) {
  auto lib = DynamicLibrary::open(candidates, outcome);
  if (!lib) return fail(lib.error());
  CudaDriver d;
  d.lib_ = std::move(*lib);
  using Need = SymbolBinder::Need;
  SymbolBinder b(d.lib_);
  CudaDriverApi& a = d.api_;
  // cuda.h #defines the plain names to these versioned symbols; the plain symbols
  // are the old ABI (e.g. cuDeviceTotalMem with a 32-bit size), so never bind them first.
  b.bind(a.cuInit, {"cuInit"});
  b.bind(a.cuDriverGetVersion, {"cuDriverGetVersion"});
  b.bind(a.cuGetErrorName, {"cuGetErrorName"}, Need::kOptional);
  b.bind(a.cuGetErrorString, {"cuGetErrorString"}, Need::kOptional);
  b.bind(a.cuDeviceGetCount, {"cuDeviceGetCount"});
  b.bind(a.cuDeviceGet, {"cuDeviceGet"});
  b.bind(a.cuDeviceGetName, {"cuDeviceGetName"});
  b.bind(a.cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
  b.bind(a.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"});
  b.bind(a.cuDeviceGetPCIBusId, {"cuDeviceGetPCIBusId"}, Need::kOptional);
  b.bind(a.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  b.bind(a.cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  b.bind(a.cuCtxCreate, {"cuCtxCreate_v2"}, Need::kOptional);
  b.bind(a.cuCtxDestroy, {"cuCtxDestroy_v2"}, Need::kOptional);
  b.bind(a.cuCtxSetCurrent, {"cuCtxSetCurrent"});
  b.bind(a.cuCtxSynchronize, {"cuCtxSynchronize"});
  b.bind(a.cuMemGetInfo, {"cuMemGetInfo_v2"});
  b.bind(a.cuMemAlloc, {"cuMemAlloc_v2"});
  b.bind(a.cuMemFree, {"cuMemFree_v2"});
  b.bind(a.cuMemAllocHost, {"cuMemAllocHost_v2"});
  b.bind(a.cuMemFreeHost, {"cuMemFreeHost"});
  b.bind(a.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"});
  b.bind(a.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"});
  b.bind(a.cuMemcpyDtoD, {"cuMemcpyDtoD_v2"});
  b.bind(a.cuMemsetD8, {"cuMemsetD8_v2"});
  b.bind(a.cuModuleLoadData, {"cuModuleLoadData"});
  b.bind(a.cuModuleUnload, {"cuModuleUnload"});
  b.bind(a.cuModuleGetFunction, {"cuModuleGetFunction"});
  b.bind(a.cuLaunchKernel, {"cuLaunchKernel"});
  b.bind(a.cuEventCreate, {"cuEventCreate"});
  b.bind(a.cuEventRecord, {"cuEventRecord"});
  b.bind(a.cuEventSynchronize, {"cuEventSynchronize"});
  b.bind(a.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  b.bind(a.cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  if (auto done = b.finish(); !done) return fail(done.error());
  return d;
}

std::string CudaDriver::error_name(CUresult code) const {
  const char* name = nullptr;
  if (api_.cuGetErrorName && api_.cuGetErrorName(code, &name) == kCudaSuccess && name && *name) return name;
  return fmt::format("CUresult {}", code);
}

std::string CudaDriver::error_text(CUresult code) const {
  const char* text = nullptr;
  if (api_.cuGetErrorString && api_.cuGetErrorString(code, &text) == kCudaSuccess && text) return text;
  return "";
}

std::string cuda_version_text(int encoded) {
  if (encoded <= 0) return "unknown";
  return fmt::format("{}.{}", encoded / 1000, (encoded % 1000) / 10);
}

}  // namespace tfgpu::gpu
