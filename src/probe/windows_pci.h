#pragma once
// Reading the PCI identity of a device from the strings Windows' device manager
// (SetupAPI) gives: hardware ids "PCI\VEN_10DE&DEV_2504&SUBSYS_...&REV_A1", compatible
// ids "PCI\VEN_10DE&CC_030000" / "PCI\CC_0302" (the class code) and the location
// "PCI bus 1, device 0, function 0" (localised: only its three numbers are used).
// Pure parsers over untrusted text (fuzz/windows_pci_fuzz.cc), used by probe_hardware
// on Windows, so GPUs show up even when no NVIDIA driver is installed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/machine_facts.h"

namespace tfgpu::probe {

struct PciIds {
  uint16_t vendor = 0;
  uint16_t device = 0;
};
// VEN_ and DEV_ of one hardware id; nullopt unless it is a PCI id with both, in hex.
std::optional<PciIds> parse_pci_hardware_id(std::string_view id);

// The base class + subclass (0x0300 VGA, 0x0302 3D controller) from a list of
// compatible ids ("PCI\CC_030000", "PCI\VEN_10DE&CC_0302"); nullopt when none says.
std::optional<uint16_t> parse_pci_class(const std::vector<std::string>& compatible_ids);

// "PCI bus 1, device 0, function 0" -> "0000:01:00.0" (the spelling sysfs and the
// driver probe use; Windows does not give the PCI domain, so it is 0000); nullopt
// unless the text holds exactly three numbers in range.
std::optional<std::string> pci_bus_id_from_location(std::string_view location);

// One NVIDIA display / 3D controller seen on the bus.
struct WindowsPciGpu {
  PciIds ids;
  std::string pci_bus_id;   // "" when the location is unknown
  std::string description;  // what Windows calls it
};
struct WindowsPciScan {
  std::vector<WindowsPciGpu> gpus;
  int nvidia_other = 0;  // NVIDIA functions that are not GPUs (HD audio, USB-C controller)
};
// NVIDIA GPUs among the devices: vendor 10de and class 0300/0302, or, where the class
// code is not listed, the Display setup class.
WindowsPciScan scan_windows_pci(const std::vector<PciDevice>& devices);

}  // namespace tfgpu::probe
