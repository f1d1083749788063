#include "host/machine_facts.h"

#include <fmt/format.h>

namespace tfgpu {

namespace {
const MachineFacts* facts_of(const Host& host) { return dynamic_cast<const MachineFacts*>(&host); }
}  // namespace

Result<std::vector<RegistryValue>> registry_values(const Host& host, const std::string& key) {
  if (const MachineFacts* f = facts_of(host)) return f->registry_values(key);
  return fail(Error::not_found(fmt::format("no registry values through this host ({})", key)));
}

Result<std::vector<PciDevice>> pci_devices(const Host& host) {
  if (const MachineFacts* f = facts_of(host)) return f->pci_devices();
  return fail(Error::not_found("the PCI device list is not available through this host"));
}

Result<CpuFeatures> cpu_features(const Host& host) {
  if (const MachineFacts* f = facts_of(host)) return f->cpu_features();
  return fail(Error::not_found("CPUID is not available through this host"));
}

}  // namespace tfgpu
