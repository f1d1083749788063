// Rule: an NVIDIA driver is installed and answers. Without libcuda.so.1 / nvcuda.dll
// TensorFlow finds zero devices. (Containers and WSL2 have their own rules.)
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_driver_presence(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (s.host.os == "macos" || !s.host.container.empty() || is_wsl2(s)) return out;
  if (s.driver.state.status != ProbeStatus::kAbsent) return out;  // failed: mismatch etc., not "missing"
  // No GPU at all: rule_gpu_presence speaks; a driver would not help.
  if (s.gpus.empty() && (s.gpu_state.status == ProbeStatus::kAbsent || s.gpu_state.status == ProbeStatus::kOk)) return out;
  Finding f;
  f.id = "driver_missing";
  f.layer = Layer::kDriver;
  f.severity = Severity::kBlocker;
  f.title = "No NVIDIA driver: TensorFlow cannot see any GPU";
  f.evidence.push_back(fact(s.driver.state.reason.empty() ? "no NVIDIA driver library found" : s.driver.state.reason,
                            s.driver.state.source.empty() ? "driver probe" : s.driver.state.source));
  for (const auto& a : s.driver.attempts)
    for (const auto& err : a.errors) f.evidence.push_back(fact(err, a.library));
  for (const auto& g : s.gpus) f.evidence.push_back(fact(fmt::format("GPU {} ({}) on the PCI bus", g.name, g.pci_id), g.source));
  // The driver TF needs: the highest minimum over the TF environments (KB).
  std::optional<kb::DriverRequirement> need;
  auto dp = driver_platform(s);
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !dp || !tf_gpu_build(e, s, kb)) continue;
    auto req = kb.min_driver(e.release->cuda, *dp, kb::DriverPolicy::kMinorVersionCompat);
    if (req && (!need || need->min_driver < req->min_driver)) need = *req;
  }
  std::string at_least = need ? fmt::format(" {} or newer (for CUDA {})", kb::driver_version_str(need->min_driver), need->cuda.str()) : "";
  if (need) f.evidence.push_back(cite(need->cites.empty() ? kb::Citation{} : need->cites.front(),
                                      fmt::format("CUDA {} needs driver >= {} ({})", need->cuda.str(), kb::driver_version_str(need->min_driver), need->basis)));
  if (is_windows(s)) {
    f.fix.push_back(fmt::format("Download the NVIDIA driver{} for your GPU from https://www.nvidia.com/Download/index.aspx and install it", at_least));
    f.fix.push_back("Reboot, then check in a new terminal: nvidia-smi");
  } else {
    f.fix.push_back(fmt::format("Install the NVIDIA driver{}: Ubuntu: sudo ubuntu-drivers install; Debian: enable contrib non-free non-free-firmware, "
                                "then sudo apt install nvidia-driver firmware-misc-nonfree; or the .run installer from https://www.nvidia.com/Download/index.aspx",
                                at_least));
    f.fix.push_back("Reboot (the kernel module must load; with Secure Boot enroll the MOK key), then check: nvidia-smi");
  }
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
