// Rule: is there a TensorFlow to judge at all? When no Python environment has it, the
// doctor says so and points to `tfgpu plan`.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_tf_presence(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  // "Not installed" is a fact only when every environment was read (else the verdict is cannot_tell).
  if (!probed(s.python_state) || python_unknown(s) || !tf_envs(s, kb).empty()) return out;
  Finding f;
  f.id = "tensorflow_not_installed";
  f.layer = Layer::kFramework;
  f.severity = Severity::kInfo;
  f.title = s.pythons.empty() ? "No Python interpreter found, so no TensorFlow" : "No Python environment here has TensorFlow installed";
  for (const auto& py : s.pythons) f.evidence.push_back(fact(fmt::format("{}: no tensorflow package", env_label(py)), py.source.empty() ? "python" : py.source));
  if (s.pythons.empty())
    f.evidence.push_back(fact(s.python_state.reason.empty() ? "no python3/python on PATH" : s.python_state.reason,
                              s.python_state.source.empty() ? "python probe" : s.python_state.source));
  // TensorFlow may well be installed in an environment the probe was not pointed at.
  f.fix.push_back("If TensorFlow is installed in an environment, activate it (or run tfgpu from the project folder "
                  "that holds its .venv/venv/env) or pass it: tfgpu doctor --python PATH/TO/python");
  auto wp = wheel_platform(s);
  const kb::TfRelease* newest = nullptr;
  for (const auto& r : kb.tf_releases())
    if (wp && r.has_gpu_build(*wp)) newest = &r;
  f.fix.push_back(newest ? fmt::format("Run `tfgpu plan --tf {}` for a version set that fits this machine and the commands to install it", newest->series().str())
                         : "Run `tfgpu plan` for a version set that fits this machine and the commands to install it");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
