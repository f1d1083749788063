#include "host/fake_host.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu {

FakeHost::FakeHost(Platform platform) : platform_(platform) {
  if (platform == Platform::kWindows) {
    os_release_ = {"Windows", "10.0.19045", "x86_64"};
    cwd_ = "C:/Users/user";
    self_exe_ = "C:/tools/tfgpu.exe";
  } else {
    os_release_ = {"Linux", "6.1.0-test-amd64", "x86_64"};
  }
  nodes_[key("/")] = Node{FileType::kDirectory, "", 0755, "/"};
}

std::string FakeHost::key(const std::string& path) const {
  std::string p = path;
  for (auto& c : p) {
    if (c == '\\') c = '/';
  }
  // Collapse duplicate separators and "." components; ".." pops a component.
  std::vector<std::string> parts;
  bool absolute = !p.empty() && p[0] == '/';
  for (auto& piece : split(p, '/')) {
    if (piece.empty() || piece == ".") continue;
    if (piece == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(piece);
  }
  std::string out = (absolute ? "/" : "") + join(parts, "/");
  if (out.empty()) out = "/";
  if (platform_ == Platform::kWindows) out = to_lower(out);
  return out;
}

void FakeHost::ensure_parents(const std::string& path) {
  std::string k = key(path);
  size_t pos = k.rfind('/');
  while (pos != std::string::npos && pos > 0) {
    std::string parent = k.substr(0, pos);
    if (!nodes_.contains(parent)) nodes_[parent] = Node{FileType::kDirectory, "", 0755, parent};
    pos = parent.rfind('/');
  }
}

FakeHost& FakeHost::add_file(const std::string& path, std::string contents, uint32_t mode) {
  ensure_parents(path);
  nodes_[key(path)] = Node{FileType::kRegular, std::move(contents), mode, path};
  return *this;
}

FakeHost& FakeHost::add_dir(const std::string& path, uint32_t mode) {
  ensure_parents(path);
  nodes_[key(path)] = Node{FileType::kDirectory, "", mode, path};
  return *this;
}

FakeHost& FakeHost::add_symlink(const std::string& path, const std::string& target) {
  ensure_parents(path);
  nodes_[key(path)] = Node{FileType::kSymlink, target, 0777, path};
  return *this;
}

FakeHost& FakeHost::set_env(const std::string& name, const std::string& value) {
  env_[name] = value;
  return *this;
}

FakeHost& FakeHost::set_os_release(OsRelease r) {
  os_release_ = std::move(r);
  return *this;
}

FakeHost& FakeHost::set_current_dir(std::string dir) {
  cwd_ = std::move(dir);
  return *this;
}

FakeHost& FakeHost::set_registry_value(const std::string& k, const std::string& value, std::string data) {
  registry_[to_lower(k) + '\0' + to_lower(value)] = std::move(data);
  registry_names_[to_lower(k) + '\0' + to_lower(value)] = value;
  return *this;
}

FakeHost& FakeHost::set_pci_devices(Result<std::vector<PciDevice>> devices) {
  pci_devices_ = std::move(devices);
  return *this;
}

FakeHost& FakeHost::set_cpu_features(Result<CpuFeatures> cpu) {
  cpu_features_ = std::move(cpu);
  return *this;
}

FakeHost& FakeHost::set_process_handler(ProcessHandler handler) {
  process_handler_ = std::move(handler);
  return *this;
}

std::optional<std::string> FakeHost::env(const std::string& name) const {
  if (platform_ == Platform::kWindows) {
    for (const auto& [k, v] : env_) {
      if (iequals(k, name)) return v;
    }
    return std::nullopt;
  }
  auto it = env_.find(name);
  if (it == env_.end()) return std::nullopt;
  return it->second;
}

std::string FakeHost::resolve(const std::string& path, int depth) const {
  // Resolve symlinks component by component, like the kernel does.
  std::string k = key(path);
  if (depth > 40) return k;
  std::vector<std::string> parts = split_nonempty(k, '/');
  std::string cur = k.starts_with("/") ? "" : ".";
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string next = cur + "/" + parts[i];
    auto it = nodes_.find(key(next));
    if (it != nodes_.end() && it->second.type == FileType::kSymlink) {
      const std::string& target = it->second.contents;
      std::string base = (target.starts_with("/") || (target.size() > 1 && target[1] == ':')) ? target : cur + "/" + target;
      std::string rest;
      for (size_t j = i + 1; j < parts.size(); ++j) rest += "/" + parts[j];
      return resolve(base + rest, depth + 1);
    }
    cur = next;
  }
  return key(cur.empty() ? "/" : cur);
}

