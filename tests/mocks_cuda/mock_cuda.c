/* A mock CUDA driver (libcuda.so.1) for tests without a GPU.
 *
 * Device memory is host memory (a CUdeviceptr is a malloc'd pointer); a "kernel launch"
 * recognises tfgpu's PTX entry names (tfgpu_saxpy, tfgpu_copy16) and does the work on the
 * CPU; events read a simulated clock that every copy, kernel and GEMM (from the mock
 * cuBLAS, through tfgpu_mock_cuda_advance) moves forward by work / a fixed rate, so timed
 * figures are exact and reports are deterministic.
 *
 * TFGPU_MOCK_CUDA selects the behaviour (default "ok"):
 *   ok, two_gpus, stub (cuInit -> CUDA_ERROR_STUB_LIBRARY), init_fail (-> CUDA_ERROR_UNKNOWN),
 *   no_device (cuDeviceGetCount -> 0 devices), no_device_error (cuInit -> CUDA_ERROR_NO_DEVICE),
 *   alloc_fail (cuMemAlloc -> CUDA_ERROR_OUT_OF_MEMORY), ctx_fail, corrupt (round trip flips
 *   a byte), module_fail (cuModuleLoadData -> CUDA_ERROR_INVALID_PTX), kernel_fail
 *   (cuLaunchKernel -> CUDA_ERROR_LAUNCH_FAILED), wrong_result (saxpy forgets "+ y" at one
 *   index), crash (SIGSEGV in cuInit), hang (cuInit never returns).
 * TFGPU_MOCK_CUDA_NAME overrides the device name ("NVIDIA GeForce RTX 4090").
 * TFGPU_MOCK_CUDA_VERSION overrides cuDriverGetVersion (12080).
 * TFGPU_MOCK_CUDA_CC overrides the compute capability ("8.9"; e.g. "9.0", "8.6").
 * TFGPU_MOCK_CUDA_SLEEP_MS makes each cuEventSynchronize take that long in wall-clock time.
 */
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/mock_hostile.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
  OK = 0,
  E_INVALID_VALUE = 1,
  E_OUT_OF_MEMORY = 2,
  E_NOT_INITIALIZED = 3,
  E_STUB_LIBRARY = 34,
  E_NO_DEVICE = 100,
  E_INVALID_DEVICE = 101,
  E_INVALID_PTX = 218,
  E_NOT_FOUND = 500,
  E_LAUNCH_FAILED = 719,
  E_UNKNOWN = 999,
};

static const char* mode(void) {
  const char* m = getenv("TFGPU_MOCK_CUDA");
  return m && *m ? m : "ok";
}
static int is(const char* m) { return strcmp(mode(), m) == 0; }

static int g_init = 0;
static double g_clock_s = 0; /* simulated device time */
static size_t g_allocated = 0;
static const size_t kTotalMem = 24ull << 30;

/* Rates of the simulated device (bytes or flop per second). */
static const double kPinnedBps = 25e9, kPageableBps = 10e9, kD2DMemcpyBps = 900e9, kCopyKernelBps = 950e9;

__attribute__((visibility("default"))) void tfgpu_mock_cuda_advance(double seconds) { g_clock_s += seconds; }

/* Pinned allocations, so copies can be timed at the pinned rate. */
#define MAX_PINNED 64
static struct { char* p; size_t n; } g_pinned[MAX_PINNED];
static int is_pinned(const void* p) {
  for (int i = 0; i < MAX_PINNED; ++i) {
    if (g_pinned[i].p && (const char*)p >= g_pinned[i].p && (const char*)p < g_pinned[i].p + g_pinned[i].n) return 1;
  }
  return 0;
}

/* TFGPU_MOCK_CUDA_CC "major.minor" (default 8.9, an RTX 4090); part 0 = major, 1 = minor. */
static int cc_part(int part) {
  const char* e = getenv("TFGPU_MOCK_CUDA_CC");
  int major = 8, minor = 9;
  if (e && *e && sscanf(e, "%d.%d", &major, &minor) != 2) major = 8, minor = 9;
  return part == 0 ? major : minor;
}

static int device_count(void) { return is("two_gpus") ? 2 : 1; }

CUresult cuGetErrorName(CUresult e, const char** s) {
  switch (e) {
    case OK: *s = "CUDA_SUCCESS"; return OK;
    case E_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return OK;
    case E_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return OK;
    case E_NOT_INITIALIZED: *s = "CUDA_ERROR_NOT_INITIALIZED"; return OK;
    case E_STUB_LIBRARY: *s = "CUDA_ERROR_STUB_LIBRARY"; return OK;
    case E_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; return OK;
    case E_INVALID_DEVICE: *s = "CUDA_ERROR_INVALID_DEVICE"; return OK;
    case E_INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return OK;
    case E_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return OK;
    case E_LAUNCH_FAILED: *s = "CUDA_ERROR_LAUNCH_FAILED"; return OK;
    case E_UNKNOWN: *s = "CUDA_ERROR_UNKNOWN"; return OK;
  }
  *s = 0;
  return E_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult e, const char** s) {
  switch (e) {
    case E_STUB_LIBRARY: *s = "CUDA driver is a stub library"; return OK;
    case E_NO_DEVICE: *s = "no CUDA-capable device is detected"; return OK;
    case E_OUT_OF_MEMORY: *s = "out of memory"; return OK;
    case E_LAUNCH_FAILED: *s = "unspecified launch failure"; return OK;
    case E_INVALID_PTX: *s = "a PTX JIT compilation failed"; return OK;
    case E_UNKNOWN: *s = "unknown error"; return OK;
  }
  *s = "mock error";
  return OK;
}

