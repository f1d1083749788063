// Rule: kernel module and user-space driver agree. After a driver upgrade without a
// reboot the old kernel module answers the new libraries: "Driver/library version
// mismatch" (NVML_ERROR_LIB_RM_VERSION_MISMATCH), and CUDA finds no device.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

std::vector<Finding> rule_driver_mismatch(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  if (!probed(s.driver.state) || is_wsl2(s)) return out;
  Finding f;
  for (const auto& a : s.driver.attempts) {
    if (icontains(a.init_result, "RM_VERSION_MISMATCH") || icontains(a.init_result, "version mismatch"))
      f.evidence.push_back(fact(fmt::format("{} init: {}", a.library, a.init_result), a.opened.empty() ? a.library : a.opened));
  }
  if (icontains(s.driver.state.reason, "version mismatch"))
    f.evidence.push_back(fact(s.driver.state.reason, s.driver.state.source.empty() ? "driver probe" : s.driver.state.source));
  if (!s.driver.kernel_module_version.empty() && !s.driver.version.empty() && s.driver.kernel_module_version != s.driver.version)
    f.evidence.push_back(fact(fmt::format("kernel module {} but user-space driver libraries {}", s.driver.kernel_module_version, s.driver.version),
                              "/proc/driver/nvidia/version"));
  if (f.evidence.empty()) return out;
  f.id = "driver_library_mismatch";
  f.layer = Layer::kDriver;
  f.severity = Severity::kBlocker;
  f.title = "NVIDIA kernel module and driver libraries differ (\"Driver/library version mismatch\"): usually fixed by a reboot";
  f.fix.push_back("Reboot the machine so the kernel module of the installed driver is loaded");
  f.fix.push_back("Without a reboot: stop every GPU process, then sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia");
  f.fix.push_back("Check: cat /proc/driver/nvidia/version and nvidia-smi must show the same version; then `tfgpu doctor`");
  f.fix.push_back("If it persists, two driver installs are mixed (distro package + .run): remove one (sudo nvidia-uninstall, or apt purge 'nvidia-*') and reinstall");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