Result<std::string> FakeHost::read_file(const std::string& path, uint64_t max_bytes) const {
  auto it = nodes_.find(resolve(path, 0));
  if (it == nodes_.end()) return fail(Error::io(fmt::format("cannot open {}: No such file or directory", path)));
  if (it->second.type != FileType::kRegular) return fail(Error::io(fmt::format("cannot read {}: Is a directory", path)));
  if (it->second.contents.size() > max_bytes) return fail(Error::io(fmt::format("{} is larger than {} bytes", path, max_bytes)));
  if (failing_reads_.count(it->first)) return fail(Error::io(fmt::format("cannot read {}: Input/output error", path)));
  bytes_read_ += it->second.contents.size();
  return it->second.contents;
}

Result<std::string> FakeHost::read_file_range(const std::string& path, uint64_t offset, uint64_t length) const {
  auto it = nodes_.find(resolve(path, 0));
  if (it == nodes_.end()) return fail(Error::io(fmt::format("cannot open {}: No such file or directory", path)));
  if (it->second.type != FileType::kRegular) return fail(Error::io(fmt::format("cannot read {}: Is a directory", path)));
  if (failing_reads_.count(it->first)) return fail(Error::io(fmt::format("cannot read {}: Input/output error", path)));
  const std::string& c = it->second.contents;
  if (offset >= c.size()) return std::string();
  std::string out = c.substr(static_cast<size_t>(offset), static_cast<size_t>(std::min<uint64_t>(length, c.size() - offset)));
  bytes_read_ += out.size();
  return out;
}

Result<void> FakeHost::write_file_atomic(const std::string& path, std::string_view contents) const {
  size_t slash = path.find_last_of(platform_ == Platform::kWindows ? "/\\" : "/");
  std::string parent = slash == std::string::npos ? cwd_ : slash == 0 ? path.substr(0, 1) : path.substr(0, slash);
  auto st = stat(parent);
  if (!st || st->type != FileType::kDirectory)
    return fail(Error::io(fmt::format("cannot write {}: No such file or directory", path)));
  if (auto t = stat(path); t && t->type == FileType::kDirectory)
    return fail(Error::io(fmt::format("cannot write {}: Is a directory", path)));
  // The Host seam is const (a machine is read, not changed); the fake is the one place
  // writes land, and every FakeHost a test builds is a non-const object.
  const_cast<FakeHost*>(this)->add_file(path, std::string(contents));
  return {};
}

FakeHost& FakeHost::fail_reads(const std::string& path) {
  failing_reads_[key(path)] = true;
  return *this;
}

FakeHost& FakeHost::set_list_dir_error(const std::string& path, Error error) {
  list_dir_errors_.insert_or_assign(key(path), std::move(error));
  return *this;
}

Result<std::vector<DirEntry>> FakeHost::list_dir(const std::string& path) const {
  std::string dir = resolve(path, 0);
  if (auto e = list_dir_errors_.find(dir); e != list_dir_errors_.end()) return fail(e->second);
  auto it = nodes_.find(dir);
  if (it == nodes_.end() || it->second.type != FileType::kDirectory) {
    return fail(Error::io(fmt::format("cannot list {}: No such directory", path)));
  }
  std::string prefix = dir == "/" ? "/" : dir + "/";
  std::vector<DirEntry> out;
  for (auto n = nodes_.lower_bound(prefix); n != nodes_.end() && n->first.starts_with(prefix); ++n) {
    std::string rest = n->first.substr(prefix.size());
    if (rest.empty() || rest.find('/') != std::string::npos) continue;
    std::string name = n->second.display_path;
    for (auto& c : name) {
      if (c == '\\') c = '/';
    }
    name = name.substr(name.rfind('/') + 1);
    out.push_back({name, n->second.type});
  }
  return out;
}

