// Rule: the right TensorFlow package, once. A CPU-only flavour (tensorflow-cpu,
// tensorflow-intel), the removed tensorflow-gpu stub, or two TF distributions at
// different versions in one environment (they share one `tensorflow/` folder).
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

bool is_tf_flavour(const kb::KnowledgeBase& kb, std::string_view name) {
  for (const auto& p : kb.packages())
    if (p.name == name) return true;
  return name == "tf-nightly";
}

}  // namespace

std::vector<Finding> rule_package(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto p = wheel_platform(s);
  if (!p) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release) continue;
    std::string py = e.py->executable.empty() ? "python" : e.py->executable;
    // 1. The flavour that `import tensorflow` gets.
    for (const kb::TfPackage* pkg : kb.packages_for(*e.release, *p)) {
      if (pkg->name != e.tf->package) continue;
      if (pkg->role != "cpu" && pkg->role != "removed") continue;
      if (!e.release->has_gpu_build(*p) && kb.platform_note(*e.release, *p)) continue;  // rule_platform says it
      Finding f;
      f.id = "wrong_package";
      f.layer = Layer::kFramework;
      f.severity = Severity::kBlocker;
      f.env = e.label;
      f.title = pkg->role == "removed"
                    ? fmt::format("{} {} is a removed stub, not a TensorFlow build", pkg->name, e.tf->version)
                    : fmt::format("{} {} is a CPU-only build of TensorFlow", pkg->name, e.tf->version);
      f.evidence.push_back(fact(fmt::format("{} {} in {}", e.tf->package, e.tf->version, e.tf->location), "dist-info"));
      f.evidence.push_back(cite(kb.cite(*pkg), pkg->note));
      // The GPU flavour of the same release on this platform, from the KB.
      const kb::TfPackage* gpu = kb.gpu_package(*e.release, *p);
      const std::string gpu_name = gpu ? gpu->name : "";
      f.fix.push_back(fmt::format("{} -m pip uninstall -y {}", py, e.tf->package));
      if (!gpu_name.empty()) {
        bool and_cuda = *p == Platform::kLinux && has_and_cuda_extra(kb, *e.release);
        f.fix.push_back(fmt::format("{} -m pip install \"{}{}=={}\"", py, gpu_name, and_cuda ? "[and-cuda]" : "",
                                    e.tf->version));
      } else {
        f.fix.push_back(fmt::format("{} -m pip install tensorflow  (see `tfgpu plan` for a version with a GPU build here)", py));
      }
      out.push_back(std::move(f));
    }
    // 2. Several TF distributions in one environment.
    std::vector<const PythonPackage*> flavours;
    for (const auto& pkg : e.py->packages)
      if (is_tf_flavour(kb, pkg.name)) flavours.push_back(&pkg);
    bool differ = false;
    for (const auto* a : flavours)
      for (const auto* b : flavours) {
        if (a == b) continue;
        auto va = Version::parse(a->version);
        auto vb = Version::parse(b->version);
        // tensorflow + tensorflow-intel of the same version is the normal Windows install
        // (the KB's `installer` role); different versions, or two real builds, are not.
        if (va && vb && *va != *vb) differ = true;
        bool installer_pair = false;
        for (const kb::TfPackage* k : kb.packages_for(*e.release, *p))
          if (k->role == "installer" && (k->name == a->name || k->name == b->name)) installer_pair = true;
        if (!installer_pair && a->name != b->name) differ = true;
      }
    if (flavours.size() > 1 && differ) {
      Finding f;
      f.id = "wrong_package";
      f.layer = Layer::kFramework;
      f.severity = Severity::kBlocker;
      f.env = e.label;
      std::vector<std::string> names;
      std::vector<std::string> uninstall;
      for (const auto* pkg : flavours) {
        names.push_back(pkg->name + " " + pkg->version);
        uninstall.push_back(pkg->name);
        f.evidence.push_back(fact(fmt::format("{} {} installed", pkg->name, pkg->version),
                                  pkg->source.empty() ? pkg->location : pkg->source));
      }
      f.title = fmt::format("Several TensorFlow packages in one environment ({}): they overwrite each other's files",
                            join(names, ", "));
      f.fix.push_back(fmt::format("{} -m pip uninstall -y {}", py, join(uninstall, " ")));
      bool and_cuda = *p == Platform::kLinux && has_and_cuda_extra(kb, *e.release);
      f.fix.push_back(fmt::format("{} -m pip install \"tensorflow{}=={}\"  (one package only)", py,
                                  and_cuda ? "[and-cuda]" : "", e.tf->version));
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tfgpu::rules
