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
  FileIndex index(s.libraries, style, &s.loader.dir_links);
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

// TF's own objects of one install, as the probe recorded them (component "tensorflow").
struct TfObjects {
  std::vector<const LibraryFile*> all;  // under tf.location, in snapshot order
  const LibraryFile* pywrap = nullptr;     // python/_pywrap_tensorflow_internal.so
  const LibraryFile* framework = nullptr;  // libtensorflow_framework.so.N
};

TfObjects tf_objects(const Snapshot& snapshot, const TensorflowInstall& tf) {
  TfObjects out;
  std::string loc = normalize_path(tf.location);
  for (const auto& f : snapshot.libraries) {
    if (!starts_with(normalize_path(f.path), loc + "/")) continue;
    if (f.component != "tensorflow" && !starts_with(f.name, "libtensorflow") && f.name != "_pywrap_tensorflow_internal.so")
      continue;
    out.all.push_back(&f);
    if (f.name == "_pywrap_tensorflow_internal.so" && !out.pywrap) out.pywrap = &f;
    // libtensorflow_framework.so.N (its SONAME) rather than the unversioned link to it.
    if (starts_with(f.name, "libtensorflow_framework.so") &&
        (!out.framework || (out.framework->name.find(".so.") == std::string::npos && f.name.find(".so.") != std::string::npos)))
      out.framework = &f;
  }
  return out;
}

// The TF objects `from` needs, breadth first through their DT_NEEDED (ld.so's load
// order), each once; matched by SONAME or file name.
std::vector<const LibraryFile*> needed_tf_objects(const TfObjects& tfo, const LibraryFile& from) {
  auto by_name = [&](const std::string& name) -> const LibraryFile* {
    for (const LibraryFile* f : tfo.all)
      if (f->elf.soname == name) return f;
    for (const LibraryFile* f : tfo.all)
      if (f->name == name) return f;
    return nullptr;
  };
  std::vector<const LibraryFile*> order;
  std::vector<const LibraryFile*> queue = {&from};
  for (size_t i = 0; i < queue.size(); ++i) {
    for (const auto& n : queue[i]->elf.needed) {
      const LibraryFile* dep = by_name(n);
      if (!dep || dep == &from || std::find(order.begin(), order.end(), dep) != order.end()) continue;
      order.push_back(dep);
      queue.push_back(dep);
    }
  }
  return order;
}

