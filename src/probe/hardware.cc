// Hardware layer: NVIDIA PCI devices from sysfs (Linux) or SetupAPI (Windows), named
// from the knowledge base even when no driver is installed. WSL2 has no PCI view of the GPU (it is paravirtualised
// through /dev/dxg, nvidia.md §6): there the driver layer supplies the GPUs.
#include <charconv>

#include <fmt/format.h>

#include "host/machine_facts.h"

#include "probe/probe.h"
#include "probe/windows_pci.h"
#include "util/strings.h"

namespace tfgpu::probe {

namespace {

constexpr const char* kPciDir = "/sys/bus/pci/devices";

// sysfs attributes are "0x10de\n".
std::optional<uint32_t> read_hex(const Host& host, const std::string& path) {
  auto text = host.read_file(path, 4096);
  if (!text) return std::nullopt;
  std::string_view v = trim(*text);
  if (starts_with(v, "0x") || starts_with(v, "0X")) v.remove_prefix(2);
  uint32_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out, 16);
  if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
  return out;
}

// Windows: the device manager's PCI list (SetupAPI through the Host), which holds a GPU
// whether its driver works, is the Microsoft Basic Display Adapter, or is missing.
void probe_windows_hardware(const Host& host, const ProbeOptions& options, Snapshot& s) {
  auto devices = host.pci_devices();
  if (!devices) {
    ProbeStatus status = devices.error().kind == ErrorKind::kNotFound ? ProbeStatus::kUnsupported : ProbeStatus::kFailed;
    s.gpu_state = {status, devices.error().message, "setupapi"};
    return;
  }
  WindowsPciScan scan = scan_windows_pci(*devices);
  for (const auto& found : scan.gpus) {
    GpuInfo g;
    g.pci_id = fmt::format("{:04x}:{:04x}", found.ids.vendor, found.ids.device);
    g.pci_bus_id = found.pci_bus_id;
    g.name = found.description;
    g.source = "setupapi";
    if (options.name_gpu) {
      if (auto facts = options.name_gpu(found.ids.vendor, found.ids.device)) {
        g.name = facts->name;
        g.compute_capability = facts->compute_capability;
        g.source = "setupapi+kb:pci";
      }
    }
    s.gpus.push_back(std::move(g));
  }
  if (s.gpus.empty()) {
    std::string why = fmt::format("no NVIDIA display/3D controller (PCI\\VEN_10DE, class 0300/0302) among {} PCI device(s)",
                                  devices->size());
    if (scan.nvidia_other > 0) why += fmt::format(" ({} other NVIDIA function(s) seen)", scan.nvidia_other);
    s.gpu_state = {ProbeStatus::kAbsent, why, "setupapi"};
  } else {
    s.gpu_state = {ProbeStatus::kOk, "", "setupapi"};
  }
}

}  // namespace

void probe_hardware(const Host& host, const ProbeOptions& options, Snapshot& s) {
  if (host.platform() == Platform::kWindows) {
    probe_windows_hardware(host, options, s);
    return;
  }
  if (host.platform() != Platform::kLinux) {
    s.gpu_state = {ProbeStatus::kUnsupported, "PCI enumeration is implemented for Linux and Windows only", ""};
    return;
  }
  if (s.host.wsl2 == Tri::kYes) {
    // Filled from the driver by probe_driver.
    s.gpu_state = {ProbeStatus::kNotProbed, "WSL2: GPUs are not PCI devices here; asked the driver instead", "wsl2"};
    return;
  }
  auto entries = host.list_dir(kPciDir);
  if (!entries) {
    s.gpu_state = {ProbeStatus::kFailed, fmt::format("cannot list {}: {}", kPciDir, entries.error().message), kPciDir};
    return;
  }
  int nvidia_other = 0;
  for (const auto& e : *entries) {
    std::string dir = std::string(kPciDir) + "/" + e.name;
    auto vendor = read_hex(host, dir + "/vendor");
    if (!vendor || *vendor != 0x10de) continue;
    auto device = read_hex(host, dir + "/device");
    auto cls = read_hex(host, dir + "/class");
    // PCI class 0x0300xx = VGA controller, 0x0302xx = 3D controller (data-center GPUs);
    // NVIDIA audio / USB functions of the same card are other classes.
    if (!device || !cls || ((*cls >> 8) != 0x0300 && (*cls >> 8) != 0x0302)) {
      ++nvidia_other;
      continue;
    }
    GpuInfo g;
    g.pci_id = fmt::format("{:04x}:{:04x}", *vendor, *device);
    g.pci_bus_id = to_lower(e.name);
    g.source = "sysfs";
    if (options.name_gpu) {
      if (auto facts = options.name_gpu(static_cast<uint16_t>(*vendor), static_cast<uint16_t>(*device))) {
        g.name = facts->name;
        g.compute_capability = facts->compute_capability;
        g.source = "sysfs+kb:pci";
      }
    }
    s.gpus.push_back(std::move(g));
  }
  if (s.gpus.empty()) {
    std::string why = fmt::format("no NVIDIA display/3D controller (vendor 10de, class 0300/0302) in {}", kPciDir);
    if (nvidia_other > 0) why += fmt::format(" ({} other NVIDIA function(s) seen)", nvidia_other);
    s.gpu_state = {ProbeStatus::kAbsent, why, kPciDir};
  } else {
    s.gpu_state = {ProbeStatus::kOk, "", kPciDir};
  }
}

}  // namespace tfgpu::probe