CUresult cuInit(unsigned flags) {
  if (flags != 0) return E_INVALID_VALUE;
  mock_hostile_init();
  if (is("crash")) raise(SIGSEGV);
  if (is("hang")) {
    for (;;) pause();
  }
  if (is("stub")) return E_STUB_LIBRARY;
  if (is("init_fail")) return E_UNKNOWN;
  if (is("no_device_error")) return E_NO_DEVICE;
  g_init = 1;
  return OK;
}

CUresult cuDriverGetVersion(int* v) {
  const char* e = getenv("TFGPU_MOCK_CUDA_VERSION");
  *v = e && *e ? atoi(e) : 12080;
  return OK;
}

CUresult cuDeviceGetCount(int* n) {
  if (!g_init) return E_NOT_INITIALIZED;
  *n = is("no_device") ? 0 : device_count();
  return OK;
}

CUresult cuDeviceGet(CUdevice* d, int ordinal) {
  if (!g_init) return E_NOT_INITIALIZED;
  if (ordinal < 0 || ordinal >= device_count()) return E_INVALID_DEVICE;
  *d = ordinal;
  return OK;
}

CUresult cuDeviceGetName(char* name, int len, CUdevice d) {
  const char* e = getenv("TFGPU_MOCK_CUDA_NAME");
  const char* n = e && *e ? e : "NVIDIA GeForce RTX 4090";
  if (len <= 0) return E_INVALID_VALUE;
  strncpy(name, n, (size_t)len - 1);
  name[len - 1] = 0;
  (void)d;
  return OK;
}

CUresult cuDeviceGetAttribute(int* v, int attr, CUdevice d) {
  switch (attr) {
    case 13: *v = 2520000; break;  /* clock kHz */
    case 16: *v = 128; break;      /* SMs */
    case 33: *v = 1 + d; break;    /* PCI bus */
    case 34: *v = 0; break;        /* PCI device (slot) */
    case 36: *v = 10501000; break; /* memory clock kHz */
    case 37: *v = 384; break;      /* bus width */
    case 50: *v = 0; break;        /* PCI domain */
    case 75: *v = cc_part(0); break;
    case 76: *v = cc_part(1); break;
    default: *v = 0; break;
  }
  return OK;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice d) {
  (void)d;
  *bytes = kTotalMem;
  return OK;
}

CUresult cuDeviceGetPCIBusId(char* id, int len, CUdevice d) {
  char buf[32] = "0000:01:00.0";
  buf[6] = (char)('1' + d);
  strncpy(id, buf, (size_t)len);
  return OK;
}

static int g_ctx_token;
CUresult cuDevicePrimaryCtxRetain(void** ctx, CUdevice d) {
  if (!g_init) return E_NOT_INITIALIZED;
  if (is("ctx_fail")) return E_UNKNOWN;
  (void)d;
  *ctx = &g_ctx_token;
  return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { (void)d; return OK; }
CUresult cuCtxSetCurrent(void* ctx) { (void)ctx; return OK; }
CUresult cuCtxSynchronize(void) { return OK; }

CUresult cuMemGetInfo_v2(size_t* free_b, size_t* total) {
  *total = kTotalMem;
  *free_b = kTotalMem - (1ull << 30) - g_allocated;
  return OK;
}

CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t n) {
  if (!g_init) return E_NOT_INITIALIZED;
  if (is("alloc_fail")) return E_OUT_OF_MEMORY;
  /* A size prefix so cuMemFree can keep g_allocated right. */
  size_t* raw = (size_t*)malloc(n + 16);
  if (!raw) return E_OUT_OF_MEMORY;
  raw[0] = n;
  g_allocated += n;
  *p = (CUdeviceptr)(uintptr_t)((char*)raw + 16);
  return OK;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
  if (!p) return OK;
  size_t* raw = (size_t*)((char*)(uintptr_t)p - 16);
  g_allocated -= raw[0];
  free(raw);
  return OK;
}

CUresult cuMemAllocHost_v2(void** p, size_t n) {
  if (is("alloc_fail")) return E_OUT_OF_MEMORY;
  *p = malloc(n);
  if (!*p) return E_OUT_OF_MEMORY;
  for (int i = 0; i < MAX_PINNED; ++i) {
    if (!g_pinned[i].p) {
      g_pinned[i].p = (char*)*p;
      g_pinned[i].n = n;
      break;
    }
  }
  return OK;
}

