#include "python/path_util.h"

namespace tfgpu::python {

namespace {
bool is_sep(char c) { return c == '/' || c == '\\'; }
size_t last_sep(std::string_view p) {
  for (size_t i = p.size(); i-- > 0;)
    if (is_sep(p[i])) return i;
  return std::string_view::npos;
}
}  // namespace

std::string path_clean(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    // "/./" -> "/", "//" -> "/"
    if (is_sep(path[i]) && !out.empty() && is_sep(out.back())) continue;
    if (path[i] == '.' && !out.empty() && is_sep(out.back()) && (i + 1 == path.size() || is_sep(path[i + 1]))) {
      ++i;
      continue;
    }
    out.push_back(path[i]);
  }
  while (out.size() > 1 && is_sep(out.back())) out.pop_back();
  return out;
}

std::string path_join(std::string_view dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  std::string out(dir);
  if (!is_sep(out.back())) out.push_back(dir.find('\\') != std::string_view::npos && dir.find('/') == std::string_view::npos ? '\\' : '/');
  while (!name.empty() && is_sep(name.front())) name.remove_prefix(1);
  out += name;
  return out;
}

std::string path_dirname(std::string_view path) {
  std::string p = path_clean(path);
  size_t s = last_sep(p);
  if (s == std::string_view::npos) return "";
  if (s == 0) return p.substr(0, 1);
  return p.substr(0, s);
}

std::string path_basename(std::string_view path) {
  std::string p = path_clean(path);
  size_t s = last_sep(p);
  return s == std::string_view::npos ? p : p.substr(s + 1);
}

}  // namespace tfgpu::python
