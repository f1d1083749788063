#include "loader/file_index.h"

#include "loader/ld_so.h"
#include "util/path_walk.h"
#include "util/strings.h"

namespace tfgpu::loader {

namespace {

bool is_sep(char c, PathStyle style) { return c == '/' || (style == PathStyle::kWindows && c == '\\'); }

std::string windows_key(std::string_view path) {
  std::string p = to_lower(path);
  for (char& c : p)
    if (c == '\\') c = '/';
  // Keep a drive prefix ("c:") in front of the normalised rest.
  std::string drive;
  if (p.size() >= 2 && p[1] == ':') {
    drive = p.substr(0, 2);
    p = p.substr(2);
  }
  return drive + normalize_path(p);
}

}  // namespace

std::string dir_name(std::string_view path, PathStyle style) {
  size_t pos = std::string_view::npos;
  for (size_t i = path.size(); i-- > 0;)
    if (is_sep(path[i], style)) {
      pos = i;
      break;
    }
  if (pos == std::string_view::npos) return "";
  if (pos == 0) return std::string(path.substr(0, 1));
  if (style == PathStyle::kWindows && pos == 2 && path[1] == ':') return std::string(path.substr(0, 3));
  return std::string(path.substr(0, pos));
}

std::string base_name(std::string_view path, PathStyle style) {
  for (size_t i = path.size(); i-- > 0;)
    if (is_sep(path[i], style)) return std::string(path.substr(i + 1));
  return std::string(path);
}

FileIndex::FileIndex(const std::vector<LibraryFile>& files, PathStyle style,
                     const std::map<std::string, std::string>* dir_links)
    : style_(style) {
  if (dir_links && style_ == PathStyle::kPosix)
    for (const auto& [link, target] : *dir_links)
      if (!link.empty() && link[0] == '/' && !target.empty()) links_[normalize_path(link)] = target;
  for (const auto& f : files) {
    if (f.path.empty()) continue;
    std::string k = key(f.path);
    // The first record of a path wins (a probe should not list one twice).
    if (by_path_.emplace(k, &f).second) by_dir_[key(dir_name(f.path, style_))].push_back(base_name(f.path, style_));
  }
}

const std::string& FileIndex::key(std::string_view path) const {
  // Elements of an unordered_map keep their address when it grows: the reference is stable.
  std::lock_guard lock(memo_mutex_);
  if (auto it = memo_.find(path); it != memo_.end()) return it->second;
  std::string k = compute_key(path);  // reads links_ only: safe under the lock
  return memo_.emplace(std::string(path), std::move(k)).first->second;
}

std::string FileIndex::compute_key(std::string_view path) const {
  if (style_ == PathStyle::kWindows) return windows_key(path);
  if (links_.empty() || path.empty() || path[0] != '/') return normalize_path(path);
  // Without a ".." component the walk visits exactly the prefixes of the lexically
  // normalised path: when no recorded link is one of them, that path is the answer.
  bool dotdot = path.find("/../") != std::string_view::npos || ends_with(path, "/..");
  if (!dotdot) {
    std::string n = normalize_path(path);
    bool through_link = false;
    for (const auto& [link, target] : links_)
      if (starts_with(n, link) && (n.size() == link.size() || n[link.size()] == '/' || link == "/")) {
        through_link = true;
        break;
      }
    if (!through_link) return n;
  }
  return physical(path);
}

std::string FileIndex::physical(std::string_view path) const {
  return resolve_path_links(path, [this](const std::string& prefix) -> std::optional<std::string> {
    auto it = links_.find(prefix);
    if (it == links_.end()) return std::nullopt;
    return it->second;
  });
}

const LibraryFile* FileIndex::at(std::string_view path) const {
  auto it = by_path_.find(key(path));
  return it == by_path_.end() ? nullptr : it->second;
}

const LibraryFile* FileIndex::resolve(std::string_view path, std::string* identity) const {
  const std::string* current = &key(path);  // memo entries: stable for the index's lifetime
  const LibraryFile* file = nullptr;
  // A bounded walk: ELOOP after 40 links, as the kernel.
  for (int depth = 0; depth < 40; ++depth) {
    auto it = by_path_.find(*current);
    if (it == by_path_.end()) break;
    file = it->second;
    if (file->symlink_target.empty()) break;
    const std::string& target = file->symlink_target;
    bool absolute = !target.empty() && (is_sep(target[0], style_) || (style_ == PathStyle::kWindows && target.size() > 1 && target[1] == ':'));
    const std::string& next = absolute ? key(target) : key(dir_name(*current, style_) + "/" + target);
    if (by_path_.find(next) == by_path_.end()) {
      // The target is not recorded: the link's record stands for it (the probe parses through links).
      current = &next;
      break;
    }
    current = &next;
  }
  if (identity) *identity = *current;
  return file;
}

std::vector<std::string> FileIndex::names_in(std::string_view dir) const {
  auto it = by_dir_.find(key(dir));
  return it == by_dir_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace tfgpu::loader
