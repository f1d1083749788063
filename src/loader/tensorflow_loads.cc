// What TensorFlow loads and from where. The names come from the caller (the KB's rows
// for the TF version and platform) and from TF's own build_info; the process is built
// from the snapshot: the Python interpreter, TF's shared objects and their RPATH /
// RUNPATH entries (which point at site-packages/nvidia/<component>/lib in pip wheels:
// tsl/platform/default/cuda_build_defs.bzl, cuda_rpath_flags), the environment.

#include "loader/tensorflow_loads.h"

#include <algorithm>
#include <optional>

#include "loader/file_index.h"
#include "util/strings.h"

namespace tfgpu::loader {

namespace {

std::string strip_dll(std::string_view file) {
  std::string s(file);
  if (ends_with(to_lower(s), ".dll")) s.resize(s.size() - 4);
  return s;
}

const LibraryFile* find_by_path(const Snapshot& s, const std::string& path, PathStyle style) {
  FileIndex index(s.libraries, style);
  const LibraryFile* f = index.at(path);
  return f;
}

std::optional<std::string> env_value(const Snapshot& s, std::string_view name) {
  for (const auto& [k, v] : s.env)
    if (iequals(k, name)) return v;
  return std::nullopt;
}

bool is_windows_snapshot(const Snapshot& s, const PythonEnv& py, const TensorflowInstall& tf) {
  if (!s.host.os.empty()) return s.host.os == "windows";
  auto looks_windows = [](const std::string& p) {
    return p.find('\\') != std::string::npos || (p.size() > 1 && p[1] == ':');
  };
  return looks_windows(tf.location) || looks_windows(py.executable);
}

}  // namespace

TfLibraryList tensorflow_libraries(const TensorflowInstall& tf, Platform platform, const std::vector<WantedLibrary>& kb) {
  TfLibraryList out;
  for (auto w : kb) {
    if (w.named_by.empty()) w.named_by = "kb";
    out.libraries.push_back(std::move(w));
  }
  auto it = tf.build_info.find("is_cuda_build");
  if (it != tf.build_info.end() && iequals(it->second, "false"))
    out.notes.push_back("build_info says is_cuda_build False: this TensorFlow is a CPU-only build and opens no CUDA library");
  if (kb.empty()) out.notes.push_back("the knowledge base names no libraries for this TensorFlow version and platform");
  if (platform != Platform::kWindows) return out;
  // Windows builds name DLLs in build_info: cudart_dll_name, cudnn_dll_name,
  // nvcuda_dll_name and msvcp_dll_names (tensorflow.bzl, tf_py_build_info_genrule).
  std::vector<std::pair<std::string, std::string>> named;  // component, file
  for (const auto& [key, value] : tf.build_info) {
    if (key == "msvcp_dll_names") {
      for (const auto& f : split_nonempty(value, ','))
        named.push_back({to_lower(strip_dll(trim(f))), std::string(trim(f))});
    } else if (ends_with(key, "_dll_name") && !value.empty()) {
      std::string component = key.substr(0, key.size() - std::string_view("_dll_name").size());
      if (component == "nvcuda") component = "driver";
      named.push_back({component, value});
    }
  }
  for (const auto& [component, file] : named) {
    auto same_file = std::find_if(out.libraries.begin(), out.libraries.end(),
                                  [&](const WantedLibrary& w) { return iequals(w.file, file); });
    if (same_file != out.libraries.end()) continue;
    auto same_component = std::find_if(out.libraries.begin(), out.libraries.end(), [&](const WantedLibrary& w) {
      return w.named_by == "kb" && iequals(w.component, component);
    });
    if (same_component != out.libraries.end()) {
      out.notes.push_back("build_info names " + file + " for " + component + ", but TensorFlow opens " +
                          same_component->file + " (knowledge base); " + file + " is not looked for");
      continue;
    }
    out.libraries.push_back({component, file, false, "build_info"});
  }
  return out;
}

Result<TfProcess> tensorflow_process(const Snapshot& snapshot, const PythonEnv& python, const TensorflowInstall& tf) {
  if (tf.location.empty()) return fail(Error::input("TensorFlow install " + tf.package + " " + tf.version + " has no location"));
  TfProcess out;
  if (is_windows_snapshot(snapshot, python, tf)) {
    out.platform = Platform::kWindows;
    WindowsProcess& p = out.windows_process;
    p.app_dir = dir_name(python.executable, PathStyle::kWindows);
    if (p.app_dir.empty()) out.notes.push_back("the Python executable is unknown: the application directory is not searched");
    p.bits = python.bits == 32 ? 32 : 64;
    p.machine = p.bits == 32 ? "x86" : "x64";
    if (python.bits == 0) out.notes.push_back("Python's bitness is unknown: 64-bit assumed");
    p.path_env = env_value(snapshot, "PATH").value_or("");
    if (!env_value(snapshot, "PATH")) out.notes.push_back("PATH is not in the snapshot");
    if (!python.executable.empty()) p.loaded.push_back({python.executable, {}});
    out.notes.push_back(
        "directories added by the program itself (os.add_dll_directory, SetDllDirectory) and its current directory are "
        "not known");
    return out;
  }
  out.platform = Platform::kLinux;
  LinuxProcess& p = out.linux_process;
  LinuxObject main_obj;
  main_obj.path = python.executable;
  if (const LibraryFile* f = find_by_path(snapshot, python.executable, PathStyle::kPosix)) {
    main_obj.elf = f->elf;
  } else {
    out.notes.push_back("the Python executable's ELF facts are not in the snapshot: its DT_RPATH (if any) is not used");
  }
  if (main_obj.elf.bits == 0) main_obj.elf.bits = python.bits == 32 ? 32 : 64;
  p.objects.push_back(std::move(main_obj));
  // TF's own objects: python/_pywrap_tensorflow_internal.so (imported, i.e. dlopened, by
  // Python) and libtensorflow_framework.so.N (its DT_NEEDED), where TF's DSO loader runs.
  const LibraryFile* pywrap = nullptr;
  const LibraryFile* framework = nullptr;
  std::string loc = normalize_path(tf.location);
  for (const auto& f : snapshot.libraries) {
    if (!starts_with(normalize_path(f.path), loc + "/")) continue;
    if (f.name == "_pywrap_tensorflow_internal.so" && !pywrap) pywrap = &f;
    // libtensorflow_framework.so.N (its SONAME) rather than the unversioned link to it.
    if (starts_with(f.name, "libtensorflow_framework.so") &&
        (!framework || (framework->name.find(".so.") == std::string::npos && f.name.find(".so.") != std::string::npos)))
      framework = &f;
  }
  int pywrap_index = -1;
  if (pywrap) {
    p.objects.push_back({pywrap->path, pywrap->elf, -1, {pywrap->path}});
    pywrap_index = static_cast<int>(p.objects.size()) - 1;
  }
  if (framework) {
    std::string soname = framework->elf.soname.empty() ? framework->name : framework->elf.soname;
    p.objects.push_back({framework->path, framework->elf, pywrap_index, {soname}});
  }
  p.caller = static_cast<int>(p.objects.size()) - 1;
  if (!pywrap && !framework)
    out.notes.push_back("TensorFlow's shared objects under " + tf.location +
                        " are not in the snapshot: its RPATH/RUNPATH entries (site-packages/nvidia/*/lib) are unknown");
  if (auto llp = env_value(snapshot, "LD_LIBRARY_PATH")) p.ld_library_path = *llp;
  p.cwd = env_value(snapshot, "PWD").value_or("");
  // The directories TF's own entries add, expanded, in the order the caller's search uses.
  const LinuxObject& caller = p.objects[p.caller];
  auto add_dirs = [&](const LinuxObject& o, const std::vector<std::string>& entries) {
    std::string origin = dir_name(o.path, PathStyle::kPosix);
    for (const auto& e : entries)
      for (const auto& part : split(e, ':'))
        if (auto d = expand_dst(part, origin, "lib", snapshot.host.arch.empty() ? "x86_64" : snapshot.host.arch)) {
          std::string n = normalize_path(*d);
          if (std::find(out.rpath_dirs.begin(), out.rpath_dirs.end(), n) == out.rpath_dirs.end())
            out.rpath_dirs.push_back(n);
        }
  };
  if (!caller.elf.runpath.empty()) {
    add_dirs(caller, caller.elf.runpath);
  } else {
    for (int l = p.caller; l >= 0; l = p.objects[l].loaded_by)
      if (p.objects[l].elf.runpath.empty()) add_dirs(p.objects[l], p.objects[l].elf.rpath);
  }
  return out;
}

TfLoadReport simulate_tensorflow_loads(const Snapshot& snapshot, const TfProcess& process,
                                       const std::vector<WantedLibrary>& libraries,
                                       const std::function<bool(std::string_view)>& probed_name) {
  TfLoadReport report;
  report.notes = process.notes;
  bool all = true;
  auto record = [&](const WantedLibrary& w, LoadResult r) {
    if (w.must_load && r.outcome != Outcome::kFound) all = false;
    report.loads.push_back({w, std::move(r)});
  };
  if (process.platform == Platform::kWindows) {
    auto loader = WindowsLoader::create(snapshot, process.windows_process, {probed_name});
    if (!loader) {
      report.notes.push_back(loader.error().message);
      return report;
    }
    // TF's DSO loader (tsl load_library.cc, Windows): LoadLibraryExW(name, NULL,
    // LOAD_WITH_ALTERED_SEARCH_PATH) with a bare name, i.e. the standard search order.
    for (const auto& w : libraries) record(w, loader->load_library(w.file, SearchFlags::kAlteredSearchPath));
  } else {
    auto ld = LdSo::create(snapshot, process.linux_process, {probed_name});
    if (!ld) {
      report.notes.push_back(ld.error().message);
      return report;
    }
    // tsl load_library.cc: dlopen(name, RTLD_NOW | RTLD_LOCAL), one library after another.
    for (const auto& w : libraries) record(w, ld->dlopen(w.file));
  }
  report.all_must_load_found = all && !libraries.empty();
  return report;
}

}  // namespace tfgpu::loader
