#pragma once
// An in-memory machine for tests (ninja's VirtualFileSystem idea): files, symlinks,
// environment, registry and scripted child processes, so probes run without
// touching the real machine. Windows fakes compare paths case-insensitively and
// accept both '\\' and '/'.

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "host/host.h"
#include "host/machine_facts.h"

namespace tfgpu {

class FakeHost final : public Host {
 public:
  explicit FakeHost(Platform platform = Platform::kLinux);

  // --- building the fake machine
  FakeHost& add_file(const std::string& path, std::string contents, uint32_t mode = 0644);
  FakeHost& add_dir(const std::string& path, uint32_t mode = 0755);
  FakeHost& add_symlink(const std::string& path, const std::string& target);
  FakeHost& set_env(const std::string& name, const std::string& value);
  FakeHost& set_os_release(OsRelease r);
  FakeHost& set_current_dir(std::string dir);
  FakeHost& set_registry_value(const std::string& key, const std::string& value, std::string data);
  // PCI devices (SetupAPI on Windows) and CPUID answers (machine_facts.h); unscripted,
  // they answer not_found like a host without them. An Error makes the call fail with it.
  FakeHost& set_pci_devices(Result<std::vector<PciDevice>> devices);
  FakeHost& set_cpu_features(Result<CpuFeatures> cpu);
  using ProcessHandler = std::function<Result<ProcessResult>(const ProcessSpec&)>;
  FakeHost& set_process_handler(ProcessHandler handler);
  // list_dir(path) fails with `error` (a directory that exists but cannot be read).
  FakeHost& set_list_dir_error(const std::string& path, Error error);
  // Number of child processes the code under test asked for.
  int processes_run() const { return processes_run_; }
  // Bytes handed out by read_file and read_file_range so far (tests of ranged header reads).
  uint64_t bytes_read() const { return bytes_read_; }
  // Makes every read of `path` (whole or ranged) fail with an I/O error, as a disk would.
  FakeHost& fail_reads(const std::string& path);

  // --- Host
  Platform platform() const override { return platform_; }
  OsRelease os_release() const override { return os_release_; }
  std::optional<std::string> env(const std::string& name) const override;
  std::map<std::string, std::string> environment() const override { return env_; }
  Result<std::string> read_file(const std::string& path, uint64_t max_bytes = 64u << 20) const override;
  Result<std::string> read_file_range(const std::string& path, uint64_t offset, uint64_t length) const override;
  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override;
  std::optional<FileInfo> stat(const std::string& path) const override;
  std::optional<FileInfo> lstat(const std::string& path) const override;
  Result<std::string> canonical(const std::string& path) const override;
  std::string current_dir() const override { return cwd_; }
  Result<ProcessResult> run(const ProcessSpec& spec) const override;
  std::string self_exe() const override { return self_exe_; }
  Result<std::string> registry_value(const std::string& key, const std::string& value) const override;
  Result<std::vector<std::string>> registry_subkeys(const std::string& key) const override;
  // --- registry values, PCI devices, CPUID (host.h; machine_facts.h has the types)
  Result<std::vector<RegistryValue>> registry_values(const std::string& key) const override;
  Result<std::vector<PciDevice>> pci_devices() const override;
  Result<CpuFeatures> cpu_features() const override;
  // Stores the file (mode 0644) in the fake machine; fails like a disk would where the
  // parent directory is missing.
  Result<void> write_file_atomic(const std::string& path, std::string_view contents) const override;

 private:
  struct Node {
    FileType type = FileType::kRegular;
    std::string contents;  // file data, or the symlink target
    uint32_t mode = 0644;
    std::string display_path;  // as first given (original case)
  };
  std::string key(const std::string& path) const;
  std::string resolve(const std::string& path, int depth) const;  // follows symlinks
  void ensure_parents(const std::string& path);

  Platform platform_;
  OsRelease os_release_;
  std::map<std::string, Node> nodes_;  // normalised path -> node
  std::map<std::string, std::string> env_;
  std::map<std::string, std::string> registry_;  // normalised "key\0value" -> data
  std::map<std::string, std::string> registry_names_;  // normalised "key\0value" -> value name as given
  std::optional<Result<std::vector<PciDevice>>> pci_devices_;
  std::optional<Result<CpuFeatures>> cpu_features_;
  std::map<std::string, Error> list_dir_errors_;  // normalised path -> error
  std::string cwd_ = "/";
  std::string self_exe_ = "/usr/local/bin/tfgpu";
  ProcessHandler process_handler_;
  // Atomic: the probe reads files on one thread while the driver probe runs children on another.
  // (A FakeHost is copied and moved by tests: the counters copy their current value.)
  template <class T>
  struct Counter {
    std::atomic<T> value{0};
    Counter() = default;
    Counter(const Counter& o) : value(o.value.load()) {}
    Counter& operator=(const Counter& o) {
      value = o.value.load();
      return *this;
    }
    operator T() const { return value.load(); }
    Counter& operator+=(T n) {
      value += n;
      return *this;
    }
    Counter& operator++() {
      ++value;
      return *this;
    }
  };
  mutable Counter<int> processes_run_;
  mutable Counter<uint64_t> bytes_read_;
  std::map<std::string, bool> failing_reads_;  // normalised paths
};

}  // namespace tfgpu
