// Rule: a Python TensorFlow can run on. 32-bit interpreters get no wheel at all; a
// Python outside a release's tested list has no official wheel (KB python_<os>).
#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

namespace {

bool listed(const std::vector<Version>& list, const Version& py) {
  return std::any_of(list.begin(), list.end(), [&](const Version& v) { return py.truncated(2) == v.truncated(2); });
}

std::string range_text(const std::vector<Version>& list) {
  if (list.empty()) return "";
  return list.size() == 1 ? list.front().str() : list.front().str() + "-" + list.back().str();
}

}  // namespace

std::vector<Finding> rule_python(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto p = wheel_platform(s);
  if (!p || !probed(s.python_state)) return out;
  auto tfs = tf_envs(s, kb);
  // Each environment's TF entry, found through a map (a scan per environment would be
  // quadratic in the number of environments).
  std::unordered_map<const PythonEnv*, const TfEnv*> tf_of;
  for (const auto& t : tfs) tf_of[t.py] = &t;
  for (const auto& py : s.pythons) {
    auto found = tf_of.find(&py);
    const TfEnv* e = found == tf_of.end() ? nullptr : found->second;
    // Only environments that matter: those with TF, and the active one (where the
    // user will `pip install tensorflow`).
    if (!e && !py.active) continue;
    std::string label = env_label(py);
    if (py.bits == 32) {
      Finding f;
      f.id = "python_32bit";
      f.layer = Layer::kFramework;
      f.severity = Severity::kBlocker;
      f.env = label;
      f.title = "32-bit Python: TensorFlow has only 64-bit wheels";
      f.evidence.push_back(fact(fmt::format("{} is a 32-bit interpreter", py.executable), py.source.empty() ? "python" : py.source));
      f.fix.push_back(*p == Platform::kWindows
                          ? "Install 64-bit Python from https://www.python.org/downloads/windows/ (\"Windows installer (64-bit)\") or Miniconda x86_64"
                          : "Install a 64-bit (x86_64) Python");
      f.fix.push_back("Create the environment with it and install TensorFlow there (see `tfgpu plan`)");
      out.push_back(std::move(f));
    }
    auto pv = Version::parse(py.version);
    if (!pv) continue;
    if (e && e->release) {
      const auto* list = e->release->python_on(*p);
      if (!list || list->empty() || listed(*list, *pv)) continue;
      Finding f;
      f.id = "python_version_unsupported";
      f.layer = Layer::kFramework;
      f.severity = Severity::kWarning;
      f.env = label;
      f.title = fmt::format("Python {} is not among the Pythons TensorFlow {} was released for ({})", pv->truncated(2).str(),
                            e->release->series().str(), range_text(*list));
      f.evidence.push_back(fact(fmt::format("{} is Python {}", py.executable, py.version), py.source.empty() ? "python" : py.source));
      f.evidence.push_back(cite(kb.cite(*e->release), fmt::format("TensorFlow {} wheels: Python {}", e->release->series().str(), range_text(*list))));
      f.fix.push_back(fmt::format("Use Python {} for TensorFlow {} (e.g. conda create -n tf python={}) and reinstall it there",
                                  list->back().str(), e->release->series().str(), list->back().str()));
      out.push_back(std::move(f));
      continue;
    }
    if (e) continue;
    // Active env without TF: can any GPU build of TF be installed for this Python here?
    const kb::TfRelease* newest_ok = nullptr;
    std::vector<Version> seen;
    for (const auto& rel : kb.tf_releases()) {
      if (!rel.has_gpu_build(*p)) continue;
      const auto* list = rel.python_on(*p);
      if (!list) continue;
      for (const auto& v : *list) seen.push_back(v);
      if (listed(*list, *pv)) newest_ok = &rel;
    }
    if (newest_ok || seen.empty()) continue;
    std::sort(seen.begin(), seen.end());
    Finding f;
    f.id = "python_version_unsupported";
    f.layer = Layer::kFramework;
    f.severity = Severity::kBlocker;
    f.env = label;
    f.title = fmt::format("No TensorFlow GPU build for Python {} on {} (\"No matching distribution found\")",
                          pv->truncated(2).str(), is_wsl2(s) ? "WSL2" : platform_name(*p));
    f.evidence.push_back(fact(fmt::format("{} is Python {}", py.executable, py.version), py.source.empty() ? "python" : py.source));
    f.evidence.push_back(fact(fmt::format("TensorFlow GPU builds for {} exist for Python {}-{} only", platform_name(*p),
                                          seen.front().str(), seen.back().str()),
                              "kb: tensorflow.toml"));
    f.fix.push_back(fmt::format("Create an environment with Python {}: conda create -n tf python={} (or python.org installer)",
                                seen.back().str(), seen.back().str()));
    f.fix.push_back("Install TensorFlow there (`tfgpu plan` gives the full version set)");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
