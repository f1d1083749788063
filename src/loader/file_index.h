#pragma once
// Internal to the loader model: the snapshot's library files by path, so a search can
// ask "is this file there, and what is it" the way the loader's open() would.
// POSIX paths are compared after resolving the directory symlinks the probe recorded
// (LoaderInfo::dir_links: /usr/local/cuda/lib64 and /usr/local/cuda-13.0/lib are one
// directory, as for the kernel), else lexically; Windows paths case-insensitively with
// '/' and '\\' alike.

#include <map>
#include <mutex>
#include <unordered_map>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/snapshot.h"

namespace tfgpu::loader {

enum class PathStyle { kPosix, kWindows };

class FileIndex {
 public:
  // `dir_links`: link path -> target (LoaderInfo::dir_links); null or empty: none known.
  FileIndex(const std::vector<LibraryFile>& files, PathStyle style,
            const std::map<std::string, std::string>* dir_links = nullptr);

  // Key of an absolute path: the directory it names after the recorded directory links
  // are followed (the kernel's path walk: a link's target replaces it, ".." after it goes
  // to the target's parent), normalised. Equal keys = the same file.
  // The reference stays valid for the index's lifetime.
  const std::string& key(std::string_view path) const;
  // The record at exactly this path (a symlink's own record), nullptr when absent.
  const LibraryFile* at(std::string_view path) const;
  // The record the path finally names, following symlink_target through the snapshot;
  // `identity` receives the key of the final file (equal keys = the same file).
  // A symlink whose target is not recorded answers with its own record.
  const LibraryFile* resolve(std::string_view path, std::string* identity) const;
  // File names recorded directly in `dir`.
  std::vector<std::string> names_in(std::string_view dir) const;

 private:
  std::string physical(std::string_view path) const;
  std::string compute_key(std::string_view path) const;

  // key() is asked for the same few hundred paths thousands of times by one doctor run
  // (every search dir x every name): remembered, under a lock so a shared index stays
  // safe to read from several threads.
  // Hash maps with lookup by string_view (no key string built per question).
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  template <class V>
  using StringMap = std::unordered_map<std::string, V, Hash, std::equal_to<>>;
  mutable std::mutex memo_mutex_;
  mutable StringMap<std::string> memo_;

  PathStyle style_;
  std::map<std::string, std::string> links_;  // normalised link path -> target as recorded
  StringMap<const LibraryFile*> by_path_;
  StringMap<std::vector<std::string>> by_dir_;
};

// Directory part of a path ("/a/b/libx.so" -> "/a/b"; "libx.so" -> ""; "/libx.so" -> "/").
std::string dir_name(std::string_view path, PathStyle style);
std::string base_name(std::string_view path, PathStyle style);

}  // namespace tfgpu::loader
