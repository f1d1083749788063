// Rule: is there a CUDA build of this TensorFlow for this platform at all?
// TF >= 2.11 on native Windows and every TF on macOS are CPU-only (KB platform notes).
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

// The newest release with a GPU build on a platform (TF 2.10 for native Windows).
const kb::TfRelease* newest_gpu_release(const kb::KnowledgeBase& kb, Platform p) {
  const kb::TfRelease* best = nullptr;
  for (const auto& r : kb.tf_releases())
    if (r.has_gpu_build(p)) best = &r;
  return best;
}

std::string python_range(const std::vector<Version>* v) {
  if (!v || v->empty()) return "";
  return v->front().str() + "-" + v->back().str();
}

std::vector<std::string> windows_fixes(const Snapshot& s, const TfEnv& e, const kb::KnowledgeBase& kb,
                                       const kb::PlatformNote& note) {
  std::vector<std::string> fix;
  const kb::TfRelease* last = newest_gpu_release(kb, Platform::kWindows);
  if (last) {
    std::string pys = python_range(last->python_on(Platform::kWindows));
    bool py_ok = true;
    if (auto pv = Version::parse(e.py->version); pv && last->python_on(Platform::kWindows)) {
      const auto& list = *last->python_on(Platform::kWindows);
      py_ok = std::any_of(list.begin(), list.end(), [&](const Version& v) { return pv->matches_prefix(v) || v == pv->truncated(2); });
    }
    std::string series = last->series().str();
    std::string next = Version({last->version.major(), last->version.minor() + 1}).str();
    fix.push_back(fmt::format(
        "Fix A (stay on native Windows): use TensorFlow {} with CUDA {} and cuDNN {}, the last CUDA build for Windows (Python {}){}",
        series, last->cuda.str(), last->cudnn.str(), pys,
        py_ok ? "" : fmt::format("; this env has Python {}, so first create one: conda create -n tf{} python={}", e.py->version,
                                 series, last->python_on(Platform::kWindows)->back().str())));
    fix.push_back(fmt::format("  A1. {} -m pip uninstall -y tensorflow tensorflow-intel tensorflow-cpu",
                              e.py->executable.empty() ? "python" : e.py->executable));
    fix.push_back(fmt::format("  A2. conda install -c conda-forge cudatoolkit={} cudnn={}  (in a conda env; or install CUDA {} and cuDNN {} "
                              "from NVIDIA and put C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v{}\\bin on PATH)",
                              last->cuda.str(), last->cudnn.str(), last->cuda.str(), last->cudnn.str(), last->cuda.str()));
    fix.push_back(fmt::format("  A3. python -m pip install \"tensorflow<{}\"  (pip takes {}.x; anything newer is CPU-only on Windows)",
                              next, series));
    fix.push_back("  A4. python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\" then `tfgpu doctor`");
  }
  const kb::TfRelease* newest = kb.tf_releases().empty() ? nullptr : &kb.tf_releases().back();
  // The Windows build WSL2's GPU support needs is the KB's (the WSL2 alternative's
  // parenthesis: "WSL2 (Windows 10 19044 / 21H2 or newer) with ...").
  std::string wsl_needs;
  for (const auto& alt : note.alternatives) {
    auto at = alt.find("WSL2 (");
    if (at == std::string::npos) continue;
    auto open = at + 5, close = alt.find(')', open);
    if (close != std::string::npos) wsl_needs = alt.substr(open + 1, close - open - 1);
    break;
  }
  fix.push_back(fmt::format("Fix B (current TensorFlow{}): use WSL2{}", newest ? " " + newest->series().str() : "",
                            wsl_needs.empty() ? "" : " (" + wsl_needs + ", or Windows 11)"));
  fix.push_back("  B1. PowerShell as administrator: wsl --install -d Ubuntu, then reboot");
  const kb::Wsl2Driver* wsl_driver = newest ? kb.wsl2_driver(newest->cuda) : nullptr;
  auto have = Version::parse(s.driver.version);
  if (wsl_driver && have && *have < wsl_driver->driver)
    fix.push_back(fmt::format("  B2. Update the Windows NVIDIA driver to {} or newer first (this one is {}: {}); it serves WSL2 too. Do NOT install a Linux NVIDIA driver inside WSL",
                              wsl_driver->driver.str(), s.driver.version, wsl_driver->note));
  else
    fix.push_back(wsl_driver ? fmt::format("  B2. Keep the Windows NVIDIA driver (>= {} serves WSL2 too); do NOT install a Linux NVIDIA driver inside WSL", wsl_driver->driver.str())
                             : std::string("  B2. Keep the Windows NVIDIA driver (it serves WSL2 too); do NOT install a Linux NVIDIA driver inside WSL"));
  fix.push_back("  B3. In Ubuntu: sudo apt install python3-venv && python3 -m venv ~/tf && ~/tf/bin/pip install \"tensorflow[and-cuda]\"");
  fix.push_back("  B4. ~/tf/bin/python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"");
  for (const auto& alt : note.alternatives)
    if (icontains(alt, "DirectML")) fix.push_back("Fix C (not CUDA): " + alt);
  return fix;
}

}  // namespace

std::vector<Finding> rule_platform(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto p = wheel_platform(s);
  if (!p) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || e.release->has_gpu_build(*p)) continue;
    const kb::PlatformNote* note = kb.platform_note(*e.release, *p);
    if (!note) continue;  // e.g. TF 1.x's CPU-only `tensorflow` package: rule_package says so
    Finding f;
    f.layer = Layer::kFramework;
    f.severity = Severity::kBlocker;
    f.env = e.label;
    f.evidence.push_back(fact(fmt::format("{} {} installed in {}", e.tf->package, e.tf->version, e.label),
                              e.py->source.empty() ? "python" : e.py->source));
    f.evidence.push_back(cite(kb.cite(*note), note->message));
    if (*p == Platform::kMacos) {
      f.id = "macos_gpu_unsupported";
      f.title = fmt::format("TensorFlow {} on macOS has no CUDA support: it never uses an NVIDIA GPU", e.tf->version);
      for (const auto& alt : note->alternatives) f.fix.push_back(alt);
    } else {
      f.id = "windows_native_gpu_unsupported_tf_ge_2_11";
      f.title = fmt::format("TensorFlow {} on native Windows is CPU-only (no CUDA build after {})", e.tf->version,
                            newest_gpu_release(kb, Platform::kWindows)
                                ? newest_gpu_release(kb, Platform::kWindows)->series().str()
                                : std::string("the last Windows GPU release"));
      f.fix = windows_fixes(s, e, kb, *note);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
