// Rule: an NVIDIA driver is installed and answers. Without libcuda.so.1 / nvcuda.dll
// TensorFlow finds zero devices. (Containers and WSL2 have their own rules.)
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

namespace {

// NVML's nvmlInit answer when the user-space driver is there but the kernel driver is
// not ("NVML_ERROR_DRIVER_NOT_LOADED (9)", nvml.h: "NVIDIA driver is not loaded").
const LoadAttempt* nvml_driver_not_loaded(const Snapshot& s) {
  for (const auto& a : s.driver.attempts)
    if (a.library == "nvml" && a.init_result.starts_with("NVML_ERROR_DRIVER_NOT_LOADED")) return &a;
  return nullptr;
}

// Linux only: the kernel module is loaded exactly when /proc/driver/nvidia/version
// exists, which the driver probe reads there (WSL2 has no such module).
Finding kernel_driver_not_loaded(const Snapshot& s, const LoadAttempt& nvml) {
  Finding f;
  f.id = "driver_missing";
  f.layer = Layer::kDriver;
  f.severity = Severity::kBlocker;
  f.title = "The NVIDIA kernel driver is not loaded: TensorFlow cannot see any GPU";
  f.evidence.push_back(fact(fmt::format("nvmlInit: {} ({})", nvml.init_result, nvml.opened), "nvml"));
  f.evidence.push_back(fact("no /proc/driver/nvidia/version: the nvidia kernel module is not loaded", "driver probe"));
  for (const auto& g : s.gpus) f.evidence.push_back(fact(fmt::format("GPU {} ({}) on the PCI bus", g.name, g.pci_id), g.source));
  f.fix.push_back("Load it: sudo modprobe nvidia, and read its error: \"Key was rejected by service\" means Secure Boot "
                  "refuses the unsigned module (enroll the driver's MOK key: sudo mokutil --import, reboot, or sign it); "
                  "\"Module nvidia not found\" means it was not built for this kernel (`uname -r`): reinstall the driver "
                  "or run sudo dkms autoinstall");
  f.fix.push_back("If nouveau is loaded (lsmod | grep nouveau), blacklist it and rebuild the initramfs, then reboot");
  f.fix.push_back("Check: sudo dmesg | grep -i nvidia; cat /proc/driver/nvidia/version and nvidia-smi must work, then `tfgpu doctor`");
  return f;
}

}  // namespace

std::vector<Finding> rule_driver_presence(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (s.host.os == "macos" || !s.host.container.empty() || is_wsl2(s)) return out;
  // No GPU at all: rule_gpu_presence speaks; a driver would not help.
  if (s.gpus.empty() && (s.gpu_state.status == ProbeStatus::kAbsent || s.gpu_state.status == ProbeStatus::kOk)) return out;
  // User-space driver without its kernel module. The probe may still call the driver "ok":
  // cuDriverGetVersion answers from the library alone, but cuInit and NVML cannot work.
  if (s.host.os == "linux" && probed(s.driver.state) && s.driver.kernel_module_version.empty())
    if (const LoadAttempt* nvml = nvml_driver_not_loaded(s)) {
      out.push_back(kernel_driver_not_loaded(s, *nvml));
      return out;
    }
  if (s.driver.state.status != ProbeStatus::kAbsent) return out;  // failed: mismatch etc., not "missing"
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
