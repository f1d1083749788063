// Rule: Windows TensorFlow imports need the Microsoft Visual C++ runtime
// (msvcp140.dll, msvcp140_1.dll; TF's self_check.py names msvcp140_1.dll).
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

std::vector<Finding> rule_msvc_runtime(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  // Only a completed runtime probe looked for these DLLs; a partial snapshot did not.
  if (!is_windows(s) || s.runtime_state.status != ProbeStatus::kOk) return out;
  auto envs = tf_envs(s, kb);
  if (envs.empty()) return out;
  std::vector<std::string> missing;
  std::vector<Resolution> misses;
  for (const char* dll : {"msvcp140.dll", "msvcp140_1.dll"}) {
    Resolution r = resolve(s, &envs.front(), dll);
    if (!r.found_path.empty()) continue;
    missing.push_back(dll);
    misses.push_back(std::move(r));
  }
  if (missing.empty()) return out;
  Finding f;
  f.id = "msvc_runtime_missing";
  f.layer = Layer::kFramework;
  f.severity = Severity::kBlocker;
  f.title = fmt::format("Microsoft Visual C++ runtime missing ({}): `import tensorflow` fails", join(missing, ", "));
  for (const auto& r : misses)
    f.evidence.push_back(loader_evidence(s, fmt::format("{} not found by the loader ({})", r.name, r.loader.error.empty() ? loader::to_string(r.loader.outcome) : r.loader.error), r));
  f.fix.push_back("Install the Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe");
  f.fix.push_back("Open a new terminal and run `tfgpu doctor` again");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
