/* A mock NVML (libnvidia-ml.so.1) to go with mock_libcuda.c: one device, a 570-series driver
 * (CUDA 12.8). TF 2.21's CUDA platform calls nvmlInit_v2 after cuInit (see tests/real/README.md);
 * without an NVML it lists no GPU. Entry points it does not serve are present and answer
 * NVML_ERROR_NOT_SUPPORTED, and every call is logged.
 *
 * Standalone build:  cc -shared -fPIC -O2 -o libnvidia-ml.so.1 mock_libnvml.c
 *
 * Environment: TFGPU_MOCK_LOG=FILE (one "nvml NAME" line per call), TFGPU_MOCK_GPUS=N,
 * TFGPU_MOCK_CC=M.m, TFGPU_MOCK_DRIVER_VERSION=N (as in mock_libcuda.c).
 * Layouts follow nvml.h (nvmlReturn_t codes, nvmlPciInfo_t, nvmlMemory_t). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
typedef int nvmlReturn_t;
typedef struct { int index; } mock_device;
typedef mock_device* nvmlDevice_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

enum { NVML_SUCCESS = 0, NVML_ERROR_INVALID_ARGUMENT = 2, NVML_ERROR_NOT_SUPPORTED = 3, NVML_ERROR_NOT_FOUND = 6 };

static mock_device g_devices[8] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};

static void mock_log(const char* fmt, ...) {
  const char* path = getenv("TFGPU_MOCK_LOG");
  if (!path || !*path) return;
  FILE* f = fopen(path, "a");
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("nvml ", f);
  vfprintf(f, fmt, ap);
  fputc('\n', f);
  va_end(ap);
  fclose(f);
}
static int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}
static unsigned count(void) {
  int n = env_int("TFGPU_MOCK_GPUS", 1);
  return n < 0 ? 0 : n > 8 ? 8 : (unsigned)n;
}
static void copy(char* dst, unsigned len, const char* src) {
  if (!dst || !len) return;
  strncpy(dst, src, len - 1);
  dst[len - 1] = 0;
}

EXPORT nvmlReturn_t nvmlInit_v2(void) { mock_log("nvmlInit_v2"); return NVML_SUCCESS; }
EXPORT nvmlReturn_t nvmlInit(void) { mock_log("nvmlInit"); return NVML_SUCCESS; }
EXPORT nvmlReturn_t nvmlInitWithFlags(unsigned f) { mock_log("nvmlInitWithFlags(%u)", f); return NVML_SUCCESS; }
EXPORT nvmlReturn_t nvmlShutdown(void) { mock_log("nvmlShutdown"); return NVML_SUCCESS; }
EXPORT const char* nvmlErrorString(nvmlReturn_t r) {
  switch (r) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    default: return "Unknown Error";
  }
}
EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char* v, unsigned len) {
  mock_log("nvmlSystemGetDriverVersion");
  copy(v, len, "570.124.06");
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char* v, unsigned len) {
  mock_log("nvmlSystemGetNVMLVersion");
  copy(v, len, "12.570.124.06");
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* v) {
  mock_log("nvmlSystemGetCudaDriverVersion_v2");
  *v = env_int("TFGPU_MOCK_DRIVER_VERSION", 12080);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* v) { return nvmlSystemGetCudaDriverVersion_v2(v); }
EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* n) { mock_log("nvmlDeviceGetCount_v2"); *n = count(); return NVML_SUCCESS; }
EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned* n) { return nvmlDeviceGetCount_v2(n); }
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  mock_log("nvmlDeviceGetHandleByIndex_v2(%u)", i);
  if (i >= count()) return NVML_ERROR_INVALID_ARGUMENT;
  *d = &g_devices[i];
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned i, nvmlDevice_t* d) { return nvmlDeviceGetHandleByIndex_v2(i, d); }
/* Bus ids as mock_libcuda.c's cuDeviceGetPCIBusId writes them ("0000:41:00.0" for device 0). */
EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_t* d) {
  mock_log("nvmlDeviceGetHandleByPciBusId_v2(%s)", bus_id ? bus_id : "(null)");
  unsigned domain = 0, bus = 0, dev = 0, fn = 0;
  if (!bus_id || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) return NVML_ERROR_INVALID_ARGUMENT;
  if (bus < 0x41 || bus - 0x41 >= count()) return NVML_ERROR_NOT_FOUND;
  *d = &g_devices[bus - 0x41];
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char* b, nvmlDevice_t* d) { return nvmlDeviceGetHandleByPciBusId_v2(b, d); }
EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned len) {
  mock_log("nvmlDeviceGetName(%d)", d->index);
  copy(name, len, "tfgpu mock GPU");
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned len) {
  char buf[64];
  mock_log("nvmlDeviceGetUUID(%d)", d->index);
  snprintf(buf, sizeof buf, "GPU-%08x-0000-0000-0000-000000000000", d->index);
  copy(uuid, len, buf);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  mock_log("nvmlDeviceGetCudaComputeCapability(%d)", d->index);
  const char* v = getenv("TFGPU_MOCK_CC");
  *major = 8;
  *minor = 0;
  if (v && *v) sscanf(v, "%d.%d", major, minor);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
  mock_log("nvmlDeviceGetMemoryInfo(%d)", d->index);
  m->total = 80ull << 30;
  m->used = 1ull << 30;
  m->free = m->total - m->used;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* p) {
  mock_log("nvmlDeviceGetPciInfo_v3(%d)", d->index);
  memset(p, 0, sizeof *p);
  p->bus = 0x41u + (unsigned)d->index;
  p->pciDeviceId = 0x20b010deu;
  snprintf(p->busId, sizeof p->busId, "%08X:%02X:%02X.0", p->domain, p->bus, p->device);
  snprintf(p->busIdLegacy, sizeof p->busIdLegacy, "%04X:%02X:%02X.0", p->domain, p->bus, p->device);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t d, nvmlPciInfo_t* p) { return nvmlDeviceGetPciInfo_v3(d, p); }

#define UNSUPPORTED(name)                                   \
  EXPORT nvmlReturn_t name(void) {                          \
    mock_log("UNSUPPORTED " #name " -> NOT_SUPPORTED");     \
    return NVML_ERROR_NOT_SUPPORTED;                        \
  }
UNSUPPORTED(nvmlDeviceGetGpuFabricInfo)
UNSUPPORTED(nvmlDeviceGetGpuFabricInfoV)
UNSUPPORTED(nvmlDeviceGetMigMode)
UNSUPPORTED(nvmlDeviceGetNumaNodeId)
UNSUPPORTED(nvmlDeviceGetMemoryAffinity)
UNSUPPORTED(nvmlDeviceGetCpuAffinity)
UNSUPPORTED(nvmlDeviceGetNvLinkState)
UNSUPPORTED(nvmlDeviceGetNvLinkRemotePciInfo_v2)
UNSUPPORTED(nvmlDeviceGetP2PStatus)
UNSUPPORTED(nvmlDeviceGetTopologyCommonAncestor)
