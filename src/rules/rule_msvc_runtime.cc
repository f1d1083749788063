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
  for (const char* dll : {"msvcp140.dll", "msvcp140_1.dll"})
    if (resolve(s, &envs.front(), dll).found_path.empty()) missing.push_back(dll);
  if (missing.empty()) return out;
  Finding f;
  f.id = "msvc_runtime_missing";
  f.layer = Layer::kFramework;
  f.severity = Severity::kBlocker;
  f.title = fmt::format("Microsoft Visual C++ runtime missing ({}): `import tensorflow` fails", join(missing, ", "));
  f.evidence.push_back(fact(fmt::format("{} not found in {} or on PATH", join(missing, ", "), s.loader.system_dir.empty() ? "System32" : s.loader.system_dir),
                            "loader model"));
  f.fix.push_back("Install the Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe");
  f.fix.push_back("Open a new terminal and run `tfgpu doctor` again");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
