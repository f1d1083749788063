#pragma once
// The NVML function table: the few NVML types and entry points tfgpu calls,
// declared here so that building needs no CUDA SDK, and bound at run time from
// libnvidia-ml.so.1 / nvml.dll through DynamicLibrary (newest versioned name first).
// Signatures: NVIDIA nvml.h (NVIDIA/go-nvml:gen/nvml/nvml.h, NVML_API_VERSION 13),
// see shared/facts/nvidia.md §5b. Only call this in a child process: a broken
// vendor library may crash or hang.

#include <string>
#include <vector>

#include "host/dynamic_library.h"
#include "host/host.h"
#include "util/error.h"

namespace tfgpu::nvml {

using Return = int;  // nvmlReturn_t, a plain int-sized enum
using Device = struct DeviceSt*;

inline constexpr Return kSuccess = 0;
inline constexpr unsigned kDriverVersionBufferSize = 80;  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE
inline constexpr unsigned kDeviceNameBufferSize = 96;     // NVML_DEVICE_NAME_V2_BUFFER_SIZE
inline constexpr unsigned kDeviceUuidBufferSize = 96;     // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct Memory {  // nvmlMemory_t, bytes
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct PciInfo {  // nvmlPciInfo_t (v3 layout)
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;  // device << 16 | vendor (0x268410DE)
  unsigned int pci_subsystem_id;
  char bus_id[32];  // "%08X:%02X:%02X.0"
};

// Entry points; optional ones may be null after binding.
struct Functions {
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  const char* (*error_string)(Return) = nullptr;  // optional
  Return (*system_get_driver_version)(char*, unsigned) = nullptr;
  Return (*system_get_cuda_driver_version)(int*) = nullptr;  // optional
  Return (*device_get_count)(unsigned*) = nullptr;
  Return (*device_get_handle_by_index)(unsigned, Device*) = nullptr;
  Return (*device_get_name)(Device, char*, unsigned) = nullptr;               // optional
  Return (*device_get_uuid)(Device, char*, unsigned) = nullptr;               // optional
  Return (*device_get_cuda_compute_capability)(Device, int*, int*) = nullptr;  // optional
  Return (*device_get_memory_info)(Device, Memory*) = nullptr;                // optional
  Return (*device_get_pci_info)(Device, PciInfo*) = nullptr;                  // optional
};

// Library names to try, in order (Linux: the driver's soname; the unversioned dev
// name is absent on WSL2). An explicit path, when given, is tried alone.
std::vector<std::string> default_candidates(Platform platform);

// Opens the library and binds the table; the load outcome is filled either way.
struct Loaded {
  DynamicLibrary library;
  Functions fn;
};
Result<Loaded> load(const std::vector<std::string>& candidates, LoadOutcome* outcome);

// "NVML_ERROR_DRIVER_NOT_LOADED (9)" from a return code, plus the library's own
// text when it has nvmlErrorString.
std::string describe_return(Return r, const Functions* fn = nullptr);

}  // namespace tfgpu::nvml
