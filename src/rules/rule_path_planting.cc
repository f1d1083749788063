// Rule: no directory that others can write to is searched before the CUDA folders
// (library planting: any local user can drop a cudart/cudnn there and it is loaded
// into the next TensorFlow process). An empty LD_LIBRARY_PATH element means the
// current directory, which is the same risk.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

bool is_cuda_dir(const Snapshot& s, const std::string& dir) {
  for (const auto& c : s.cuda)
    for (const auto& d : c.lib_dirs)
      if (norm_path(s, d) == norm_path(s, dir)) return true;
  for (const auto& c : s.cudnn)
    for (const auto& d : c.lib_dirs)
      if (norm_path(s, d) == norm_path(s, dir)) return true;
  for (const auto& f : s.libraries)
    if ((f.component == "cudart" || f.component == "cudnn" || f.component == "cublas") && norm_path(s, dir_of(f.path)) == norm_path(s, dir))
      return true;
  return false;
}

}  // namespace

std::vector<Finding> rule_path_planting(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  if (!env_known(s)) return out;
  std::string var = path_var_name(s);
  auto raw = env_var(s, var);
  if (!raw) return out;
  std::vector<std::string> entries = split(*raw, is_windows(s) ? ';' : ':');
  size_t first_cuda = entries.size();
  for (size_t i = 0; i < entries.size(); ++i)
    if (!entries[i].empty() && is_cuda_dir(s, entries[i])) {
      first_cuda = i;
      break;
    }
  if (first_cuda == entries.size()) return out;
  Finding f;
  std::vector<std::string> bad;
  for (size_t i = 0; i < first_cuda; ++i) {
    const std::string& dir = entries[i];
    if (dir.empty() && !is_windows(s)) {
      f.evidence.push_back(fact(fmt::format("{} element #{} is empty: ld.so reads it as the current directory", var, i + 1), "environment"));
      bad.push_back("(empty = current directory)");
      continue;
    }
    for (const auto& d : s.search_dirs)
      if (d.world_writable == Tri::kYes && norm_path(s, d.path) == norm_path(s, dir)) {
        f.evidence.push_back(fact(fmt::format("{} #{}: {} is writable by every user", var, i + 1, dir), d.source.empty() ? "stat" : d.source));
        bad.push_back(dir);
      }
  }
  if (bad.empty()) return out;
  f.evidence.push_back(fact(fmt::format("first CUDA folder on {}: #{} {}", var, first_cuda + 1, entries[first_cuda]), "environment"));
  f.id = "library_path_world_writable";
  f.layer = Layer::kRuntime;
  f.severity = Severity::kWarning;
  f.title = fmt::format("A folder any user can write to is searched before the CUDA folders on {} (library planting)", var);
  for (const auto& b : bad) {
    if (starts_with(b, "(")) {
      f.fix.push_back(fmt::format("Remove the empty element from {} (no leading/trailing ':' or '::')", var));
    } else if (is_windows(s)) {
      f.fix.push_back(fmt::format("Remove {} from PATH or move it after the CUDA folders; or restrict it: icacls \"{}\" /remove:g Users Everyone \"Authenticated Users\"", b, b));
    } else {
      f.fix.push_back(fmt::format("Remove {} from {} or move it after the CUDA folders; or restrict it: chmod o-w {}", b, var, b));
    }
  }
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
