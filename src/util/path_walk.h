#pragma once
// Resolves the symlinks in an absolute POSIX path the way the kernel does (path_resolution(7)),
// with the links given by the caller: the snapshot's recorded ones (loader) or the live
// file system's (probe).

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tfgpu {

// `link_target(prefix)` returns the target of `prefix` ("/a/b") when it is a symlink to
// follow, else nullopt; it is asked once per component walked. Components are resolved left
// to right; a link's target replaces it, relative to the directory holding the link; ".." is
// the parent of what has been resolved so far. After 40 links (ELOOP) the rest of the path
// is taken as written, without asking. Returns the resolved path ("/" + components).
std::string resolve_path_links(std::string_view path,
                               const std::function<std::optional<std::string>(const std::string& prefix)>& link_target);

}  // namespace tfgpu
