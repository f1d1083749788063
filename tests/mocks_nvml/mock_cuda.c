/* Minimal mock libcuda.so.1 for the probe's cuDriverGetVersion fallback; behaviour from
   TFGPU_MOCK_CUDA = ok (default) | no_device | crash. CUresult values from cuda.h. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static int is(const char* m) {
  const char* v = getenv("TFGPU_MOCK_CUDA");
  return strcmp(v && *v ? v : "ok", m) == 0;
}

int cuDriverGetVersion(int* v) {
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