// Tri-state: does `f` define TF's DSO loader (nullopt: not looked up).
std::optional<bool> defines_dso_loader(const LibraryFile& f) {
  std::optional<bool> out;
  for (const auto& sym : tensorflow_dso_loader_symbols()) {
    auto it = f.elf.symbols.find(sym);
    if (it == f.elf.symbols.end()) continue;
    if (it->second) return true;
    out = false;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& tensorflow_dso_loader_symbols() {
  // tsl::internal::LoadDynamicLibrary(char const*, void**) (TF >= 2.11, tsl/platform/default/
  // load_library.cc) and tensorflow::internal::LoadDynamicLibrary(char const*, void**)
  // (before TSL). Checked with `nm -D --defined-only` on the 2.4.0 ... 2.21.0 wheels.
  static const std::vector<std::string> kSymbols = {"_ZN3tsl8internal18LoadDynamicLibraryEPKcPPv",
                                                    "_ZN10tensorflow8internal18LoadDynamicLibraryEPKcPPv"};
  return kSymbols;
}

DlopenCaller tensorflow_dlopen_caller(const Snapshot& snapshot, const TensorflowInstall& tf) {
  TfObjects tfo = tf_objects(snapshot, tf);
  // The dlopen() that opens a CUDA library is the one in the LoadDynamicLibrary that TF's
  // GPU code binds to. The calls go through the PLT, so they bind to the first definition
  // in the lookup scope (glibc elf/dl-lookup.c). TF's first extension module,
  // tensorflow/python/platform/_pywrap_cpu_feature_guard.so, lists
  // libtensorflow_framework.so.2 in DT_NEEDED before _pywrap_tensorflow_internal.so (which
  // brings libtensorflow_cc.so.2), so the framework comes first: LD_DEBUG=bindings on real
  // TF 2.16.1 binds libtensorflow_cc.so.2's LoadDynamicLibrary to the framework's, though
  // cc defines one too (docs/loader-model.md).
  if (tfo.framework) {
    auto d = defines_dso_loader(*tfo.framework);
    if (d && *d)
      return {tfo.framework->path, tfo.framework->name +
                                       " defines TF's DSO loader (LoadDynamicLibrary, read from DT_GNU_HASH) and is loaded "
                                       "first, so its own definition binds: its RUNPATH is searched"};
  }
  // Otherwise: the first definer in the order _pywrap_tensorflow_internal.so loads TF's objects.
  bool looked = false;
  if (tfo.pywrap) {
    std::vector<const LibraryFile*> order = {tfo.pywrap};
    for (const LibraryFile* f : needed_tf_objects(tfo, *tfo.pywrap)) order.push_back(f);
    for (const LibraryFile* f : order) {
      auto d = defines_dso_loader(*f);
      looked |= d.has_value();
      if (d && *d)
        return {f->path, f->name + " is the first of TensorFlow's objects in load order (" + tfo.pywrap->name +
                             " and its DT_NEEDED) that defines TF's DSO loader (LoadDynamicLibrary, read from DT_GNU_HASH)"};
    }
  }
  if (tfo.framework && defines_dso_loader(*tfo.framework)) looked = true;
  if (looked) return {"", "none of TensorFlow's objects under " + tf.location + " defines TF's DSO loader"};
  return {"", ""};
}

TfLibraryList tensorflow_libraries(const TensorflowInstall& tf, Platform platform, const std::vector<WantedLibrary>& kb) {
  TfLibraryList out;
  // A build without TensorRT (build_info is_tensorrt_build False, as in PyPI's 2.18 on and
  // builds made without it) never opens it (tf2tensorrt/utils/py_utils.cc IsGoogleTensorRTEnabled).
  auto trt = tf.build_info.find("is_tensorrt_build");
  const bool no_tensorrt = trt != tf.build_info.end() && iequals(trt->second, "false");
  for (auto w : kb) {
    if (w.named_by.empty()) w.named_by = "kb";
    if (no_tensorrt && w.component == "tensorrt") continue;
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
  // Python), then the TF objects among its DT_NEEDED breadth first (libtensorflow_cc,
  // libtensorflow_framework, lib_pywrap_tensorflow_common), loaded by it.
  TfObjects tfo = tf_objects(snapshot, tf);
  int pywrap_index = -1;
  if (tfo.pywrap) {
    p.objects.push_back({tfo.pywrap->path, tfo.pywrap->elf, -1, {tfo.pywrap->path}});
    pywrap_index = static_cast<int>(p.objects.size()) - 1;
    for (const LibraryFile* dep : needed_tf_objects(tfo, *tfo.pywrap)) {
      std::string soname = dep->elf.soname.empty() ? dep->name : dep->elf.soname;
      p.objects.push_back({dep->path, dep->elf, pywrap_index, {soname}});
    }
  } else if (tfo.framework) {
    std::string soname = tfo.framework->elf.soname.empty() ? tfo.framework->name : tfo.framework->elf.soname;
    p.objects.push_back({tfo.framework->path, tfo.framework->elf, -1, {soname}});
  }
  // The caller: the object the probe named (tensorflow_dlopen_caller), else the
  // framework library (where TF's DSO loader has lived since TF 2.x), else the last one.
  std::string caller_path = tf.dlopen_caller;
  if (caller_path.empty()) caller_path = tensorflow_dlopen_caller(snapshot, tf).path;
  if (caller_path.empty() && tfo.framework) {
    caller_path = tfo.framework->path;
    out.notes.push_back("which of TensorFlow's objects runs its DSO loader is not in the snapshot: " +
                        tfo.framework->name + " assumed");
  }
  p.caller = static_cast<int>(p.objects.size()) - 1;
  for (size_t i = 1; i < p.objects.size(); ++i)
    if (!caller_path.empty() && normalize_path(p.objects[i].path) == normalize_path(caller_path)) p.caller = static_cast<int>(i);
  if (!tfo.pywrap && !tfo.framework)
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
