// Rule: the packages next to TensorFlow satisfy the constraints a working install needs
// beyond TF's own Requires-Dist (the KB's [[pip_constraint]] rows: NumPy < 2 for TF < 2.18,
// whose wheels are compiled against NumPy 1.x). A NumPy 2 there and `import tensorflow`
// fails ("A module that was compiled using NumPy 1.x cannot be run in NumPy 2").
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"
#include "util/version.h"

namespace tfgpu::rules {

namespace {

std::string normalised(std::string_view name) {
  std::string n = to_lower(name);
  std::replace(n.begin(), n.end(), '_', '-');
  std::replace(n.begin(), n.end(), '.', '-');
  return n;
}

}  // namespace

std::vector<Finding> rule_pip_constraints(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto p = wheel_platform(s);
  if (!p) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release) continue;
    for (const kb::PipConstraint* c : kb.pip_constraints_for(*e.release, *p)) {
      // "numpy<2" -> name "numpy", specifier "<2" (PEP 508 without markers or extras).
      const std::string& req = c->requirement;
      size_t cut = req.find_first_of("<>=!~ ");
      if (cut == std::string::npos || cut == 0) continue;
      std::string name = normalised(req.substr(0, cut));
      std::string spec = std::string(trim(req.substr(cut)));
      auto pkg = std::find_if(e.py->packages.begin(), e.py->packages.end(),
                              [&](const PythonPackage& pp) { return normalised(pp.name) == name; });
      if (pkg == e.py->packages.end()) continue;
      auto v = Version::parse(pkg->version);
      if (!v || satisfies_specifier(*v, spec)) continue;
      // Only NumPy has a finding id today; a new [[pip_constraint]] row for another package
      // needs its own id (and a scenario) here.
      const bool numpy = name == "numpy";
      if (!numpy) continue;
      Finding f;
      f.id = "numpy_abi_mismatch";
      f.layer = Layer::kFramework;
      f.severity = Severity::kBlocker;
      f.env = e.label;
      f.title = fmt::format("TensorFlow {} needs {}, but {} {} is installed: `import tensorflow` fails", e.tf->version,
                            req, pkg->name, pkg->version);
      f.evidence.push_back(fact(fmt::format("{} {} installed", pkg->name, pkg->version),
                                pkg->source.empty() ? pkg->location : pkg->source));
      f.evidence.push_back(cite(kb.cite(*c), c->why));
      std::string py = e.py->executable.empty() ? "python" : e.py->executable;
      f.fix.push_back(fmt::format("{} -m pip install \"{}\"", py, req));
      f.fix.push_back("Or move to TensorFlow 2.18 or newer where the platform allows it (tfgpu matrix --tf 2.18)");
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tfgpu::rules
