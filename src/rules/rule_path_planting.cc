// Rule: no directory that others can write to is searched before the CUDA folders
// (library planting: any local user can drop a cudart/cudnn there and it is loaded
// into the next TensorFlow process). An empty, "." or other relative LD_LIBRARY_PATH
// element is searched relative to the current directory (LD_DEBUG=libs on glibc 2.36 with
// LD_LIBRARY_PATH=":rel:.:/opt/abs" shows the search path ":rel/...:./...:/opt/abs" and
// "trying file=rel/libc.so.6": opened relative to the cwd): wherever Python is started, a
// libcuda.so.1 or libcudnn.so.9 left in that folder is loaded. That is a warning on its
// own, wherever the element sits.
#include <optional>

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

namespace {

// Empty, "." and relative LD_LIBRARY_PATH elements: one finding, wherever they sit.
std::optional<Finding> current_dir_elements(const Snapshot& s) {
  if (is_windows(s)) return std::nullopt;  // LoadLibrary's bare-name search is its own rule (Windows: PATH)
  auto raw = env_var(s, "LD_LIBRARY_PATH");
  if (!raw || raw->empty()) return std::nullopt;  // glibc ignores an empty LD_LIBRARY_PATH as a whole
  std::vector<std::string> entries = split(*raw, ':');
  Finding f;
  std::vector<std::string> shown;
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& dir = entries[i];
    if (!dir.empty() && dir.front() == '/') continue;
    std::string what = dir.empty() ? "is empty: ld.so reads it as the current directory"
                       : dir == "." ? "is '.': the current directory"
                                    : fmt::format("'{}' is relative: ld.so reads it from the current directory", dir);
    f.evidence.push_back(fact(fmt::format("LD_LIBRARY_PATH element #{} {}", i + 1, what), "environment"));
    shown.push_back(dir.empty() ? "(empty)" : dir);
  }
  if (shown.empty()) return std::nullopt;
  f.id = "library_path_current_dir";
  f.layer = Layer::kRuntime;
  f.severity = Severity::kWarning;
  f.title = "LD_LIBRARY_PATH searches the current directory (library planting: a libcuda or libcudnn in the folder "
            "you start Python in is loaded)";
  std::vector<std::string> kept;
  for (const auto& e : entries)
    if (!e.empty() && e.front() == '/') kept.push_back(e);
  f.fix.push_back(fmt::format("Remove the empty, '.' and relative elements ({}) from LD_LIBRARY_PATH: no leading or "
                              "trailing ':', no '::'; use absolute folders only",
                              join(shown, ", ")));
  f.fix.push_back(kept.empty() ? "unset LD_LIBRARY_PATH"
                               : fmt::format("export LD_LIBRARY_PATH={}", join(kept, ":")));
  return f;
}

}  // namespace

std::vector<Finding> rule_path_planting(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  if (!env_known(s)) return out;
  if (auto f = current_dir_elements(s)) out.push_back(std::move(*f));
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
    if (is_windows(s)) {
      f.fix.push_back(fmt::format("Remove {} from PATH or move it after the CUDA folders; or restrict it: icacls \"{}\" /remove:g Users Everyone \"Authenticated Users\"", b, b));
    } else {
      f.fix.push_back(fmt::format("Remove {} from {} or move it after the CUDA folders; or restrict it: chmod o-w {}", b, var, b));
    }
  }
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
