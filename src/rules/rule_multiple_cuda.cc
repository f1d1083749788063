// Rule: several CUDA installs on the search path (PATH / LD_LIBRARY_PATH). The first
// one wins for every name it has; when it is not the CUDA TensorFlow was built with,
// the libraries TF loads come from a mix of installs.
#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

const CudaInstall* install_for_dir(const Snapshot& s, const std::string& dir) {
  for (const auto& c : s.cuda) {
    if (c.kind == "pip") continue;  // pip wheels are not on PATH; found through TF's RUNPATH
    for (const auto& d : c.lib_dirs)
      if (norm_path(s, d) == norm_path(s, dir)) return &c;
  }
  return nullptr;
}

}  // namespace

std::vector<Finding> rule_multiple_cuda(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (!env_known(s)) return out;
  std::string var = path_var_name(s);
  std::vector<std::pair<std::string, const CudaInstall*>> seen;  // dir, install, in PATH order
  for (const auto& dir : path_entries(s, var)) {
    const CudaInstall* c = install_for_dir(s, dir);
    if (!c) continue;
    bool dup = false;
    for (const auto& [d, i] : seen) dup = dup || i == c;
    if (!dup) seen.emplace_back(dir, c);
  }
  std::vector<std::string> versions;
  for (const auto& [d, c] : seen) {
    auto v = Version::parse(c->version);
    std::string mm = v ? v->truncated(2).str() : c->version;
    if (std::find(versions.begin(), versions.end(), mm) == versions.end()) versions.push_back(mm);
  }
  if (versions.size() < 2) return out;
  Finding f;
  f.id = "multiple_cuda_on_path";
  f.layer = Layer::kRuntime;
  f.severity = Severity::kWarning;
  f.title = fmt::format("{} CUDA versions on {} ({}); the first one wins for every library it has", versions.size(), var, join(versions, ", "));
  for (size_t i = 0; i < seen.size(); ++i)
    f.evidence.push_back(fact(fmt::format("{} #{}: {} (CUDA {})", var, i + 1, seen[i].first, seen[i].second->version),
                              seen[i].second->version_source.empty() ? "environment" : seen[i].second->version_source));
  std::string needed;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    needed = e.release->cuda.str();
    f.evidence.push_back(cite(kb.cite(*e.release), fmt::format("TensorFlow {} in {} was built with CUDA {}", e.tf->version, e.label, needed)));
    // Which copy TF's own load of the CUDA runtime takes (loader model).
    if (auto wp = wheel_platform(s))
      for (const auto& l : kb.tf_libraries(*e.release, *wp).libraries) {
        if (l.component != "cudart") continue;
        Resolution r = resolve(s, &e, l.file);
        f.evidence.push_back(loader_evidence(
            s, r.found_path.empty() ? fmt::format("TensorFlow's load of {} finds no file", l.file)
                                    : fmt::format("TensorFlow's load of {} takes {} (via {})", l.file, r.found_path, r.found_via), r));
      }
    break;
  }
  if (auto cp = env_var(s, "CUDA_PATH")) f.evidence.push_back(fact("CUDA_PATH=" + *cp, "environment"));
  std::string keep_dir;
  for (const auto& [d, c] : seen) {
    auto v = Version::parse(c->version);
    if (!needed.empty() && v && v->truncated(2).str() == needed && keep_dir.empty()) keep_dir = d;
  }
  if (!keep_dir.empty()) {
    f.fix.push_back(fmt::format("Put {} first on {} (TensorFlow needs CUDA {})", keep_dir, var, needed));
    for (const auto& [d, c] : seen)
      if (d != keep_dir) f.fix.push_back(fmt::format("Remove {} from {} unless another program needs it", d, var));
  } else {
    f.fix.push_back(fmt::format("Keep only the CUDA version TensorFlow needs on {}{}", var, needed.empty() ? "" : " (CUDA " + needed + ")"));
  }
  if (is_windows(s)) f.fix.push_back("Also point CUDA_PATH at that version's folder; open a new terminal afterwards");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
