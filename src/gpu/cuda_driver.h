#pragma once
// The CUDA driver API (libcuda.so.1 / nvcuda.dll) as a typed function table, opened at
// run time: the few types and entry points tfgpu calls, declared here so that building
// needs no CUDA SDK. `tfgpu verify` / `bench` and the driver probe share it. Load it
// only in a child process: a broken driver may crash or hang inside any call.

#include <cstddef>
#include <string>
#include <vector>

#include "host/dynamic_library.h"
#include "util/error.h"

#if defined(_WIN32) && !defined(_WIN64)
#define TFGPU_CUDAAPI __stdcall
#else
#define TFGPU_CUDAAPI
#endif

namespace tfgpu::gpu {

// ABI types from cuda.h (stable since CUDA 3.2 for the _v2 entry points used here).
using CUresult = int;  // CUDA_SUCCESS = 0; names come from cuGetErrorName
using CUdevice = int;
using CUdeviceptr = unsigned long long;  // 64-bit builds only
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;

inline constexpr CUresult kCudaSuccess = 0;

// CUdevice_attribute values used by tfgpu (cuda.h; unchanged since CUDA 9).
enum CuDeviceAttribute : int {
  kAttrClockRateKhz = 13,
  kAttrMultiprocessorCount = 16,
  kAttrKernelExecTimeout = 17,
  kAttrIntegrated = 18,
  kAttrComputeMode = 20,
  kAttrEccEnabled = 32,
  kAttrPciBusId = 33,
  kAttrPciDeviceId = 34,  // PCI slot number, not the product id
  kAttrTccDriver = 35,
  kAttrMemoryClockRateKhz = 36,
  kAttrGlobalMemoryBusWidth = 37,
  kAttrPciDomainId = 50,
  kAttrComputeCapabilityMajor = 75,
  kAttrComputeCapabilityMinor = 76,
};

// One pointer per entry point; optional ones may be null (older drivers).
struct CudaDriverApi {
  CUresult(TFGPU_CUDAAPI* cuInit)(unsigned int flags) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuDriverGetVersion)(int* version) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuGetErrorName)(CUresult error, const char** name) = nullptr;      // optional
  CUresult(TFGPU_CUDAAPI* cuGetErrorString)(CUresult error, const char** text) = nullptr;    // optional
  CUresult(TFGPU_CUDAAPI* cuDeviceGetCount)(int* count) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuDeviceGetName)(char* name, int len, CUdevice dev) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuDeviceGetAttribute)(int* value, int attribute, CUdevice dev) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuDeviceTotalMem)(size_t* bytes, CUdevice dev) = nullptr;           // _v2
  CUresult(TFGPU_CUDAAPI* cuDeviceGetPCIBusId)(char* id, int len, CUdevice dev) = nullptr;    // optional
  CUresult(TFGPU_CUDAAPI* cuDevicePrimaryCtxRetain)(CUcontext* ctx, CUdevice dev) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuDevicePrimaryCtxRelease)(CUdevice dev) = nullptr;                 // _v2
  CUresult(TFGPU_CUDAAPI* cuCtxCreate)(CUcontext* ctx, unsigned int flags, CUdevice dev) = nullptr;  // _v2, optional
  CUresult(TFGPU_CUDAAPI* cuCtxDestroy)(CUcontext ctx) = nullptr;                              // _v2, optional
  CUresult(TFGPU_CUDAAPI* cuCtxSetCurrent)(CUcontext ctx) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuCtxSynchronize)() = nullptr;
  CUresult(TFGPU_CUDAAPI* cuMemGetInfo)(size_t* free_bytes, size_t* total_bytes) = nullptr;   // _v2
  CUresult(TFGPU_CUDAAPI* cuMemAlloc)(CUdeviceptr* ptr, size_t bytes) = nullptr;              // _v2
  CUresult(TFGPU_CUDAAPI* cuMemFree)(CUdeviceptr ptr) = nullptr;                              // _v2
  CUresult(TFGPU_CUDAAPI* cuMemAllocHost)(void** ptr, size_t bytes) = nullptr;                // _v2
  CUresult(TFGPU_CUDAAPI* cuMemFreeHost)(void* ptr) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuMemcpyHtoD)(CUdeviceptr dst, const void* src, size_t bytes) = nullptr;  // _v2
  CUresult(TFGPU_CUDAAPI* cuMemcpyDtoH)(void* dst, CUdeviceptr src, size_t bytes) = nullptr;        // _v2
  CUresult(TFGPU_CUDAAPI* cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes) = nullptr;  // _v2
  CUresult(TFGPU_CUDAAPI* cuMemsetD8)(CUdeviceptr dst, unsigned char value, size_t count) = nullptr;  // _v2
  CUresult(TFGPU_CUDAAPI* cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuModuleUnload)(CUmodule module) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuModuleGetFunction)(CUfunction* fn, CUmodule module, const char* name) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuLaunchKernel)(CUfunction fn, unsigned int grid_x, unsigned int grid_y,
                                          unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                          unsigned int block_z, unsigned int shared_bytes, CUstream stream,
                                          void** params, void** extra) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuEventCreate)(CUevent* event, unsigned int flags) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuEventSynchronize)(CUevent event) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuEventElapsedTime)(float* ms, CUevent start, CUevent end) = nullptr;
  CUresult(TFGPU_CUDAAPI* cuEventDestroy)(CUevent event) = nullptr;  // _v2
};

// The platform's driver library names, in the order tried.
std::vector<std::string> default_cuda_driver_candidates();

// An opened driver: the library stays loaded as long as this lives.
class CudaDriver {
 public:
  // Opens the first loadable candidate and binds every entry point (versioned names
  // first). The LoadOutcome is filled either way; a missing required symbol is an error.
  static Result<CudaDriver> open(const std::vector<std::string>& candidates, LoadOutcome* outcome = nullptr);

  const CudaDriverApi& api() const { return api_; }
  const std::string& path() const { return lib_.path(); }

  // "CUDA_ERROR_NO_DEVICE" from the driver itself, or "CUresult 100" when it cannot say.
  std::string error_name(CUresult code) const;
  // The driver's one-line description of a code ("" when it has none).
  std::string error_text(CUresult code) const;

 private:
  DynamicLibrary lib_;
  CudaDriverApi api_;
};

// 12080 -> "12.8" (cuDriverGetVersion encoding: 1000*major + 10*minor).
std::string cuda_version_text(int encoded);

}  // namespace tfgpu::gpu
