#include "probe/windows_installs.h"

#include <algorithm>

#include <fmt/format.h>

#include "host/machine_facts.h"

#include "binfmt/pe.h"
#include "python/path_util.h"
#include "util/strings.h"

namespace tfgpu::probe {

using python::path_join;

namespace {

std::vector<std::string> subkeys(const Host& host, const std::string& key) {
  auto r = host.registry_subkeys(key);
  return r ? *r : std::vector<std::string>{};
}

std::vector<std::string> subdirs(const Host& host, const std::string& dir) {
  std::vector<std::string> out;
  if (auto entries = host.list_dir(dir))
    for (const auto& e : *entries)
      if (e.type == FileType::kDirectory) out.push_back(e.name);
  std::sort(out.begin(), out.end());
  return out;
}

// "12.4" -> "12"; "" when the name does not start with a number.
std::string leading_major(std::string_view name) {
  size_t n = 0;
  while (n < name.size() && name[n] >= '0' && name[n] <= '9') ++n;
  return std::string(name.substr(0, n));
}

bool holds_cudnn_dll(const Host& host, const std::string& dir) {
  auto entries = host.list_dir(dir);
  if (!entries) return false;
  for (const auto& e : *entries) {
    std::string n = to_lower(e.name);
    if (starts_with(n, "cudnn") && n.size() > 4 && n.substr(n.size() - 4) == ".dll") return true;
  }
  return false;
}

}  // namespace

namespace {
bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}
}  // namespace

std::vector<RegisteredCuda> registered_cuda_installs(const Host& host) {
  std::vector<RegisteredCuda> out;
  for (const auto& sub : subkeys(host, kCudaRegistryKey)) {
    auto dir = host.registry_value(std::string(kCudaRegistryKey) + "\\" + sub, "InstallDir");
    if (!dir || dir->empty()) continue;
    std::string d = *dir;
    while (d.size() > 3 && (d.back() == '\\' || d.back() == '/')) d.pop_back();
    out.push_back({sub, d});
  }
  return out;
}

std::string program_files_dir(const Host& host) {
  for (const char* var : {"ProgramW6432", "ProgramFiles"})
    if (auto v = host.env(var); v && !v->empty()) return *v;
  return "C:\\Program Files";
}

std::vector<CudnnInstallerLayout> cudnn_installer_layouts(const Host& host) {
  std::vector<CudnnInstallerLayout> out;
  std::string base = path_join(program_files_dir(host), "NVIDIA\\CUDNN");
  for (const auto& ver : subdirs(host, base)) {
    std::string root = path_join(base, ver);
    std::string bin = path_join(root, "bin");
    std::string include = path_join(root, "include");
    // A flat bin\ (cuDNN zip copied here by hand) counts as one layout of unknown CUDA.
    if (holds_cudnn_dll(host, bin)) out.push_back({root, "", "", bin, include});
    for (const auto& cuda : subdirs(host, bin)) {
      if (leading_major(cuda).empty()) continue;
      std::string inc = host.is_dir(path_join(include, cuda)) ? path_join(include, cuda) : include;
      for (const std::string& lib : {path_join(bin, cuda), path_join(path_join(bin, cuda), "x64")})
        if (holds_cudnn_dll(host, lib)) out.push_back({root, cuda, leading_major(cuda), lib, inc});
    }
  }
  return out;
}

std::vector<python::Candidate> windows_python_candidates(const Host& host) {
  std::vector<python::Candidate> out;
  auto add = [&](python::Candidate c) {
    for (const auto& o : out)
      if (iequals(o.executable, c.executable)) return;
    out.push_back(std::move(c));
  };
  for (const char* hive : {"HKCU\\Software\\Python", "HKLM\\SOFTWARE\\Python", "HKLM\\SOFTWARE\\WOW6432Node\\Python"}) {
    std::vector<std::string> companies = subkeys(host, hive);
    // PEP 514: PythonCore is python.org's CPython; list it first, then the others.
    std::stable_partition(companies.begin(), companies.end(), [](const std::string& c) { return iequals(c, "PythonCore"); });
    for (const auto& company : companies) {
      if (iequals(company, "PyLauncher")) continue;  // the launcher's own settings, not an interpreter
      std::string ckey = std::string(hive) + "\\" + company;
      for (const auto& tag : subkeys(host, ckey)) {
        std::string ikey = ckey + "\\" + tag + "\\InstallPath";
        std::string exe;
        if (auto v = host.registry_value(ikey, "ExecutablePath"); v && !v->empty()) exe = *v;
        else if (auto dir = host.registry_value(ikey, ""); dir && !dir->empty()) exe = path_join(*dir, "python.exe");
        if (exe.empty()) continue;
        add({exe, "registry", company + "\\" + tag, "PEP 514 " + ckey + "\\" + tag});
      }
    }
  }
  if (auto local = host.env("LOCALAPPDATA"); local && !local->empty()) {
    std::string apps = path_join(*local, "Microsoft\\WindowsApps");
    for (const auto& d : subdirs(host, apps)) {
      if (!starts_with(to_lower(d), "pythonsoftwarefoundation.python.3")) continue;
      std::string exe = path_join(path_join(apps, d), "python.exe");
      if (host.exists(exe)) add({exe, "store", d, "Microsoft Store"});
    }
  }
  return out;
}

int pe_bits(const Host& host, const std::string& exe) {
  // The PE headers by ranges (the first few KiB and the directories they point at).
  auto file = host.open_ranges(exe);
  if (!file) return 0;
  RangeReader& r = **file;
  auto info = binfmt::parse_pe_ranges(
      r.size(), [&r](uint64_t offset, uint64_t length) { return r.read(offset, length); }, exe);
  return info ? info->bits : 0;
}

void probe_windows_loader(const Host& host, Snapshot& s) {
  LoaderInfo& l = s.loader;
  std::string root = host.env("SystemRoot").value_or(host.env("windir").value_or("C:\\Windows"));
  l.windows_dir = root;
  l.system_dir = path_join(root, "System32");
  auto safe = host.registry_value("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager", "SafeDllSearchMode");
  l.safe_dll_search_mode = !(safe && *safe == "0");
  // KnownDLLs: one value per DLL (name "kernel32", data "kernel32.dll"), plus
  // DllDirectory / DllDirectory32 saying where they live, which are not DLLs.
  auto known = host.registry_values(kKnownDllsKey);
  if (!known) {
    s.notes.push_back(fmt::format("KnownDLLs not read: {}", known.error().message));
    return;
  }
  for (const auto& v : *known) {
    if (istarts_with(v.name, "DllDirectory")) continue;
    std::string dll(trim(v.data));
    if (dll.empty() || dll.find_first_of("\\/") != std::string::npos) continue;
    if (std::none_of(l.known_dlls.begin(), l.known_dlls.end(), [&](const std::string& k) { return iequals(k, dll); }))
      l.known_dlls.push_back(dll);
  }
  std::sort(l.known_dlls.begin(), l.known_dlls.end(), [](const std::string& a, const std::string& b) { return to_lower(a) < to_lower(b); });
}

}  // namespace tfgpu::probe
