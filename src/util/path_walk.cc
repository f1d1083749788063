#include "util/path_walk.h"

#include <vector>

#include "util/strings.h"

namespace tfgpu {

std::string resolve_path_links(
    std::string_view path, const std::function<std::optional<std::string>(const std::string& prefix)>& link_target) {
  std::vector<std::string> todo;  // a stack: the next component is at the back
  auto push = [&todo](std::string_view p) {
    std::vector<std::string> parts = split(p, '/');
    for (size_t i = parts.size(); i-- > 0;) todo.push_back(parts[i]);
  };
  push(path);
  std::vector<std::string> done;
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.back());
    todo.pop_back();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (!done.empty()) done.pop_back();
      continue;
    }
    done.push_back(std::move(c));
    if (links >= 40) continue;
    std::optional<std::string> target = link_target("/" + join(done, "/"));
    if (!target || target->empty()) continue;
    ++links;
    done.pop_back();
    if ((*target)[0] == '/') done.clear();
    push(*target);
  }
  return "/" + join(done, "/");
}

}  // namespace tfgpu
