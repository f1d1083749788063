#include "binfmt/ld_so_conf.h"

#include <algorithm>
#include <set>

#include "util/strings.h"

namespace tfgpu::binfmt {
namespace {

constexpr int kMaxIncludeDepth = 16;   // ldconfig has none; cycles are cut by `seen` anyway
constexpr size_t kMaxConfBytes = 1u << 20;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool has_glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

std::string dir_name(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string join_path(const std::string& dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  if (dir.back() == '/') return dir + std::string(name);
  return dir + "/" + std::string(name);
}

// glob(3) for one pattern: expands every component with glob characters against the
// directory listing, results sorted per level (glob sorts the final list; per-level sorting
// gives the same order because the prefixes are sorted too).
std::vector<std::string> expand_glob(const Host& host, const std::string& pattern) {
  std::vector<std::string> parts = split(pattern, '/');
  std::vector<std::string> current = {pattern.starts_with("/") ? "/" : ""};
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (part.empty()) continue;
    std::vector<std::string> next;
    for (const std::string& base : current) {
      if (!has_glob_chars(part)) {
        next.push_back(base.empty() ? part : join_path(base, part));
        continue;
      }
      auto entries = host.list_dir(base.empty() ? "." : base);
      if (!entries) continue;
      std::vector<std::string> names;
      for (const DirEntry& e : *entries) {
        // glob(3): a leading '.' must be matched explicitly.
        if (e.name.starts_with(".") && !part.starts_with(".")) continue;
        if (glob_match(part, e.name)) names.push_back(e.name);
      }
      std::sort(names.begin(), names.end());
      for (const auto& n : names) next.push_back(base.empty() ? n : join_path(base, n));
    }
    current = std::move(next);
  }
  // Without glob characters glob(3) returns the pattern only if it exists (GLOB_NOCHECK is
  // not used by ldconfig).
  std::vector<std::string> out;
  for (auto& p : current)
    if (!p.empty() && host.exists(p)) out.push_back(std::move(p));
  return out;
}

struct Reader {
  const Host& host;
  std::set<std::string> seen_files;
  std::set<std::string> seen_dirs;
  std::vector<std::string> dirs;

  void read(const std::string& path, int depth) {
    if (depth > kMaxIncludeDepth || !seen_files.insert(path).second) return;
    auto text = host.read_file(path, kMaxConfBytes);
    if (!text) return;
    for (const LdSoConfLine& line : parse_ld_so_conf_text(*text)) {
      if (line.kind == LdSoConfLine::Kind::kDir) {
        if (seen_dirs.insert(line.value).second) dirs.push_back(line.value);
        continue;
      }
      // ldconfig parse_conf_include: relative patterns are relative to the directory of
      // the file that includes them.
      std::string pattern = line.value.starts_with("/") ? line.value : join_path(dir_name(path), line.value);
      for (const std::string& file : expand_glob(host, pattern)) read(file, depth + 1);
    }
  }
};

bool class_match(std::string_view pattern, size_t& pi, char c) {
  // pattern[pi] == '['; on return pi is past the closing ']'.
  size_t i = pi + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) negate = true, ++i;
  bool matched = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    char lo = pattern[i];
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      hi = pattern[i + 2];
      if (hi == '\\' && i + 3 < pattern.size()) hi = pattern[++i + 2];
      i += 2;
    }
    if (c >= lo && c <= hi) matched = true;
    ++i;
  }
  if (i >= pattern.size()) return false;  // unterminated class: treated as no match
  pi = i + 1;
  return matched != negate;
}

}  // namespace

std::vector<LdSoConfLine> parse_ld_so_conf_text(std::string_view text) {
  std::vector<LdSoConfLine> out;
  for (const std::string& raw : split(text, '\n')) {
    std::string_view line = raw;
    line = line.substr(0, line.find('#'));
    line = trim(line);
    if (line.empty()) continue;
    if (line.starts_with("include") && line.size() > 7 && is_blank(line[7])) {
      for (const std::string& p : split_nonempty(std::string(line.substr(8)), ' ')) {
        for (const std::string& q : split_nonempty(p, '\t')) out.push_back({LdSoConfLine::Kind::kInclude, q});
      }
      continue;
    }
    if (line.size() > 5 && iequals(line.substr(0, 5), "hwcap") && is_blank(line[5])) continue;
    // ldconfig add_dir_1: "dir=TYPE" gives a library type; the type is not part of the path.
    std::string dir(line.substr(0, line.find('=')));
    dir = std::string(trim(dir));
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!dir.empty()) out.push_back({LdSoConfLine::Kind::kDir, dir});
  }
  return out;
}

Result<std::vector<std::string>> read_ld_so_conf(const Host& host, const std::string& path) {
  auto text = host.read_file(path, kMaxConfBytes);
  if (!text) return fail(Error::not_found(path + ": " + text.error().message));
  Reader r{host, {}, {}, {}};
  r.read(path, 0);
  return r.dirs;
}

bool glob_match(std::string_view pattern, std::string_view name) {
  // Iterative matcher with single-star backtracking (linear for the patterns seen here,
  // and never recursive, so hostile patterns cannot blow the stack).
  size_t p = 0, n = 0, star_p = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size()) {
      char c = pattern[p];
      if (c == '*') {
        star_p = p++;
        star_n = n;
        continue;
      }
      if (c == '?') {
        ++p, ++n;
        continue;
      }
      if (c == '[') {
        size_t q = p;
        if (class_match(pattern, q, name[n])) {
          p = q, ++n;
          continue;
        }
      } else {
        if (c == '\\' && p + 1 < pattern.size()) c = pattern[++p];
        if (c == name[n]) {
          ++p, ++n;
          continue;
        }
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace tfgpu::binfmt
