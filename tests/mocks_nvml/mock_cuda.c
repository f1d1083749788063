/* Minimal mock libcuda.so.1 for the probe's cuDriverGetVersion fallback (the full mock for
   verify/bench is tests/mocks_cuda, another slice); behaviour from
   TFGPU_MOCK_CUDA = ok (default) | no_device | crash. CUresult values from cuda.h. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "../support/mock_hostile.h"

static int is(const char* m) {
  const char* v = getenv("TFGPU_MOCK_CUDA");
  return strcmp(v && *v ? v : "ok", m) == 0;
}

int cuDriverGetVersion(int* v) {
  mock_hostile_init();
  if (is("crash")) raise(SIGSEGV);
  *v = 12020;
  return 0;
}
int cuInit(unsigned flags) {
  (void)flags;
  return is("no_device") ? 100 /* CUDA_ERROR_NO_DEVICE */ : 0;
}
int cuDeviceGetCount(int* n) {
  *n = 1;
  return 0;
}
int cuGetErrorName(int r, const char** s) {
  *s = r == 100 ? "CUDA_ERROR_NO_DEVICE" : r == 0 ? "CUDA_SUCCESS" : "CUDA_ERROR_UNKNOWN";
  return 0;
}

/* The rest of the table gpu/cuda_driver.h binds as required: present, never used by
   the probe, each answering CUDA_ERROR_NOT_SUPPORTED (801). */
#define MOCK_UNSUPPORTED(name) int name() { return 801; }
MOCK_UNSUPPORTED(cuDeviceGet)
MOCK_UNSUPPORTED(cuDeviceGetName)
MOCK_UNSUPPORTED(cuDeviceGetAttribute)
MOCK_UNSUPPORTED(cuDeviceTotalMem_v2)
MOCK_UNSUPPORTED(cuDevicePrimaryCtxRetain)
MOCK_UNSUPPORTED(cuDevicePrimaryCtxRelease_v2)
MOCK_UNSUPPORTED(cuCtxSetCurrent)
MOCK_UNSUPPORTED(cuCtxSynchronize)
MOCK_UNSUPPORTED(cuMemGetInfo_v2)
MOCK_UNSUPPORTED(cuMemAlloc_v2)
MOCK_UNSUPPORTED(cuMemFree_v2)
MOCK_UNSUPPORTED(cuMemAllocHost_v2)
MOCK_UNSUPPORTED(cuMemFreeHost)
MOCK_UNSUPPORTED(cuMemcpyHtoD_v2)
MOCK_UNSUPPORTED(cuMemcpyDtoH_v2)
MOCK_UNSUPPORTED(cuMemcpyDtoD_v2)
MOCK_UNSUPPORTED(cuMemsetD8_v2)
MOCK_UNSUPPORTED(cuModuleLoadData)
MOCK_UNSUPPORTED(cuModuleUnload)
MOCK_UNSUPPORTED(cuModuleGetFunction)
MOCK_UNSUPPORTED(cuLaunchKernel)
MOCK_UNSUPPORTED(cuEventCreate)
MOCK_UNSUPPORTED(cuEventRecord)
MOCK_UNSUPPORTED(cuEventSynchronize)
MOCK_UNSUPPORTED(cuEventElapsedTime)
MOCK_UNSUPPORTED(cuEventDestroy)
