/* Mock libnvidia-ml.so.1 for tests: canned answers, behaviour from TFGPU_MOCK_NVML.
   Layouts follow nvml.h (NVIDIA/go-nvml gen/nvml/nvml.h); see src/gpu/nvml.h. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../support/mock_hostile.h"

typedef int nvmlReturn_t;
typedef struct { int index; } mock_device;
typedef mock_device* nvmlDevice_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

static mock_device devices[2] = {{0}, {1}};

static const char* mode(void) {
  const char* m = getenv("TFGPU_MOCK_NVML");
  return m && *m ? m : "one_gpu";
}
static int is(const char* m) { return strcmp(mode(), m) == 0; }

static void copy(char* dst, unsigned len, const char* src) {
  if (!len) return;
  strncpy(dst, src, len - 1);
  dst[len - 1] = 0;
}

static nvmlReturn_t do_init(void) {
  mock_hostile_init();
  if (is("crash")) raise(SIGSEGV);
  if (is("hang")) for (;;) pause();
  if (is("init_fail")) return 9; /* NVML_ERROR_DRIVER_NOT_LOADED */
  return 0;
}

const char* nvmlErrorString(nvmlReturn_t r) {
  return r == 9 ? "Driver Not Loaded" : r == 0 ? "Success" : "Unknown Error";
}
nvmlReturn_t nvmlShutdown(void) { return 0; }
nvmlReturn_t nvmlSystemGetDriverVersion(char* v, unsigned len) {
  copy(v, len, is("old_driver") ? "470.82.01" : "535.104.05");
  return 0;
}
static nvmlReturn_t cuda_version(int* v) {
  *v = is("old_driver") ? 11040 : 12020;
  return 0;
}
static nvmlReturn_t count(unsigned* n) {
  *n = is("two_gpus") ? 2 : 1;
  return 0;
}
static nvmlReturn_t handle(unsigned i, nvmlDevice_t* d) {
  unsigned n = 0;
  count(&n);
  if (i >= n) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
  *d = &devices[i];
  return 0;
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned len) {
  copy(name, len, d->index == 0 ? (is("old_driver") ? "Tesla K80" : "NVIDIA GeForce RTX 3060") : "NVIDIA A100-SXM4-40GB");
  return 0;
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned len) {
  copy(uuid, len, d->index == 0 ? "GPU-11111111-2222-3333-4444-555555555555" : "GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee");
  return 0;
}
nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  if (d->index == 0 && is("old_driver")) { *major = 3; *minor = 7; }
  else if (d->index == 0) { *major = 8; *minor = 6; }
  else { *major = 8; *minor = 0; }
  return 0;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
  m->total = d->index == 0 ? 12884901888ULL : 42949672960ULL;
  m->free = m->total / 2;
  m->used = m->total - m->free;
  return 0;
}
static nvmlReturn_t pci(nvmlDevice_t d, nvmlPciInfo_t* p) {
  memset(p, 0, sizeof *p);
  p->domain = 0;
  p->bus = d->index == 0 ? 1 : 0x41;
  p->device = 0;
  p->pciDeviceId = d->index == 0 ? (is("old_driver") ? 0x102d10deu : 0x250410deu) : 0x20b010deu;
  snprintf(p->busId, sizeof p->busId, "%08X:%02X:%02X.0", p->domain, p->bus, p->device);
  return 0;
}

#ifdef MOCK_LEGACY_SYMBOLS
/* An old driver's NVML: only the first-generation names. */
nvmlReturn_t nvmlInit(void) { return do_init(); }
nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* v) { return cuda_version(v); }
nvmlReturn_t nvmlDeviceGetCount(unsigned* n) { return count(n); }
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned i, nvmlDevice_t* d) { return handle(i, d); }
nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t d, nvmlPciInfo_t* p) { return pci(d, p); }
#else
nvmlReturn_t nvmlInit_v2(void) { return do_init(); }
/* The unversioned name must not be picked when _v2 exists: it answers differently. */
nvmlReturn_t nvmlInit(void) { return 999; }
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* v) { return cuda_version(v); }
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* n) { return count(n); }
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) { return handle(i, d); }
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* p) { return pci(d, p); }
#endif
