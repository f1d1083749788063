#pragma once
// The one way tfgpu writes a file (`plan --out`): never through a symlink. The text goes
// to a new file beside the target, created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW; Windows
// CREATE_NEW), then renamed over the target, so a symlink at the target, or one planted
// while writing, is replaced and its target never opened. file_write_posix.cc / _win32.cc.

#include <string>
#include <string_view>

#include "util/error.h"

namespace tfgpu {

enum class WrittenFileMode { kRegular, kExecutable };  // executable: 0755 on POSIX (umask applies), 0644 else

// The target's path type without following a symlink at it: whether it is a symlink.
bool is_symlink_path(const std::string& path);

Result<void> write_file_replacing(const std::string& path, std::string_view text, WrittenFileMode mode);

}  // namespace tfgpu
