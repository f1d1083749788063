// write_file_replacing for POSIX: mkstemp-style exclusive create + rename(2).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "host/file_write.h"

namespace tfgpu {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

}  // namespace

bool is_symlink_path(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

Result<void> write_file_replacing(const std::string& path, std::string_view text, WrittenFileMode mode) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::random_device rd;
  int fd = -1;
  std::string tmp;
  // A fresh name, created exclusively and not through a link: nobody else's file is opened.
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    tmp = fmt::format("{}.{}.{:08x}.tfgpu-tmp", slash == std::string::npos ? "" : dir, base, rd());
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                mode == WrittenFileMode::kExecutable ? 0755 : 0644);
    if (fd < 0 && errno != EEXIST) return fail(Error::io(fmt::format("cannot create {}: {}", tmp, errno_text(errno))));
  }
  if (fd < 0) return fail(Error::io(fmt::format("cannot create a temporary file in {}", dir)));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return fail(Error::io(fmt::format("cannot write {}: {}", path, errno_text(e))));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return fail(Error::io(fmt::format("cannot write {}: {}", path, errno_text(e))));
  }
  // rename(2) replaces a symlink at `path` itself, never the file it points to.
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return fail(Error::io(fmt::format("cannot write {}: {}", path, errno_text(e))));
  }
  return {};
}

}  // namespace tfgpu