CUresult cuMemFreeHost(void* p) {
  for (int i = 0; i < MAX_PINNED; ++i) {
    if (g_pinned[i].p == p) g_pinned[i].p = 0;
  }
  free(p);
  return OK;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) {
  memcpy((void*)(uintptr_t)dst, src, n);
  g_clock_s += (double)n / (is_pinned(src) ? kPinnedBps : kPageableBps);
  return OK;
}

CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) {
  memcpy(dst, (const void*)(uintptr_t)src, n);
  if (is("corrupt") && n > 100) ((unsigned char*)dst)[100] ^= 0x10;
  g_clock_s += (double)n / (is_pinned(dst) ? kPinnedBps : kPageableBps);
  return OK;
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  memmove((void*)(uintptr_t)dst, (const void*)(uintptr_t)src, n);
  g_clock_s += 2.0 * (double)n / kD2DMemcpyBps;
  return OK;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
  memset((void*)(uintptr_t)dst, v, n);
  return OK;
}

/* Modules: a module remembers its PTX; a function is the entry name it was asked for. */
typedef struct { char* image; } Module;
typedef struct { int kind; } Function; /* 1 = saxpy, 2 = copy16 */
static Function g_saxpy = {1}, g_copy16 = {2};

CUresult cuModuleLoadData(void** mod, const void* image) {
  if (is("module_fail")) return E_INVALID_PTX;
  const char* text = (const char*)image;
  if (!strstr(text, ".version") || !strstr(text, ".entry")) return E_INVALID_PTX;
  Module* m = (Module*)malloc(sizeof(Module));
  m->image = strdup(text);
  *mod = m;
  return OK;
}

CUresult cuModuleUnload(void* mod) {
  Module* m = (Module*)mod;
  free(m->image);
  free(m);
  return OK;
}

CUresult cuModuleGetFunction(void** fn, void* mod, const char* name) {
  Module* m = (Module*)mod;
  char want[128];
  snprintf(want, sizeof want, ".entry %s(", name);
  if (!strstr(m->image, want)) return E_NOT_FOUND;
  if (strcmp(name, "tfgpu_saxpy") == 0) {
    *fn = &g_saxpy;
  } else if (strcmp(name, "tfgpu_copy16") == 0) {
    *fn = &g_copy16;
  } else {
    return E_NOT_FOUND;
  }
  return OK;
}

CUresult cuLaunchKernel(void* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void* stream, void** params, void** extra) {
  (void)gy; (void)gz; (void)by; (void)bz; (void)shared; (void)stream; (void)extra;
  if (is("kernel_fail")) return E_LAUNCH_FAILED;
  Function* f = (Function*)fn;
  if (f->kind == 1) {
    float a = *(float*)params[0];
    float* x = (float*)(uintptr_t)*(CUdeviceptr*)params[1];
    float* y = (float*)(uintptr_t)*(CUdeviceptr*)params[2];
    unsigned n = *(unsigned*)params[3];
    unsigned threads = gx * bx;
    for (unsigned i = 0; i < n && i < threads; ++i) y[i] = a * x[i] + y[i];
    if (is("wrong_result") && n > 17) y[17] = a * x[17];
    g_clock_s += 1e-5;
  } else {
    const char* src = (const char*)(uintptr_t)*(CUdeviceptr*)params[0];
    char* dst = (char*)(uintptr_t)*(CUdeviceptr*)params[1];
    unsigned long long n = *(unsigned long long*)params[2];
    memmove(dst, src, (size_t)n * 16);
    g_clock_s += 2.0 * (double)n * 16.0 / kCopyKernelBps;
  }
  return OK;
}

typedef struct { double t; } Event;
CUresult cuEventCreate(void** e, unsigned flags) {
  (void)flags;
  *e = calloc(1, sizeof(Event));
  return *e ? OK : E_OUT_OF_MEMORY;
}
CUresult cuEventRecord(void* e, void* stream) {
  (void)stream;
  ((Event*)e)->t = g_clock_s;
  return OK;
}
CUresult cuEventSynchronize(void* e) {
  /* TFGPU_MOCK_CUDA_SLEEP_MS: wall-clock delay per timed call, so a test can watch the
   * progress line of a run that lasts long enough to be polled. */
  const char* ms = getenv("TFGPU_MOCK_CUDA_SLEEP_MS");
  if (ms && *ms) usleep((useconds_t)atoi(ms) * 1000u);
  (void)e;
  return OK;
}
CUresult cuEventElapsedTime(float* ms, void* start, void* end) {
  *ms = (float)((((Event*)end)->t - ((Event*)start)->t) * 1e3);
  return OK;
}
CUresult cuEventDestroy_v2(void* e) {
  free(e);
  return OK;
}
