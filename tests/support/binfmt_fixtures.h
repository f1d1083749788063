#pragma once
// Fixtures for the binfmt tests that are built in the test run: a scratch directory and
// small ELF shared objects compiled by gcc (so the ELF tests read what a real toolchain
// writes, with the flags shown in each test), and file helpers.

#include <string>
#include <vector>

namespace tfgpu::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `contents` to path()/name and returns the full path.
  std::string write(const std::string& name, const std::string& contents) const;

 private:
  std::string path_;
};

std::string read_binary_file(const std::string& path);

// Compiles a one-function C shared object `dir/file_name` with gcc and the given extra
// flags (e.g. {"-Wl,-soname,libfoo.so.1", "-Wl,-rpath,/opt/x", "-Wl,--enable-new-dtags"})
// and links it against `link_with` (full paths of other fixtures). Returns the file's path,
// or "" with `error` set when gcc is missing or fails.
std::string build_shared_library(const ScratchDir& dir, const std::string& file_name,
                                 const std::vector<std::string>& flags, std::string* error,
                                 const std::vector<std::string>& link_with = {},
                                 const std::string& source = "");
// `source`: the C text to compile instead of the one-function default.

}  // namespace tfgpu::test
