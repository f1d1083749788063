// Driver layer, parent side: NVML first (driver version, max CUDA, per-GPU facts),
// then the CUDA driver's cuDriverGetVersion, then /proc/driver/nvidia/version. Each
// vendor library is loaded by `tfgpu __probe-driver` in a child with a timeout, so a
// crashing or hanging library becomes a recorded fact instead of taking tfgpu down.
#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "probe/probe.h"
#include "probe/probe_child.h"
#include "util/strings.h"

namespace tfgpu::probe {

using nlohmann::json;

namespace {

std::string str_or(const json& j, const char* key) {
  auto it = j.find(key);
  return (it != j.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 ..." or
// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build ...".
std::string kernel_module_version(const std::string& text) {
  auto lines = split(text, '\n');
  if (lines.empty()) return "";
  const std::string& first_line = lines.front();
  auto pos = first_line.find("Module");
  if (pos == std::string::npos) return "";
  for (const auto& tok : split_nonempty(std::string_view(first_line).substr(pos), ' ')) {
    if (!tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) && tok.find('.') != std::string::npos) {
      return tok;
    }
  }
  return "";
}

GpuInfo gpu_from_child(const json& g) {
  GpuInfo out;
  if (g.contains("index") && g["index"].is_number_integer()) out.index = g["index"].get<int>();
  out.name = str_or(g, "name");
  out.uuid = str_or(g, "uuid");
  out.compute_capability = str_or(g, "compute_capability");
  out.pci_id = str_or(g, "pci_id");
  out.pci_bus_id = str_or(g, "pci_bus_id");
  if (g.contains("memory_total_bytes") && g["memory_total_bytes"].is_number_unsigned())
    out.memory_total_bytes = g["memory_total_bytes"].get<uint64_t>();
  if (g.contains("memory_free_bytes") && g["memory_free_bytes"].is_number_unsigned())
    out.memory_free_bytes = g["memory_free_bytes"].get<uint64_t>();
  out.source = "nvml";
  return out;
}

// Driver GPUs replace or complete the bus view: same PCI bus id = same GPU.
void merge_gpus(Snapshot& s, const json& gpus) {
  for (const auto& g : gpus) {
    GpuInfo d = gpu_from_child(g);
    GpuInfo* match = nullptr;
    for (auto& existing : s.gpus) {
      if (!d.pci_bus_id.empty() && iequals(existing.pci_bus_id, d.pci_bus_id)) match = &existing;
    }
    if (!match) {
      s.gpus.push_back(std::move(d));
      continue;
    }
    match->index = d.index;
    if (!d.name.empty()) match->name = d.name;
    if (!d.compute_capability.empty()) match->compute_capability = d.compute_capability;
    if (!d.uuid.empty()) match->uuid = d.uuid;
    if (d.memory_total_bytes) match->memory_total_bytes = d.memory_total_bytes;
    if (d.memory_free_bytes) match->memory_free_bytes = d.memory_free_bytes;
    if (match->pci_id.empty()) match->pci_id = d.pci_id;
    match->source = match->source + "+nvml";
  }
}

}  // namespace

void probe_driver(const Host& host, const ProbeOptions& options, Snapshot& s) {
  DriverInfo& d = s.driver;
  std::string nvml_state_reason;

  ChildAnswer nv = run_vendor_child(host, options, VendorLibrary::kNvml, options.nvml_path);
  d.attempts.push_back(nv.attempt);
  bool nvml_ok = nv.ok;
  if (nvml_ok) {
    d.version = str_or(nv.json, "driver_version");
    d.cuda_version = str_or(nv.json, "cuda_version");
    if (nv.json.contains("device_count") && nv.json["device_count"].is_number_integer())
      d.device_count = nv.json["device_count"].get<int>();
    if (nv.json.contains("gpus") && nv.json["gpus"].is_array()) merge_gpus(s, nv.json["gpus"]);
  }

  // cuDriverGetVersion: the fallback for the driver's CUDA version (also when NVML is
  // old or libcuda is missing next to it).
  bool cuda_ok = false;
  if (d.cuda_version.empty()) {
    ChildAnswer cu = run_vendor_child(host, options, VendorLibrary::kCudaDriver, options.cuda_path);
    d.attempts.push_back(cu.attempt);
    cuda_ok = cu.ok;
    if (cu.ok) d.cuda_version = str_or(cu.json, "cuda_version");
    if (d.device_count < 0 && cu.json.contains("device_count") && cu.json["device_count"].is_number_integer())
      d.device_count = cu.json["device_count"].get<int>();
  }

  std::string proc_source;
  if (host.platform() == Platform::kLinux) {
    if (auto text = host.read_file("/proc/driver/nvidia/version", 1u << 16)) {
      d.kernel_module_version = kernel_module_version(*text);
      proc_source = "/proc/driver/nvidia/version";
    }
  }
  if (d.version.empty() && !d.kernel_module_version.empty() && s.host.wsl2 != Tri::kYes) {
    d.version = d.kernel_module_version;
  }

  if (nvml_ok) {
    d.state = {ProbeStatus::kOk, "", "nvml:" + nv.attempt.opened};
  } else if (cuda_ok) {
    d.state = {ProbeStatus::kOk, "NVML unusable (" + nv.summary + "); CUDA version from cuDriverGetVersion",
               "cuda:" + d.attempts.back().opened + (proc_source.empty() ? "" : ", " + proc_source)};
  } else if (!d.kernel_module_version.empty()) {
    d.state = {ProbeStatus::kFailed,
               fmt::format("kernel module {} is loaded but no user-space driver library answered: {}",
                           d.kernel_module_version, nv.summary),
               proc_source};
  } else {
    // Nothing loaded and no kernel module: no driver here, a fact, not a failure,
    // unless a library was found and then misbehaved (crash, hang, init error).
    bool found_something = false;
    for (const auto& a : d.attempts) found_something = found_something || !a.opened.empty() || a.init_result.starts_with("crashed") ||
                                                             a.init_result.starts_with("timed out") ||
                                                             a.init_result.starts_with("failed");
    std::vector<std::string> why;
    for (const auto& a : d.attempts) why.push_back(a.library + ": " + (a.init_result.empty() ? (a.errors.empty() ? "not loaded" : a.errors.front()) : a.init_result));
    d.state = {found_something ? ProbeStatus::kFailed : ProbeStatus::kAbsent,
               (found_something ? "NVIDIA driver not usable: " : "no NVIDIA driver: ") + join(why, "; ") +
                   (host.platform() == Platform::kLinux ? "; no /proc/driver/nvidia/version" : ""),
               ""};
  }

  // WSL2: the driver is the only view of the GPUs.
  if (s.host.wsl2 == Tri::kYes) {
    if (!s.gpus.empty()) s.gpu_state = {ProbeStatus::kOk, "WSL2: GPUs as reported by the Windows driver", "nvml"};
    else if (d.state.status == ProbeStatus::kOk)
      s.gpu_state = {ProbeStatus::kAbsent, "WSL2: the driver reports no GPU", "nvml"};
    else s.gpu_state = {d.state.status == ProbeStatus::kAbsent ? ProbeStatus::kAbsent : ProbeStatus::kFailed,
                        "WSL2: no PCI view, and the driver did not answer (" + d.state.reason + ")", "wsl2"};
  } else if (s.gpu_state.status == ProbeStatus::kAbsent && !s.gpus.empty()) {
    s.gpu_state = {ProbeStatus::kOk, "seen by the driver only", "nvml"};
  }
}

}  // namespace tfgpu::probe