std::optional<FileInfo> FakeHost::stat(const std::string& path) const {
  auto it = nodes_.find(resolve(path, 0));
  if (it == nodes_.end() || it->second.type == FileType::kSymlink) return std::nullopt;
  return FileInfo{it->second.type, it->second.contents.size(), it->second.mode, 0, ""};
}

std::optional<FileInfo> FakeHost::lstat(const std::string& path) const {
  std::string k = key(path);
  size_t slash = k.rfind('/');
  std::string parent = slash == 0 ? "/" : k.substr(0, slash);
  std::string real = slash == std::string::npos ? k : resolve(parent, 0) + k.substr(slash);
  auto it = nodes_.find(key(real));
  if (it == nodes_.end()) return std::nullopt;
  FileInfo info{it->second.type, it->second.contents.size(), it->second.mode, 0, ""};
  if (it->second.type == FileType::kSymlink) info.link_target = it->second.contents;
  return info;
}

Result<std::string> FakeHost::canonical(const std::string& path) const {
  std::string r = resolve(path, 0);
  auto it = nodes_.find(r);
  if (it == nodes_.end()) return fail(Error::io(fmt::format("cannot resolve {}: No such file or directory", path)));
  return it->second.display_path.empty() ? r : key(it->second.display_path) == r ? it->second.display_path : r;
}

Result<ProcessResult> FakeHost::run(const ProcessSpec& spec) const {
  ++processes_run_;
  if (!process_handler_) return fail(Error::io(fmt::format("cannot run {}: no such program", spec.argv.empty() ? "" : spec.argv[0])));
  return process_handler_(spec);
}

Result<std::string> FakeHost::registry_value(const std::string& k, const std::string& value) const {
  auto it = registry_.find(to_lower(k) + '\0' + to_lower(value));
  if (it == registry_.end()) return fail(Error::not_found(fmt::format("registry value {}\\{} not found", k, value)));
  return it->second;
}

Result<std::vector<std::string>> FakeHost::registry_subkeys(const std::string& k) const {
  std::string prefix = to_lower(k) + "\\";
  std::vector<std::string> out;
  for (const auto& [full, data] : registry_) {
    std::string key_part = full.substr(0, full.find('\0'));
    if (!key_part.starts_with(prefix)) continue;
    std::string rest = key_part.substr(prefix.size());
    std::string child = rest.substr(0, rest.find('\\'));
    if (!child.empty() && std::find(out.begin(), out.end(), child) == out.end()) out.push_back(child);
  }
  if (out.empty()) return fail(Error::not_found(fmt::format("registry key {} not found", k)));
  return out;
}

Result<std::vector<RegistryValue>> FakeHost::registry_values(const std::string& k) const {
  std::string prefix = to_lower(k) + '\0';
  std::vector<RegistryValue> out;
  bool key_exists = false;
  for (const auto& [full, data] : registry_) {
    std::string key_part = full.substr(0, full.find('\0'));
    if (key_part.starts_with(to_lower(k) + "\\")) key_exists = true;  // a subkey: the key exists
    if (!full.starts_with(prefix)) continue;
    key_exists = true;
    out.push_back({registry_names_.at(full), data});
  }
  if (!key_exists) return fail(Error::not_found(fmt::format("registry key {} not found", k)));
  return out;
}

Result<std::vector<PciDevice>> FakeHost::pci_devices() const {
  if (pci_devices_) return *pci_devices_;
  return fail(Error::not_found("the PCI device list is not scripted in this FakeHost"));
}

Result<CpuFeatures> FakeHost::cpu_features() const {
  if (cpu_features_) return *cpu_features_;
  return fail(Error::not_found("CPUID is not scripted in this FakeHost"));
}

}  // namespace tfgpu
