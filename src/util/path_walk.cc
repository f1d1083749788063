#include "util/path_walk.h"

#include <vector>

#include "util/strings.h"

namespace tfgpu {

std::string resolve_path_links(
    std::string_view path, const std::function<std::optional<std::string>(const std::string& prefix)>& link_target) {
  // Components still to walk, as a stack: the next one is at the back. A link's target is
  // pushed in front of the rest of the path.
  std::vector<std::string> todo;
  auto push = [&todo](std::string_view p) {
    std::vector<std::string> parts = split(p, '/');
    for (size_t i = parts.size(); i-- > 0;) todo.push_back(std::move(parts[i]));
  };
  push(path);
  // What has been resolved so far, as one string ("/a/b") and the length before each
  // component, so ".." and a followed link truncate it in O(1) instead of re-joining.
  std::string resolved;
  std::vector<size_t> starts;
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.back());
    todo.pop_back();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (!starts.empty()) {
        resolved.resize(starts.back());
        starts.pop_back();
      }
      continue;
    }
    starts.push_back(resolved.size());
    resolved += '/';
    resolved += c;
    if (links >= 40) continue;
    std::optional<std::string> target = link_target(resolved);
    if (!target || target->empty()) continue;
    ++links;
    resolved.resize(starts.back());
    starts.pop_back();
    if ((*target)[0] == '/') {
      resolved.clear();
      starts.clear();
    }
    push(*target);
  }
  return resolved.empty() ? "/" : resolved;
}

}  // namespace tfgpu
