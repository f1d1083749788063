#pragma once
// Machine facts only some hosts can give: every value of a registry key, the PCI device
// list of Windows' device manager (SetupAPI), and CPUID. Part of the Host seam:
// Win32Host and FakeHost implement MachineFacts next to Host, and the probe asks through
// the free functions below, which answer not_found for a host without them (POSIX:
// Linux reads sysfs and /proc/cpuinfo instead).
//
// Why not three more virtuals in host.h: every translation unit includes host.h, and
// changing it rebuilds both trees (Linux and mingw) from scratch; folding MachineFacts
// into Host later is mechanical (move the three virtuals, keep the free functions).

#include <string>
#include <vector>

#include "host/host.h"

namespace tfgpu {

// A registry value as text (REG_SZ / REG_EXPAND_SZ unexpanded / REG_DWORD in decimal).
struct RegistryValue {
  std::string name;
  std::string data;
};

// A PCI device as the OS's device manager lists it (Windows: SetupAPI), driver or not.
// Ids are the Windows PnP strings, e.g. hardware id "PCI\\VEN_10DE&DEV_2504&SUBSYS_...&REV_A1",
// compatible id "PCI\\CC_030000" (the PCI class code); parsing them is the probe's job
// (probe/windows_pci.h).
struct PciDevice {
  std::vector<std::string> hardware_ids;
  std::vector<std::string> compatible_ids;
  std::string description;   // device description ("NVIDIA GeForce RTX 3060", "3D Video Controller")
  std::string location;      // "PCI bus 1, device 0, function 0" ("" unknown)
  std::string device_class;  // setup class name ("Display"; "" when no driver claimed it)
};

// CPU identity and the instruction sets TensorFlow's wheels need, as CPUID reports them
// and the OS has enabled (AVX needs the OS to save the YMM state: OSXSAVE + XGETBV).
struct CpuFeatures {
  std::string vendor;  // "GenuineIntel"
  std::string brand;   // "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz" ("" if the CPU has none)
  bool avx = false;
  bool avx2 = false;
  bool avx512f = false;
  bool fma = false;
};

class MachineFacts {
 public:
  virtual ~MachineFacts() = default;
  // Every value of a registry key (names as stored; binary / multi-string values skipped).
  virtual Result<std::vector<RegistryValue>> registry_values(const std::string& key) const = 0;
  // PCI devices present, whether or not a driver is installed for them.
  virtual Result<std::vector<PciDevice>> pci_devices() const = 0;
  // CPUID of the processor tfgpu runs on.
  virtual Result<CpuFeatures> cpu_features() const = 0;
};

// Through any Host: its MachineFacts answer, or not_found ("not available through this
// host") when it has none.
Result<std::vector<RegistryValue>> registry_values(const Host& host, const std::string& key);
Result<std::vector<PciDevice>> pci_devices(const Host& host);
Result<CpuFeatures> cpu_features(const Host& host);

}  // namespace tfgpu
