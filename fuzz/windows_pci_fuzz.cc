// libFuzzer target for the SetupAPI text parsers (PnP hardware / compatible ids and the
// location text): any bytes give a value or nullopt, never a crash; a bus id is always
// the 12-character "0000:bb:dd.f" spelling.
#include <cstddef>
#include <cstdint>
#include <string>

#include "probe/windows_pci.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)tfgpu::probe::parse_pci_hardware_id(text);
  (void)tfgpu::probe::parse_pci_class({text});
  if (auto bus = tfgpu::probe::pci_bus_id_from_location(text); bus && bus->size() != 12) __builtin_trap();
  size_t cut = size / 2;
  tfgpu::PciDevice d{{text.substr(0, cut)}, {text.substr(cut)}, text, text, text};
  auto scan = tfgpu::probe::scan_windows_pci({d});
  if (scan.gpus.size() + static_cast<size_t>(scan.nvidia_other) > 1) __builtin_trap();
  return 0;
}
