#include "util/path_walk.h"

#include <vector>

namespace tfgpu {

std::string resolve_path_links(
    std::string_view path, const std::function<std::optional<std::string>(const std::string& prefix)>& link_target) {
  // What is still to walk: rest[pos..]. A followed link's target is put in front of it.
  std::string rest(path);
  size_t pos = 0;
  // What has been resolved so far ("/a/b"), and where each component starts in it, so ".."
  // and a followed link truncate it instead of re-joining.
  std::string resolved;
  std::vector<size_t> starts;
  int links = 0;
  while (pos < rest.size()) {
    size_t end = rest.find('/', pos);
    if (end == std::string::npos) end = rest.size();
    std::string_view c(rest.data() + pos, end - pos);
    pos = end + 1;
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
    rest = pos < rest.size() ? *target + "/" + rest.substr(pos) : *target;
    pos = 0;
  }
  return resolved.empty() ? "/" : resolved;
}

}  // namespace tfgpu
