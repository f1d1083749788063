/* A mock NVIDIA driver (libcuda.so.1) good enough that a real TensorFlow wheel on a machine
 * without a GPU initialises its CUDA platform, enumerates one device and goes on to dlopen its
 * CUDA libraries (cudart, cublas, cuDNN, ...), which is what the `real` test tier observes.
 * It is not a GPU: device memory allocations fail with CUDA_ERROR_OUT_OF_MEMORY and kernels do
 * not run, so TF may fail *after* its library loading; that is expected.
 *
 * Standalone build:  cc -shared -fPIC -O2 -o libcuda.so.1 mock_libcuda.c -ldl
 *
 * Environment:
 *   TFGPU_MOCK_LOG=FILE          append one line per driver call ("cuda NAME ...") to FILE;
 *                                calls and lookups of entry points the mock lacks are logged
 *                                as "cuda UNKNOWN ..." (through cuGetProcAddress).
 *   TFGPU_MOCK_DRIVER_VERSION=N  cuDriverGetVersion's answer (default 12080 = CUDA 12.8).
 *   TFGPU_MOCK_CC=M.m            compute capability (default 8.0).
 *   TFGPU_MOCK_GPUS=N            number of devices (default 1; 0 = "no device").
 * Values and attribute numbers follow cuda.h (CUresult, CUdevice_attribute). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void* CUcontext;

#define EXPORT __attribute__((visibility("default")))

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
  CUDA_ERROR_NOT_SUPPORTED = 801,
};

static void mock_log(const char* fmt, ...) {
  const char* path = getenv("TFGPU_MOCK_LOG");
  if (!path || !*path) return;
  FILE* f = fopen(path, "a");
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("cuda ", f);
  vfprintf(f, fmt, ap);
  fputc('\n', f);
  va_end(ap);
  fclose(f);
}

static int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}
static void compute_capability(int* major, int* minor) {
  const char* v = getenv("TFGPU_MOCK_CC");
  *major = 8;
  *minor = 0;
  if (v && *v) sscanf(v, "%d.%d", major, minor);
}
static int gpu_count(void) { return env_int("TFGPU_MOCK_GPUS", 1); }
static int valid(CUdevice d) { return d >= 0 && d < gpu_count(); }

static int g_initialised = 0;
static int g_contexts[8];
static __thread CUcontext g_current = NULL;
static const unsigned long long kTotalMem = 80ull << 30;

EXPORT CUresult cuInit(unsigned flags) {
  mock_log("cuInit(%u)", flags);
  g_initialised = 1;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDriverGetVersion(int* v) {
  mock_log("cuDriverGetVersion");
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = env_int("TFGPU_MOCK_DRIVER_VERSION", 12080);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetCount(int* n) {
  mock_log("cuDeviceGetCount");
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  *n = gpu_count();
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGet(CUdevice* d, int ordinal) {
  mock_log("cuDeviceGet(%d)", ordinal);
  if (!valid(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetName(char* name, int len, CUdevice d) {
  mock_log("cuDeviceGetName(%d)", d);
  if (!valid(d) || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  snprintf(name, (size_t)len, "tfgpu mock GPU");
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetUuid(unsigned char uuid[16], CUdevice d) {
  mock_log("cuDeviceGetUuid(%d)", d);
  if (!valid(d)) return CUDA_ERROR_INVALID_DEVICE;
  for (int i = 0; i < 16; ++i) uuid[i] = (unsigned char)(0x10 * d + i);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetUuid_v2(unsigned char uuid[16], CUdevice d) { return cuDeviceGetUuid(uuid, d); }
EXPORT CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice d) {
  mock_log("cuDeviceTotalMem_v2(%d)", d);
  if (!valid(d)) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = kTotalMem;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceTotalMem(size_t* bytes, CUdevice d) { return cuDeviceTotalMem_v2(bytes, d); }
EXPORT CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice d) {
  mock_log("cuDeviceComputeCapability(%d)", d);
  if (!valid(d)) return CUDA_ERROR_INVALID_DEVICE;
  compute_capability(major, minor);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetPCIBusId(char* id, int len, CUdevice d) {
  mock_log("cuDeviceGetPCIBusId(%d)", d);
  if (!valid(d) || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  snprintf(id, (size_t)len, "0000:%02X:00.0", 0x41 + d);
  return CUDA_SUCCESS;
}

/* CUdevice_attribute numbers from cuda.h; values of an A100-like device. */
static int attribute(int a, int* known) {
  int major, minor;
  compute_capability(&major, &minor);
  *known = 1;
  switch (a) {
    case 1: return 1024;                       /* MAX_THREADS_PER_BLOCK */
    case 2: case 3: return 1024;               /* MAX_BLOCK_DIM_X/Y */
    case 4: return 64;                         /* MAX_BLOCK_DIM_Z */
    case 5: return 2147483647;                 /* MAX_GRID_DIM_X */
    case 6: case 7: return 65535;              /* MAX_GRID_DIM_Y/Z */
    case 8: return 49152;                      /* MAX_SHARED_MEMORY_PER_BLOCK */
    case 9: return 65536;                      /* TOTAL_CONSTANT_MEMORY */
    case 10: return 32;                        /* WARP_SIZE */
    case 11: return 2147483647;                /* MAX_PITCH */
    case 12: return 65536;                     /* MAX_REGISTERS_PER_BLOCK */
    case 13: return 1410000;                   /* CLOCK_RATE (kHz) */
    case 14: return 512;                       /* TEXTURE_ALIGNMENT */
    case 15: return 1;                         /* GPU_OVERLAP */
    case 16: return 108;                       /* MULTIPROCESSOR_COUNT */
    case 17: return 0;                         /* KERNEL_EXEC_TIMEOUT */
    case 18: return 0;                         /* INTEGRATED */
    case 19: return 1;                         /* CAN_MAP_HOST_MEMORY */
    case 20: return 0;                         /* COMPUTE_MODE default */
    case 31: return 1;                         /* CONCURRENT_KERNELS */
    case 32: return 1;                         /* ECC_ENABLED */
    case 33: return 0x41;                      /* PCI_BUS_ID */
    case 34: return 0;                         /* PCI_DEVICE_ID */
    case 35: return 0;                         /* TCC_DRIVER */
    case 36: return 1215000;                   /* MEMORY_CLOCK_RATE (kHz) */
    case 37: return 5120;                      /* GLOBAL_MEMORY_BUS_WIDTH */
    case 38: return 40 << 20;                  /* L2_CACHE_SIZE */
    case 39: return 2048;                      /* MAX_THREADS_PER_MULTIPROCESSOR */
    case 40: return 3;                         /* ASYNC_ENGINE_COUNT */
    case 41: return 1;                         /* UNIFIED_ADDRESSING */
    case 50: return 0;                         /* PCI_DOMAIN_ID */
    case 75: return major;                     /* COMPUTE_CAPABILITY_MAJOR */
    case 76: return minor;                     /* COMPUTE_CAPABILITY_MINOR */
    case 81: return 167936;                    /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
    case 82: return 65536;                     /* MAX_REGISTERS_PER_MULTIPROCESSOR */
    case 83: return 1;                         /* MANAGED_MEMORY */
    case 84: return 0;                         /* MULTI_GPU_BOARD */
    case 97: return 166912;                    /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    case 106: return 32;                       /* MAX_BLOCKS_PER_MULTIPROCESSOR */
    default: *known = 0; return 0;
  }
}
EXPORT CUresult cuDeviceGetAttribute(int* value, int attrib, CUdevice d) {
  if (!valid(d)) return CUDA_ERROR_INVALID_DEVICE;
  int known;
  *value = attribute(attrib, &known);
  mock_log(known ? "cuDeviceGetAttribute(%d) = %d" : "UNKNOWN cuDeviceGetAttribute(%d) = %d", attrib, *value);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceCanAccessPeer(int* can, CUdevice a, CUdevice b) {
  mock_log("cuDeviceCanAccessPeer(%d,%d)", a, b);
  *can = 0;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetP2PAttribute(int* value, int attrib, CUdevice a, CUdevice b) {
  mock_log("cuDeviceGetP2PAttribute(%d,%d,%d)", attrib, a, b);
  *value = 0;
  return CUDA_SUCCESS;
}

/* Contexts: one primary context per device, a per-thread current context. */
EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice d) {
  mock_log("cuDevicePrimaryCtxRetain(%d)", d);
  if (!valid(d) || d >= 8) return CUDA_ERROR_INVALID_DEVICE;
  *ctx = &g_contexts[d];
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
  mock_log("cuDevicePrimaryCtxRelease_v2(%d)", d);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return cuDevicePrimaryCtxRelease_v2(d); }
EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned* flags, int* active) {
  mock_log("cuDevicePrimaryCtxGetState(%d)", d);
  *flags = 0;
  *active = 0;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned flags) {
  mock_log("cuDevicePrimaryCtxSetFlags_v2(%d,%u)", d, flags);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice d, unsigned flags) { return cuDevicePrimaryCtxSetFlags_v2(d, flags); }
EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice d) { mock_log("cuDevicePrimaryCtxReset_v2(%d)", d); return CUDA_SUCCESS; }
EXPORT CUresult cuCtxSetCurrent(CUcontext c) { mock_log("cuCtxSetCurrent"); g_current = c; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxGetCurrent(CUcontext* c) { mock_log("cuCtxGetCurrent"); *c = g_current; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxPushCurrent_v2(CUcontext c) { mock_log("cuCtxPushCurrent_v2"); g_current = c; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxPopCurrent_v2(CUcontext* c) { mock_log("cuCtxPopCurrent_v2"); if (c) *c = g_current; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxGetDevice(CUdevice* d) {
  mock_log("cuCtxGetDevice");
  *d = g_current ? (int)((int*)g_current - g_contexts) : 0;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxSynchronize(void) { mock_log("cuCtxSynchronize"); return CUDA_SUCCESS; }
EXPORT CUresult cuCtxGetApiVersion(CUcontext c, unsigned* v) { (void)c; mock_log("cuCtxGetApiVersion"); *v = 3020; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxGetFlags(unsigned* f) { mock_log("cuCtxGetFlags"); *f = 0; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  mock_log("cuCtxGetStreamPriorityRange");
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxEnablePeerAccess(CUcontext c, unsigned f) { (void)c; (void)f; mock_log("cuCtxEnablePeerAccess"); return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED; }
EXPORT CUresult cuCtxGetLimit(size_t* v, int limit) { mock_log("cuCtxGetLimit(%d)", limit); *v = 0; return CUDA_SUCCESS; }
EXPORT CUresult cuCtxSetLimit(int limit, size_t v) { (void)v; mock_log("cuCtxSetLimit(%d)", limit); return CUDA_SUCCESS; }

/* Memory: the mock has no device memory. Host (pinned) memory is plain malloc. */
EXPORT CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  mock_log("cuMemGetInfo_v2");
  *free_bytes = kTotalMem - (1ull << 30);
  *total = kTotalMem;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemGetInfo(size_t* f, size_t* t) { return cuMemGetInfo_v2(f, t); }
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t n) { (void)p; mock_log("cuMemAlloc_v2(%zu) -> OUT_OF_MEMORY", n); return CUDA_ERROR_OUT_OF_MEMORY; }
EXPORT CUresult cuMemAllocManaged(CUdeviceptr* p, size_t n, unsigned f) { (void)p; (void)f; mock_log("cuMemAllocManaged(%zu) -> OUT_OF_MEMORY", n); return CUDA_ERROR_OUT_OF_MEMORY; }
EXPORT CUresult cuMemFree_v2(CUdeviceptr p) { (void)p; mock_log("cuMemFree_v2"); return CUDA_SUCCESS; }
EXPORT CUresult cuMemHostAlloc(void** p, size_t n, unsigned f) {
  mock_log("cuMemHostAlloc(%zu,%u)", n, f);
  *p = malloc(n ? n : 1);
  return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT CUresult cuMemAllocHost_v2(void** p, size_t n) { return cuMemHostAlloc(p, n, 0); }
EXPORT CUresult cuMemFreeHost(void* p) { mock_log("cuMemFreeHost"); free(p); return CUDA_SUCCESS; }
EXPORT CUresult cuMemHostRegister_v2(void* p, size_t n, unsigned f) { (void)p; (void)f; mock_log("cuMemHostRegister_v2(%zu)", n); return CUDA_SUCCESS; }
EXPORT CUresult cuMemHostUnregister(void* p) { (void)p; mock_log("cuMemHostUnregister"); return CUDA_SUCCESS; }

/* Streams and events: opaque handles that complete at once. */
static void* handle(void) { return calloc(1, 64); }
EXPORT CUresult cuStreamCreate(void** s, unsigned f) { (void)f; mock_log("cuStreamCreate"); *s = handle(); return CUDA_SUCCESS; }
EXPORT CUresult cuStreamCreateWithPriority(void** s, unsigned f, int prio) { (void)f; mock_log("cuStreamCreateWithPriority(%d)", prio); *s = handle(); return CUDA_SUCCESS; }
EXPORT CUresult cuStreamDestroy_v2(void* s) { mock_log("cuStreamDestroy_v2"); free(s); return CUDA_SUCCESS; }
EXPORT CUresult cuStreamSynchronize(void* s) { (void)s; mock_log("cuStreamSynchronize"); return CUDA_SUCCESS; }
EXPORT CUresult cuStreamQuery(void* s) { (void)s; mock_log("cuStreamQuery"); return CUDA_SUCCESS; }
EXPORT CUresult cuStreamWaitEvent(void* s, void* e, unsigned f) { (void)s; (void)e; (void)f; mock_log("cuStreamWaitEvent"); return CUDA_SUCCESS; }
EXPORT CUresult cuEventCreate(void** e, unsigned f) { (void)f; mock_log("cuEventCreate"); *e = handle(); return CUDA_SUCCESS; }
EXPORT CUresult cuEventDestroy_v2(void* e) { mock_log("cuEventDestroy_v2"); free(e); return CUDA_SUCCESS; }
EXPORT CUresult cuEventRecord(void* e, void* s) { (void)e; (void)s; mock_log("cuEventRecord"); return CUDA_SUCCESS; }
EXPORT CUresult cuEventQuery(void* e) { (void)e; mock_log("cuEventQuery"); return CUDA_SUCCESS; }
EXPORT CUresult cuEventSynchronize(void* e) { (void)e; mock_log("cuEventSynchronize"); return CUDA_SUCCESS; }
EXPORT CUresult cuEventElapsedTime(float* ms, void* a, void* b) { (void)a; (void)b; mock_log("cuEventElapsedTime"); *ms = 0; return CUDA_SUCCESS; }

/* Error strings (cuda.h names for the codes this mock returns). */
static const char* error_name(CUresult r) {
  switch (r) {
    case CUDA_SUCCESS: return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: return "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED";
    case CUDA_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case CUDA_ERROR_NOT_SUPPORTED: return "CUDA_ERROR_NOT_SUPPORTED";
    default: return NULL;
  }
}
EXPORT CUresult cuGetErrorName(CUresult r, const char** s) {
  *s = error_name(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuGetErrorString(CUresult r, const char** s) {
  *s = error_name(r);
  if (!*s) *s = "unknown error (tfgpu mock driver)";
  return CUDA_SUCCESS;
}

/* The CUDA runtime (libcudart) finds driver entry points through cuGetProcAddress and private
   export tables. This mock answers with its own symbols (trying the name, then _v2/_v3) and
   logs every name it cannot serve, which is how the list above was grown. */
static void* own_symbol(const char* name) {
  Dl_info info;
  if (!dladdr((void*)&own_symbol, &info)) return NULL;
  void* self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!self) return NULL;
  char buf[256];
  void* p = dlsym(self, name);
  for (int v = 2; !p && v <= 3; ++v) {
    snprintf(buf, sizeof buf, "%s_v%d", name, v);
    p = dlsym(self, buf);
  }
  dlclose(self);
  return p;
}
EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, unsigned long long flags, int* status) {
  *pfn = own_symbol(symbol);
  if (status) *status = *pfn ? 0 : 1; /* CU_GET_PROC_ADDRESS_SUCCESS / SYMBOL_NOT_FOUND */
  mock_log(*pfn ? "cuGetProcAddress(%s, %d, %llu)" : "UNKNOWN cuGetProcAddress(%s, %d, %llu)", symbol, version, flags);
  return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
EXPORT CUresult cuGetProcAddress(const char* symbol, void** pfn, int version, unsigned long long flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}
EXPORT CUresult cuGetExportTable(const void** table, const unsigned char* uuid) {
  *table = NULL;
  mock_log("UNKNOWN cuGetExportTable(%02x%02x%02x%02x...) -> NOT_SUPPORTED", uuid[0], uuid[1], uuid[2], uuid[3]);
  return CUDA_ERROR_NOT_SUPPORTED;
}

/* Entry points TF binds but the mock cannot serve: present (so a lookup succeeds and the call
   is logged) and answering CUDA_ERROR_NOT_SUPPORTED. */
#define UNSUPPORTED(name)                                   \
  EXPORT CUresult name(void) {                              \
    mock_log("UNSUPPORTED " #name " -> NOT_SUPPORTED");     \
    return CUDA_ERROR_NOT_SUPPORTED;                        \
  }
UNSUPPORTED(cuModuleLoadData)
UNSUPPORTED(cuModuleLoadDataEx)
UNSUPPORTED(cuModuleLoadFatBinary)
UNSUPPORTED(cuModuleUnload)
UNSUPPORTED(cuModuleGetFunction)
UNSUPPORTED(cuModuleGetGlobal_v2)
UNSUPPORTED(cuLaunchKernel)
UNSUPPORTED(cuLaunchKernelEx)
UNSUPPORTED(cuFuncGetAttribute)
UNSUPPORTED(cuFuncSetAttribute)
UNSUPPORTED(cuFuncSetCacheConfig)
UNSUPPORTED(cuMemcpyHtoD_v2)
UNSUPPORTED(cuMemcpyDtoH_v2)
UNSUPPORTED(cuMemcpyDtoD_v2)
UNSUPPORTED(cuMemcpyHtoDAsync_v2)
UNSUPPORTED(cuMemcpyDtoHAsync_v2)
UNSUPPORTED(cuMemcpyDtoDAsync_v2)
UNSUPPORTED(cuMemsetD8_v2)
UNSUPPORTED(cuMemsetD32_v2)
UNSUPPORTED(cuMemsetD8Async)
UNSUPPORTED(cuMemsetD32Async)
UNSUPPORTED(cuMemGetAddressRange_v2)
UNSUPPORTED(cuPointerGetAttribute)
UNSUPPORTED(cuOccupancyMaxActiveBlocksPerMultiprocessor)
UNSUPPORTED(cuLaunchHostFunc)
UNSUPPORTED(cuMemPoolCreate)
UNSUPPORTED(cuDeviceGetDefaultMemPool)
UNSUPPORTED(cuMemAllocAsync)
UNSUPPORTED(cuMemFreeAsync)
UNSUPPORTED(cuGraphCreate)
UNSUPPORTED(cuStreamBeginCapture_v2)
UNSUPPORTED(cuStreamIsCapturing)
UNSUPPORTED(cuDeviceGetLuid)
UNSUPPORTED(cuCtxCreate_v2)
UNSUPPORTED(cuCtxDestroy_v2)
UNSUPPORTED(cuMemCreate)
UNSUPPORTED(cuMemMap)
UNSUPPORTED(cuMemAddressReserve)
UNSUPPORTED(cuMemGetAllocationGranularity)
