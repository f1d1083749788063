#include "host/host.h"

#include <fmt/format.h>

namespace tfgpu {

const char* platform_name(Platform p) {
  switch (p) {
    case Platform::kLinux:
      return "linux";
    case Platform::kWindows:
      return "windows";
    case Platform::kMacos:
      return "macos";
  }
  return "unknown";
}

std::string ProcessResult::describe() const {
  if (timed_out) return "timed out: killed after the timeout with its whole process tree (it hung)";
  if (signal != 0) {
    // Windows reports a crash as an NTSTATUS exception code (0xC0000005 = access violation).
    if (static_cast<unsigned>(signal) > 255u) return fmt::format("crashed: exception 0x{:08X}", static_cast<unsigned>(signal));
    return fmt::format("crashed: signal {}", signal);
  }
  if (exited) return fmt::format("exited with {}", exit_code);
  return "ended abnormally";
}

namespace {

// open_ranges without an open file: each read is one read_file_range.
class PathRangeReader final : public RangeReader {
 public:
  PathRangeReader(const Host& host, std::string path, uint64_t size) : host_(host), path_(std::move(path)), size_(size) {}
  uint64_t size() const override { return size_; }
  Result<std::string> read(uint64_t offset, uint64_t length) override { return host_.read_file_range(path_, offset, length); }

 private:
  const Host& host_;
  std::string path_;
  uint64_t size_;
};

}  // namespace

Result<std::unique_ptr<RangeReader>> Host::open_ranges(const std::string& path) const {
  auto st = stat(path);
  if (!st) return fail(Error::io(fmt::format("cannot open {}: No such file or directory", path)));
  if (st->type != FileType::kRegular) return fail(Error::io(fmt::format("cannot read {}: not a regular file", path)));
  return std::unique_ptr<RangeReader>(std::make_unique<PathRangeReader>(*this, path, st->size));
}

Result<void> Host::write_file_atomic(const std::string& path, std::string_view) const {
  return fail(Error::io(fmt::format("cannot write {}: this host cannot write files", path)));
}

Result<std::string> Host::registry_value(const std::string& key, const std::string&) const {
  return fail(Error::not_found(fmt::format("no registry on this platform ({})", key)));
}

Result<std::vector<std::string>> Host::registry_subkeys(const std::string& key) const {
  return fail(Error::not_found(fmt::format("no registry on this platform ({})", key)));
}

Result<std::vector<RegistryValue>> Host::registry_values(const std::string& key) const {
  return fail(Error::not_found(fmt::format("no registry values through this host ({})", key)));
}

Result<std::vector<PciDevice>> Host::pci_devices() const {
  return fail(Error::not_found("the PCI device list is not available through this host"));
}

Result<CpuFeatures> Host::cpu_features() const {
  return fail(Error::not_found("CPUID is not available through this host"));
}

bool Host::is_dir(const std::string& path) const {
  auto info = stat(path);
  return info && info->type == FileType::kDirectory;
}

bool Host::is_file(const std::string& path) const {
  auto info = stat(path);
  return info && info->type == FileType::kRegular;
}

std::string absolute_library_path_elements(std::string_view list) {
  std::string out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view element = list.substr(start, end - start);
    if (!element.empty() && element.front() == '/') {
      if (!out.empty()) out += ':';
      out += element;
    }
    start = end + 1;
  }
  return out;
}

void keep_child_loader_off_current_dir(const Host& host, ProcessSpec& spec) {
  if (host.platform() == Platform::kWindows) return;
  std::optional<std::string> value;
  if (auto it = spec.env_overrides.find("LD_LIBRARY_PATH"); it != spec.env_overrides.end())
    value = it->second;
  else
    value = host.env("LD_LIBRARY_PATH");
  if (!value) return;
  std::string kept = absolute_library_path_elements(*value);
  // An empty override value unsets the variable (ProcessSpec::env_overrides).
  if (kept != *value || kept.empty()) spec.env_overrides["LD_LIBRARY_PATH"] = kept;
}

}  // namespace tfgpu
