// Rule: the driver is new enough for the CUDA each TensorFlow was built with
// ("CUDA driver version is insufficient for CUDA runtime version"). Minimums come from
// the KB (minor-version compatibility for CUDA >= 11, toolkit-exact before).
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_driver_version(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (s.driver.state.status != ProbeStatus::kOk || s.driver.version.empty()) return out;
  auto dv = Version::parse(s.driver.version);
  auto dp = driver_platform(s);
  if (!dv || !dp) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    auto req = kb.min_driver(e.release->cuda, *dp, kb::DriverPolicy::kMinorVersionCompat);
    if (!req || !(*dv < req->min_driver)) continue;
    Finding f;
    f.id = "driver_too_old";
    f.layer = Layer::kDriver;
    f.severity = Severity::kBlocker;
    f.env = e.label;
    f.title = fmt::format("Driver {} is too old for CUDA {} (TensorFlow {}): it needs {} or newer", s.driver.version,
                          e.release->cuda.str(), e.tf->version, kb::driver_version_str(req->min_driver));
    f.evidence.push_back(fact(fmt::format("driver {}{}", s.driver.version,
                                          s.driver.cuda_version.empty() ? "" : fmt::format(" (supports CUDA up to {})", s.driver.cuda_version)),
                              s.driver.state.source.empty() ? "driver probe" : s.driver.state.source));
    f.evidence.push_back(cite(kb.cite(*e.release), fmt::format("TensorFlow {} was built with CUDA {}", e.release->series().str(), e.release->cuda.str())));
    if (!req->cites.empty()) f.evidence.push_back(cite(req->cites.front(), fmt::format("CUDA {} needs driver >= {} ({})", req->cuda.str(), kb::driver_version_str(req->min_driver), req->basis)));
    if (is_wsl2(s))
      f.fix.push_back(fmt::format("Update the NVIDIA driver on WINDOWS (not inside WSL) to {} or newer: https://www.nvidia.com/Download/index.aspx; then wsl --shutdown", kb::driver_version_str(req->min_driver)));
    else if (is_windows(s))
      f.fix.push_back(fmt::format("Update the NVIDIA driver to {} or newer: https://www.nvidia.com/Download/index.aspx (or GeForce Experience), then reboot", kb::driver_version_str(req->min_driver)));
    else
      f.fix.push_back(fmt::format("Update the NVIDIA driver to {} or newer (Ubuntu: sudo ubuntu-drivers install; or the .run from https://www.nvidia.com/Download/index.aspx), then reboot",
                                  kb::driver_version_str(req->min_driver)));
    // Or keep the driver: the newest TF whose CUDA this driver runs (KB).
    kb::DriverCapability cap = kb.newest_cuda_for_driver(*dv, *dp);
    if (cap.newest_cuda_minor_compat) {
      const kb::TfRelease* fits = nullptr;
      auto wp = wheel_platform(s);
      for (const auto& rel : kb.tf_releases())
        if (wp && rel.has_gpu_build(*wp) && rel.cuda.truncated(2) <= *cap.newest_cuda_minor_compat) fits = &rel;
      if (fits)
        f.fix.push_back(fmt::format("Or keep this driver (it runs CUDA up to {}) and use TensorFlow {} (CUDA {}): pip install \"tensorflow=={}.*\"",
                                    cap.newest_cuda_minor_compat->str(), fits->series().str(), fits->cuda.str(), fits->series().str()));
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
