#pragma once
// The data of the machine facts only some hosts can give (Host::registry_values,
// Host::pci_devices, Host::cpu_features): every value of a registry key, the PCI device
// list of Windows' device manager (SetupAPI), and CPUID. Win32Host and FakeHost answer
// them; other hosts answer not_found (Linux reads sysfs and /proc/cpuinfo instead).

#include <string>
#include <vector>

#include "util/error.h"

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

}  // namespace tfgpu
