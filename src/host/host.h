#pragma once
// The one seam through which tfgpu touches the live machine: files, directories,
// environment, child processes, the registry. host_posix.cc / host_win32.cc
// implement it for real; FakeHost (fake_host.h) is an in-memory machine for tests.
// Everything above this layer is pure and works on what a Host returns.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/machine_facts.h"
#include "util/error.h"

namespace tfgpu {

enum class Platform { kLinux, kWindows, kMacos };
const char* platform_name(Platform p);  // "linux", "windows", "macos"

enum class FileType { kRegular, kDirectory, kSymlink, kOther };

struct FileInfo {
  FileType type = FileType::kOther;
  uint64_t size = 0;
  uint32_t mode = 0;        // POSIX permission bits (0 where the platform has none)
  uint32_t uid = 0;         // owner (0 on Windows)
  std::string link_target;  // for symlinks seen through lstat
};

struct DirEntry {
  std::string name;
  FileType type = FileType::kOther;  // type of the entry itself (a symlink is kSymlink)
};

struct OsRelease {
  std::string kernel_name;     // "Linux"
  std::string kernel_release;  // "6.1.0-18-amd64" or "5.15.146.1-microsoft-standard-WSL2"
  std::string machine;         // "x86_64"
  std::string libc_version{};  // glibc's gnu_get_libc_version() ("2.36"); "" when not glibc
  std::string node_name{};     // the host name: uname's nodename, Windows' DNS host name; "" unknown
};

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is the program (a path, or a name looked up on PATH)
  std::chrono::milliseconds timeout{10000};
  std::map<std::string, std::string> env_overrides;  // set (or, with an empty value, unset)
  std::string stdin_text;
  size_t max_output = 16u << 20;  // bytes kept of stdout and of stderr each
};

struct ProcessResult {
  int exit_code = -1;      // valid when exited
  bool exited = false;     // ended on its own with exit_code
  bool timed_out = false;  // killed by us after spec.timeout
  int signal = 0;          // POSIX signal that ended it (crash), 0 if none
  std::string out;
  std::string err;
  // "exited with 0", "killed after 5000 ms (timeout)", "crashed: signal 11 (Segmentation fault)"
  std::string describe() const;
};

// An open file read by ranges (Host::open_ranges).
class RangeReader {
 public:
  virtual ~RangeReader() = default;
  virtual uint64_t size() const = 0;  // file size when opened
  // `length` bytes at `offset`, fewer only at the end of the file.
  virtual Result<std::string> read(uint64_t offset, uint64_t length) = 0;
};

class Host {
 public:
  virtual ~Host() = default;

  virtual Platform platform() const = 0;
  virtual OsRelease os_release() const = 0;

  virtual std::optional<std::string> env(const std::string& name) const = 0;
  virtual std::map<std::string, std::string> environment() const = 0;

  // Reads at most max_bytes; a longer file is an error, not a silent truncation.
  virtual Result<std::string> read_file(const std::string& path, uint64_t max_bytes = 64u << 20) const = 0;
  // Ranged read: `length` bytes at `offset` of a file, fewer only where the file ends
  // first (an offset at or past the end gives ""). For binary headers (ELF / PE) that
  // sit anywhere in files of any size.
  virtual Result<std::string> read_file_range(const std::string& path, uint64_t offset, uint64_t length) const = 0;
  // The same reads on one open file (a header walk takes several). The default opens
  // nothing and calls read_file_range per read; host_posix / host_win32 keep the file open.
  virtual Result<std::unique_ptr<RangeReader>> open_ranges(const std::string& path) const;
  virtual Result<std::vector<DirEntry>> list_dir(const std::string& path) const = 0;
  virtual std::optional<FileInfo> stat(const std::string& path) const = 0;   // follows symlinks
  virtual std::optional<FileInfo> lstat(const std::string& path) const = 0;  // does not
  virtual Result<std::string> canonical(const std::string& path) const = 0;  // symlinks resolved
  virtual std::string current_dir() const = 0;

  // Runs a child process with a timeout; a crash or hang of the child is a result,
  // never a failure of tfgpu.
  virtual Result<ProcessResult> run(const ProcessSpec& spec) const = 0;
  // Absolute path of the running tfgpu binary (for re-running itself as a child).
  virtual std::string self_exe() const = 0;

  // Windows registry value as text (REG_SZ / REG_EXPAND_SZ / REG_DWORD); POSIX hosts
  // answer not_found. `key` is like "HKLM\\SOFTWARE\\NVIDIA Corporation\\...".
  virtual Result<std::string> registry_value(const std::string& key, const std::string& value) const;
  // Names of the subkeys of a registry key.
  virtual Result<std::vector<std::string>> registry_subkeys(const std::string& key) const;
  // Every value of a registry key (names as stored; binary / multi-string values skipped).
  virtual Result<std::vector<RegistryValue>> registry_values(const std::string& key) const;
  // PCI devices present, whether or not a driver is installed for them (Windows: SetupAPI).
  virtual Result<std::vector<PciDevice>> pci_devices() const;
  // CPUID of the processor tfgpu runs on.
  virtual Result<CpuFeatures> cpu_features() const;
  // Writes `contents` to `path` so that readers see the old file or the whole new one,
  // never a part: a temporary file in the same directory, flushed, then renamed over
  // `path`. The only write tfgpu does on behalf of `probe --out`.
  virtual Result<void> write_file_atomic(const std::string& path, std::string_view contents) const;

  // Convenience built on the above.
  bool exists(const std::string& path) const { return stat(path).has_value(); }
  bool is_dir(const std::string& path) const;
  bool is_file(const std::string& path) const;
};

// Makes a child of tfgpu that opens vendor libraries by bare name (libnvidia-ml.so.1,
// libcuda.so.1) unable to load one from the current directory: on Linux an empty, "." or
// relative LD_LIBRARY_PATH element is searched relative to the current directory (ld.so(8)),
// so the child gets LD_LIBRARY_PATH with only its absolute elements (unset when none is
// left). Windows children load bare names from System32 only (DynamicLibrary), unchanged.
void keep_child_loader_off_current_dir(const Host& host, ProcessSpec& spec);

// `list` (LD_LIBRARY_PATH) with only its absolute elements, in order.
std::string absolute_library_path_elements(std::string_view list);

// The Host of the machine tfgpu runs on (host_posix.cc or host_win32.cc).
std::unique_ptr<Host> make_system_host();

// Start-up facts only main needs: the arguments (without argv[0]) as UTF-8 (Windows
// re-reads them as UTF-16, and switches the console to UTF-8), and whether stdout is
// a terminal (for colour and progress lines).
std::vector<std::string> command_line_arguments(int argc, char** argv);
bool stdout_is_terminal();
// Standard input is a terminal (nothing piped in).
bool stdin_is_terminal();

}  // namespace tfgpu
