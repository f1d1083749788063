// Rule: a library TensorFlow loads is taken from a folder that belongs to no CUDA / cuDNN
// install (an application that ships its own cudart64_110.dll, an old copy dropped into a
// tools folder) while the install's own copy is passed over later in the search. Its
// version cannot be told from the file (a DLL name says only the major), so this is a
// warning with the loader's trail; a copy whose version is known and wrong is the version
// rules' blocker instead.
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

bool belongs_to_install(const Snapshot& s, const LibraryFile& f) {
  return cuda_install_of(s, f) != nullptr || cudnn_install_of(s, f) != nullptr;
}

}  // namespace

std::vector<Finding> rule_stray_library(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (!env_known(s) || !runtime_looked(s)) return out;
  auto wp = wheel_platform(s);
  if (!wp) return out;
  const std::string var = path_var_name(s);
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    Finding f;
    std::vector<std::string> stray_dirs, install_dirs;
    for (const auto& l : kb.tf_libraries(*e.release, *wp).libraries) {
      Resolution r = resolve(s, &e, l.file);
      if (!r.found || !r.found->version.empty() || belongs_to_install(s, *r.found)) continue;
      const LibraryFile* installed = nullptr;
      for (const LibraryFile* sh : r.shadowed)
        if (!installed && belongs_to_install(s, *sh)) installed = sh;
      if (!installed) continue;
      f.evidence.push_back(loader_evidence(
          s, fmt::format("{} loads from {} (via {}), a folder of no CUDA or cuDNN install; version unknown", l.file,
                         r.found_path, r.found_via),
          r));
      f.evidence.push_back(fact(fmt::format("shadowed: {}{}", installed->path,
                                            installed->version.empty() ? "" : " (" + installed->version + ")"),
                                "loader model"));
      std::string sd = dir_of(r.found_path), id = dir_of(installed->path);
      if (std::find(stray_dirs.begin(), stray_dirs.end(), sd) == stray_dirs.end()) stray_dirs.push_back(sd);
      if (std::find(install_dirs.begin(), install_dirs.end(), id) == install_dirs.end()) install_dirs.push_back(id);
    }
    if (stray_dirs.empty()) continue;
    f.id = "cuda_library_shadowed";
    f.layer = Layer::kRuntime;
    f.severity = Severity::kWarning;
    f.env = e.label;
    f.title = fmt::format("TensorFlow {} would load CUDA libraries from {}, which belongs to no CUDA install, not from {}",
                          e.tf->version, join(stray_dirs, ", "), join(install_dirs, ", "));
    for (const auto& d : stray_dirs)
      f.fix.push_back(fmt::format("Move {} after {} on {} (or remove it from {} if no program needs it)", d,
                                  join(install_dirs, " and "), var, var));
    f.fix.push_back("Or rename the stray copies named above, if they are not part of another program");
    f.fix.push_back(is_windows(s) ? "Open a new terminal, then run `tfgpu doctor` again"
                                  : "Open a new shell (or re-export the variable), then run `tfgpu doctor` again");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
