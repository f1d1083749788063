// Runtime layer: every CUDA install and every relevant library file. Looks in toolkit
// roots (/usr/local/cuda*, CUDA_HOME, CUDA_PATH*), LD_LIBRARY_PATH, the ld.so.conf /
// ld.so.cache dirs, WSL's /usr/lib/wsl/lib, conda environments and pip `nvidia-*` wheels
// in every site-packages (per-component `nvidia/<c>/lib` for cu11/cu12, the shared
// `nvidia/cu13/lib` for cu13, nvidia.md §2d). Versions come from version.json /
// version.txt, dist-info, cudnn_version.h / cudnn.h and file names, each with its source.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "binfmt/binary_file.h"
#include "binfmt/cuda_version.h"
#include "binfmt/elf.h"
#include "binfmt/pe.h"
#include "binfmt/python_metadata.h"
#include "loader/tensorflow_loads.h"
#include "probe/probe.h"
#include "probe/probe_child.h"
#include "probe/runtime_names.h"
#include "probe/windows_installs.h"
#include "python/path_util.h"
#include "util/path_walk.h"
#include "util/strings.h"
#include "util/version.h"

namespace tfgpu::probe {

using python::path_basename;
using python::path_dirname;
using python::path_join;

namespace {

struct Versioned {
  std::string version;
  std::string source;
};

class RuntimeScan {
 public:
  RuntimeScan(const Host& host, const ProbeOptions& options, Snapshot& s) : host_(host), options_(options), s_(s) {}

  void run() {
    scan_toolkits();
    if (host_.platform() == Platform::kWindows) scan_windows_cudnn();
    scan_pip();
    scan_tensorflow();
    scan_conda();
    scan_path_dirs();
    record_dir_links();
    finish_state();
  }

 private:
  // --- library files ------------------------------------------------------------

  // Scans one dir once (by canonical path); returns the files added.
  std::vector<size_t> scan_dir(const std::string& dir, const std::string& origin,
                               const std::map<std::string, Versioned>& component_versions = {}) {
    std::vector<size_t> added;
    looked_dirs_.push_back(dir);
    std::string canon = host_.canonical(dir).value_or(dir);
    if (!scanned_.insert(canon).second) return added;
    auto entries = host_.list_dir(dir);
    if (!entries) return added;
    // Only the vendor libraries, in name order (a system library folder lists thousands of
    // files; sorting only the few that match keeps this linear in the listing).
    std::vector<std::pair<DirEntry, std::string>> sorted;
    for (auto& e : *entries) {
      if (e.type == FileType::kDirectory) continue;
      std::string comp = library_component(e.name);
      if (!comp.empty()) sorted.emplace_back(std::move(e), std::move(comp));
    }
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first.name < b.first.name; });
    for (auto& [e, comp] : sorted) {
      LibraryFile f;
      f.path = path_join(dir, e.name);
      f.name = e.name;
      f.component = comp;
      f.origin = origin;
      if (e.type == FileType::kSymlink) {
        if (auto l = host_.lstat(f.path)) f.symlink_target = l->link_target;
      }
      f.version = version_from_file_name(e.name);
      if (!f.version.empty()) f.version_source = "file name";
      if (f.version.empty() && !f.symlink_target.empty()) {
        f.version = version_from_file_name(path_basename(f.symlink_target));
        if (!f.version.empty()) f.version_source = "symlink target name";
      }
      std::string comp_key = starts_with(comp, "cudnn") ? "cudnn" : comp;
      if (f.version.empty()) {
        if (auto it = component_versions.find(comp_key); it != component_versions.end()) {
          f.version = it->second.version;
          f.version_source = it->second.source;
        }
      }
      // Through a symlink too: its record then stands for its target wherever the
      // target itself is not recorded (a link into a directory not scanned).
      read_headers(f);
      added.push_back(s_.libraries.size());
      s_.libraries.push_back(std::move(f));
    }
    return added;
  }

  // ELF / PE headers by ranged reads (a few KiB from a file of any size). A file open()
  // refuses is "unreadable" (the loader's own open fails the same way and it looks on);
  // one whose read failed midway is "unknown"; never "invalid" without a real parse.
  void read_headers(LibraryFile& f, const std::vector<std::string>& symbols = {}) {
    auto file = host_.open_ranges(f.path);
    if (!file) {
      f.format = "unknown";
      f.error = file.error().message;
      f.headers = "unreadable";
      return;
    }
    RangeReader& r = **file;
    binfmt::describe_binary_ranges(
        r.size(), [&r](uint64_t offset, uint64_t length) { return r.read(offset, length); }, f, f.path, symbols);
  }

  bool has_component(const std::vector<size_t>& idx, std::string_view prefix) const {
    for (size_t i : idx)
      if (starts_with(s_.libraries[i].component, prefix)) return true;
    return false;
  }

  // --- toolkits -----------------------------------------------------------------

  std::vector<std::string> toolkit_roots() {
    std::vector<std::string> roots;
    const bool win = host_.platform() == Platform::kWindows;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
      if (auto v = host_.env(var); v && !v->empty()) roots.push_back(*v);
    for (const auto& [k, v] : host_.environment())
      if (starts_with(k, "CUDA_PATH_V") && !v.empty()) roots.push_back(v);
    if (!win) {
      roots.push_back("/usr/local/cuda");
      if (auto entries = host_.list_dir("/usr/local")) {
        std::vector<std::string> names;
        for (const auto& e : *entries)
          if (starts_with(e.name, "cuda-")) names.push_back(e.name);
        std::sort(names.begin(), names.end());
        for (const auto& n : names) roots.push_back("/usr/local/" + n);
      }
      roots.push_back("/opt/cuda");
    } else {
      for (const auto& reg : registered_cuda_installs(host_)) {  // windows_installs.h
        s_.notes.push_back(fmt::format("registry: CUDA {} InstallDir {}", reg.key_version, reg.install_dir));
        roots.push_back(reg.install_dir);
      }
      std::string base = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA";
      if (auto entries = host_.list_dir(base))
        for (const auto& e : *entries)
          if (e.type == FileType::kDirectory) roots.push_back(base + "\\" + e.name);
    }
    return roots;
  }

  // version.json (CUDA >= 11.1), version.txt (<= 11.0), dist-info of pip-assembled
  // toolkits (nvidia_cuda_runtime-13.0.96.dist-info), then the cudart file name.
  void toolkit_versions(const std::string& root, CudaInstall& ci, std::map<std::string, Versioned>& comps,
                        Versioned& cudnn) {
    std::string vj = path_join(root, "version.json");
    if (auto text = host_.read_file(vj, 4u << 20)) {
      if (auto parsed = binfmt::parse_cuda_version_json(*text, vj)) {
        ci.version = parsed->version;
        ci.version_source = vj;
        for (const auto& [name, ver] : parsed->components)
          for (const auto& c : components_of_package(name)) comps[c] = {ver, vj};
        // version.json's cuda.version may be date-stamped (12.6.20241114); cudart's is exact.
        if (auto it = parsed->components.find("cuda_cudart"); it != parsed->components.end()) {
          auto top = Version::parse(ci.version);
          auto rt = Version::parse(it->second);
          if (top && rt && top->truncated(2) == rt->truncated(2) && top->patch() > 10000) ci.version = it->second;
        }
      } else {
        s_.notes.push_back(parsed.error().message);
      }
    }
    std::string vt = path_join(root, "version.txt");
    if (ci.version.empty()) {
      if (auto text = host_.read_file(vt, 1u << 20)) {
        if (auto v = binfmt::parse_cuda_version_txt(*text, vt)) {
          ci.version = *v;
          ci.version_source = vt;
        }
      }
    }
    std::string di = path_join(root, "dist-info");
    if (auto entries = host_.list_dir(di)) {
      for (const auto& e : *entries) {
        if (!ends_with(e.name, ".dist-info")) continue;
        std::string meta = path_join(path_join(di, e.name), "METADATA");
        std::string name, version, source;
        if (auto text = host_.read_file(meta, 4u << 20)) {
          if (auto md = binfmt::parse_dist_metadata(*text, meta)) {
            name = md->normalized_name;
            version = md->version;
            source = meta;
          }
        }
        if (name.empty()) continue;
        for (const auto& c : components_of_package(name)) {
          if (!comps.count(c)) comps[c] = {version, source};
        }
        if (components_of_package(name) == std::vector<std::string>{"cudnn"} && cudnn.version.empty()) {
          cudnn = {version, source};
        }
      }
      if (ci.version.empty() && comps.count("cudart")) {
        ci.version = comps["cudart"].version;
        ci.version_source = comps["cudart"].source;
      }
    }
  }

  Versioned cudnn_header_version(const std::vector<std::string>& include_dirs) {
    for (const auto& inc : include_dirs) {
      for (const char* h : {"cudnn_version.h", "cudnn.h"}) {
        std::string p = path_join(inc, h);
        auto text = host_.read_file(p, 4u << 20);
        if (!text) continue;
        if (auto v = binfmt::parse_cudnn_version_header(*text, p)) return {*v, p};
      }
    }
    return {};
  }

  void scan_toolkits() {
    std::set<std::string> seen;
    for (const auto& root : toolkit_roots()) {
      if (!host_.is_dir(root)) continue;
      looked_dirs_.push_back(root);  // as named (/usr/local/cuda): its links are recorded
      std::string canon = host_.canonical(root).value_or(root);
      if (!seen.insert(canon).second) continue;
      if (canon != root) s_.notes.push_back(fmt::format("{} -> {}", root, canon));
      CudaInstall ci;
      ci.root = canon;
      ci.kind = "toolkit";
      std::map<std::string, Versioned> comps;
      Versioned cudnn;
      toolkit_versions(canon, ci, comps, cudnn);
      std::vector<std::string> lib_dirs;
      for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib", "bin", "bin\\x64"}) {
        std::string d = path_join(canon, sub);
        if (host_.is_dir(d)) lib_dirs.push_back(d);
      }
      std::vector<size_t> files;
      for (const auto& d : lib_dirs) {
        auto added = scan_dir(d, "cuda:" + canon, comps);
        if (!added.empty()) ci.lib_dirs.push_back(d);
        files.insert(files.end(), added.begin(), added.end());
      }
      if (ci.version.empty()) cudart_file_version(files, ci);
      if (!ci.version.empty() || has_component(files, "cudart")) s_.cuda.push_back(ci);

      // cuDNN copied into the toolkit (the usual Linux tarball instructions) or, as
      // here, installed from the same wheels.
      Versioned header = cudnn_header_version({path_join(canon, "include"), path_join(canon, "targets/x86_64-linux/include")});
      if (has_component(files, "cudnn") || !header.version.empty()) {
        CudnnInstall cd;
        cd.root = canon;
        cd.kind = "toolkit";
        if (!header.version.empty()) {
          cd.version = header.version;
          cd.version_source = header.source;
        } else if (!cudnn.version.empty()) {
          cd.version = cudnn.version;
          cd.version_source = cudnn.source;
        } else {
          cudnn_file_version(files, cd);
        }
        for (size_t i : files)
          if (starts_with(s_.libraries[i].component, "cudnn")) {
            std::string d = path_dirname(s_.libraries[i].path);
            if (std::find(cd.lib_dirs.begin(), cd.lib_dirs.end(), d) == cd.lib_dirs.end()) cd.lib_dirs.push_back(d);
          }
        s_.cudnn.push_back(cd);
      }
    }
  }

  // cuDNN's Windows installer keeps its own tree (windows_installs.h), one CudnnInstall
  // per bin\<cuda>[\x64] directory.
  void scan_windows_cudnn() {
    for (const auto& w : cudnn_installer_layouts(host_)) {
      std::vector<size_t> files = scan_dir(w.lib_dir, "cudnn:" + w.root);
      if (!has_component(files, "cudnn")) continue;
      CudnnInstall cd;
      cd.root = w.root;
      cd.kind = "standalone";
      cd.cuda_major = w.cuda_major;
      cd.lib_dirs = {w.lib_dir};
      Versioned header = cudnn_header_version({w.include_dir});
      cd.version = header.version;
      cd.version_source = header.source;
      if (cd.version.empty()) cudnn_file_version(files, cd);
      s_.cudnn.push_back(cd);
    }
  }

  void cudart_file_version(const std::vector<size_t>& files, CudaInstall& ci) {
    for (size_t i : files) {
      const auto& f = s_.libraries[i];
      if (f.component == "cudart" && !f.version.empty()) {
        ci.version = f.version;
        ci.version_source = f.path + " (" + f.version_source + ")";
        return;
      }
    }
  }

  void cudnn_file_version(const std::vector<size_t>& files, CudnnInstall& cd) {
    for (size_t i : files) {
      const auto& f = s_.libraries[i];
      if (f.component == "cudnn" && !f.version.empty()) {
        cd.version = f.version;
        cd.version_source = f.path + " (" + f.version_source + ")";
        return;
      }
    }
  }

  // --- pip wheels -----------------------------------------------------------------

  void scan_pip() {
    for (const auto& env : s_.pythons) {
      // Package versions by normalised name, from this env's metadata.
      std::map<std::string, const PythonPackage*> pkgs;
      for (const auto& p : env.packages) pkgs[p.name] = &p;
      for (const auto& site : env.site_packages) {
        std::string nv = path_join(site, "nvidia");
        auto entries = host_.list_dir(nv);
        if (!entries) continue;
        std::vector<std::string> names;
        for (const auto& e : *entries)
          if (e.type == FileType::kDirectory || e.type == FileType::kSymlink) names.push_back(e.name);
        std::sort(names.begin(), names.end());
        for (const auto& comp_dir : names) {
          std::string lib = path_join(path_join(nv, comp_dir), host_.platform() == Platform::kWindows ? "bin" : "lib");
          if (!host_.is_dir(lib)) continue;
          // Which installed package owns this dir: nvidia-<dir>-cuNN (cu11/cu12) or, for
          // the shared cu13 dir, any *-cu13 / unsuffixed 13.x package.
          std::map<std::string, Versioned> comps;
          std::string owner;
          std::string cuda_major;
          for (const auto& [name, p] : pkgs) {
            if (!starts_with(name, "nvidia-")) continue;
            std::string stem = name.substr(7);
            std::string major;
            for (const char* sfx : {"-cu11", "-cu12", "-cu13"})
              if (ends_with(stem, sfx)) {
                major = std::string(sfx).substr(3);
                stem = stem.substr(0, stem.size() - 5);
              }
            std::string dir_stem = comp_dir;
            std::replace(dir_stem.begin(), dir_stem.end(), '_', '-');
            bool owns = comp_dir == "cu13" ? (major == "13" || (major.empty() && starts_with(p->version, "13.")))
                                           : stem == dir_stem;
            if (!owns) continue;
            for (const auto& c : components_of_package(name)) comps[c] = {p->version, p->source};
            if (owner.empty() || comp_dir != "cu13") owner = name;
            if (!major.empty()) cuda_major = major;
          }
          std::string origin = "pip:" + (owner.empty() ? "nvidia/" + comp_dir : owner);
          auto files = scan_dir(lib, comp_dir == "cu13" ? "pip:nvidia/cu13" : origin, comps);
          if (files.empty()) continue;
          if (has_component(files, "cudart")) {
            CudaInstall ci;
            ci.root = path_join(nv, comp_dir);
            ci.kind = "pip";
            ci.lib_dirs = {lib};
            if (auto it = comps.find("cudart"); it != comps.end()) {
              ci.version = it->second.version;
              ci.version_source = it->second.source;
            }
            for (const auto& [name, p] : pkgs)
              if (components_of_package(name) == std::vector<std::string>{"cudart"}) ci.package = name;
            if (ci.version.empty()) cudart_file_version(files, ci);
            s_.cuda.push_back(ci);
          }
          if (has_component(files, "cudnn")) {
            CudnnInstall cd;
            cd.root = path_join(nv, comp_dir);
            cd.kind = "pip";
            cd.lib_dirs = {lib};
            for (const auto& [name, p] : pkgs) {
              if (!starts_with(name, "nvidia-cudnn")) continue;
              cd.package = name;
              cd.version = p->version;
              cd.version_source = p->source;
              for (const char* sfx : {"-cu11", "-cu12", "-cu13"})
                if (ends_with(name, sfx)) cd.cuda_major = std::string(sfx).substr(3);
            }
            if (cd.cuda_major.empty()) cd.cuda_major = cuda_major;
            // Wheels carry headers too: nvidia/cudnn/include/cudnn_version.h.
            Versioned header = cudnn_header_version({path_join(path_join(nv, comp_dir), "include")});
            if (cd.version.empty() && !header.version.empty()) {
              cd.version = header.version;
              cd.version_source = header.source;
            }
            if (cd.version.empty()) cudnn_file_version(files, cd);
            s_.cudnn.push_back(cd);
          }
        }
      }
    }
  }

  // --- TensorFlow's own shared objects ------------------------------------------------

  // libtensorflow_framework.so.N, libtensorflow_cc.so.N and tensorflow/python/*.so (the
  // Python extension modules, _pywrap_tensorflow_internal.so and what it needs; Windows:
  // the .pyd files and the DLLs beside them), with SONAME / NEEDED / RUNPATH and whether
  // each defines TF's DSO loader: their RUNPATH decides where TF's dlopen looks
  // (docs/loader-model.md, "TensorFlow's own objects").
  void scan_tensorflow() {
    const bool win = host_.platform() == Platform::kWindows;
    for (auto& env : s_.pythons) {
      for (auto& tf : env.tensorflow) {
        if (tf.location.empty()) continue;
        for (const std::string& dir : {tf.location, path_join(tf.location, "python")}) {
          looked_dirs_.push_back(dir);
          std::string canon = host_.canonical(dir).value_or(dir);
          if (!scanned_.insert(canon).second) continue;
          auto entries = host_.list_dir(dir);
          if (!entries) continue;
          std::vector<DirEntry> sorted = *entries;
          std::sort(sorted.begin(), sorted.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
          for (const auto& e : sorted) {
            if (e.type == FileType::kDirectory || !is_tensorflow_object(e.name, win)) continue;
            LibraryFile f;
            f.path = path_join(dir, e.name);
            f.name = e.name;
            f.component = "tensorflow";
            f.origin = "tensorflow";
            f.version = tf.version;
            f.version_source = tf.package + " package metadata";
            if (e.type == FileType::kSymlink) {
              if (auto l = host_.lstat(f.path)) f.symlink_target = l->link_target;
            }
            read_headers(f, loader::tensorflow_dso_loader_symbols());
            s_.libraries.push_back(std::move(f));
          }
        }
        loader::DlopenCaller caller = loader::tensorflow_dlopen_caller(s_, tf);
        tf.dlopen_caller = caller.path;
        tf.dlopen_caller_source = caller.reason;
      }
    }
  }

  static bool is_tensorflow_object(const std::string& name, bool win) {
    std::string lower = to_lower(name);
    if (win) return ends_with(lower, ".pyd") || ends_with(lower, ".dll");
    return ends_with(name, ".so") || name.find(".so.") != std::string::npos;
  }

  // --- conda ----------------------------------------------------------------------

  void scan_conda() {
    for (const auto& env : s_.pythons) {
      if (env.kind != "conda") continue;
      std::string lib = path_join(env.prefix, host_.platform() == Platform::kWindows ? "Library\\bin" : "lib");
      // conda-meta/<pkg>-<version>-<build>.json names the packages (cudatoolkit for
      // CUDA <= 11.8, cuda-cudart / libcublas / cudnn for 12+).
      std::map<std::string, Versioned> comps;
      Versioned toolkit;
      if (auto entries = host_.list_dir(path_join(env.prefix, "conda-meta"))) {
        for (const auto& e : *entries) {
          if (!ends_with(e.name, ".json")) continue;
          std::string stem = e.name.substr(0, e.name.size() - 5);
          auto last = stem.rfind('-');
          if (last == std::string::npos) continue;
          auto mid = stem.rfind('-', last - 1);
          if (mid == std::string::npos) continue;
          std::string name = stem.substr(0, mid), version = stem.substr(mid + 1, last - mid - 1);
          std::string src = path_join(path_join(env.prefix, "conda-meta"), e.name);
          if (name == "cudatoolkit") toolkit = {version, src};
          if (name == "cudnn") comps["cudnn"] = {version, src};
          for (const auto& c : components_of_package(name)) comps[c] = {version, src};
        }
      }
      if (!toolkit.version.empty())
        for (const char* c : {"cudart", "cublas", "cublasLt", "cufft", "curand", "cusolver", "cusparse", "nvrtc", "cupti"})
          if (!comps.count(c)) comps[c] = toolkit;
      auto files = scan_dir(lib, "conda:" + env.prefix, comps);
      if (has_component(files, "cudart")) {
        CudaInstall ci;
        ci.root = env.prefix;
        ci.kind = "conda";
        ci.lib_dirs = {lib};
        ci.package = toolkit.version.empty() ? "cuda-cudart" : "cudatoolkit";
        Versioned v = toolkit.version.empty() ? (comps.count("cudart") ? comps["cudart"] : Versioned{}) : toolkit;
        ci.version = v.version;
        ci.version_source = v.source;
        if (ci.version.empty()) cudart_file_version(files, ci);
        s_.cuda.push_back(ci);
      }
      if (has_component(files, "cudnn")) {
        CudnnInstall cd;
        cd.root = env.prefix;
        cd.kind = "conda";
        cd.package = "cudnn";
        cd.lib_dirs = {lib};
        Versioned header = cudnn_header_version({path_join(env.prefix, "include")});
        Versioned v = !header.version.empty() ? header : (comps.count("cudnn") ? comps["cudnn"] : Versioned{});
        cd.version = v.version;
        cd.version_source = v.source;
        if (cd.version.empty()) cudnn_file_version(files, cd);
        s_.cudnn.push_back(cd);
      }
    }
  }

  // --- LD_LIBRARY_PATH, loader dirs, WSL --------------------------------------------

  void scan_path_dirs() {
    const bool win = host_.platform() == Platform::kWindows;
    for (const auto& d : split_nonempty(host_.env(win ? "PATH" : "LD_LIBRARY_PATH").value_or(""), win ? ';' : ':'))
      scan_dir(d, win ? "PATH" : "LD_LIBRARY_PATH");
    if (win) return;
    if (host_.is_dir("/usr/lib/wsl/lib")) scan_dir("/usr/lib/wsl/lib", "wsl");
    std::vector<std::string> dirs = s_.loader.ld_so_conf_dirs;
    for (const auto& e : s_.loader.ld_cache) {
      std::string d = path_dirname(e.path);
      if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
    }
    dirs.insert(dirs.end(), s_.loader.default_dirs.begin(), s_.loader.default_dirs.end());
    std::vector<size_t> system_files;
    for (const auto& d : dirs) {
      for (size_t i : scan_dir(d, "system")) {
        // Links into an install already found (/usr/local/lib/libcudart.so.13 ->
        // /usr/local/cuda-13.0/lib/...) are that install's files, not another install.
        if (const std::string* root = owning_root(s_.libraries[i].path)) {
          LibraryFile& f = s_.libraries[i];
          if (f.version.empty()) {
            for (const auto& other : s_.libraries) {
              if (&other != &f && other.origin != "system" && other.name == f.name && starts_with(other.path, *root)) {
                f.version = other.version;
                f.version_source = other.version_source;
              }
            }
          }
          continue;
        }
        system_files.push_back(i);
      }
    }
    // Distribution packages (Debian's libcudart12, nvidia-cudnn) put headers under
    // /usr/include[/<triplet>] as cudnn_version_v9.h (nvidia.md §3c).
    if (has_component(system_files, "cudnn")) {
      CudnnInstall cd;
      cd.root = "/usr";
      cd.kind = "system";
      std::string machine = host_.os_release().machine;
      std::vector<std::string> incs = {"/usr/include"};
      if (!machine.empty()) incs.push_back("/usr/include/" + machine + "-linux-gnu");
      Versioned header = cudnn_header_version(incs);
      cd.version = header.version;
      cd.version_source = header.source;
      if (cd.version.empty()) cudnn_file_version(system_files, cd);
      for (size_t i : system_files)
        if (starts_with(s_.libraries[i].component, "cudnn")) {
          std::string d = path_dirname(s_.libraries[i].path);
          if (std::find(cd.lib_dirs.begin(), cd.lib_dirs.end(), d) == cd.lib_dirs.end()) cd.lib_dirs.push_back(d);
        }
      s_.cudnn.push_back(cd);
    }
    if (has_component(system_files, "cudart")) {
      CudaInstall ci;
      ci.root = "/usr";
      ci.kind = "system";
      cudart_file_version(system_files, ci);
      for (size_t i : system_files)
        if (s_.libraries[i].component == "cudart") {
          std::string d = path_dirname(s_.libraries[i].path);
          if (std::find(ci.lib_dirs.begin(), ci.lib_dirs.end(), d) == ci.lib_dirs.end()) ci.lib_dirs.push_back(d);
        }
      s_.cuda.push_back(ci);
    }
  }

  // --- directory symlinks ---------------------------------------------------------------

  // Every directory symlink on the paths the loader model will look at (the dirs scanned,
  // the ld.so.cache entries' dirs, ld.so.conf and default dirs, site-packages), walked the
  // way the kernel resolves a path (path_resolution(7)), each link at the path where the
  // walk meets it: LoaderInfo::dir_links.
  void record_dir_links() {
    if (host_.platform() == Platform::kWindows) return;
    std::vector<std::string> dirs = looked_dirs_;
    for (const auto& e : s_.loader.ld_cache) dirs.push_back(path_dirname(e.path));
    dirs.insert(dirs.end(), s_.loader.ld_so_conf_dirs.begin(), s_.loader.ld_so_conf_dirs.end());
    dirs.insert(dirs.end(), s_.loader.default_dirs.begin(), s_.loader.default_dirs.end());
    for (const auto& env : s_.pythons) dirs.insert(dirs.end(), env.site_packages.begin(), env.site_packages.end());
    std::set<std::string> walked;
    for (const auto& d : dirs)
      if (!d.empty() && d[0] == '/' && walked.insert(d).second) walk_links(d);
  }

  void walk_links(const std::string& path) {
    resolve_path_links(path, [this](const std::string& prefix) -> std::optional<std::string> {
      auto memo = link_memo_.find(prefix);
      if (memo == link_memo_.end()) {
        std::string target;
        if (auto l = host_.lstat(prefix); l && l->type == FileType::kSymlink && !l->link_target.empty()) {
          auto st = host_.stat(prefix);
          if (st && st->type == FileType::kDirectory) target = l->link_target;
        }
        memo = link_memo_.emplace(prefix, target).first;
        if (!target.empty()) s_.loader.dir_links[prefix] = target;
      }
      if (memo->second.empty()) return std::nullopt;
      return memo->second;
    });
  }

  // The root of a CUDA / cuDNN install already found that `path` resolves into.
  const std::string* owning_root(const std::string& path) const {
    auto real = host_.canonical(path);
    if (!real) return nullptr;
    for (const auto& c : s_.cuda)
      if (starts_with(*real, c.root + "/")) return &c.root;
    for (const auto& c : s_.cudnn)
      if (starts_with(*real, c.root + "/")) return &c.root;
    return nullptr;
  }

  // --- optional: ask the libraries themselves (child process) ------------------------

  void finish_state() {
    if (options_.runtime_calls == RuntimeCalls::kYes) ask_libraries();
    if (s_.cuda.empty() && s_.cudnn.empty()) {
      s_.runtime_state = {ProbeStatus::kAbsent,
                          fmt::format("no CUDA runtime or cuDNN found in {} dirs searched", scanned_.size()), ""};
    } else {
      s_.runtime_state = {ProbeStatus::kOk,
                          fmt::format("{} CUDA install(s), {} cuDNN install(s), {} library files in {} dirs",
                                      s_.cuda.size(), s_.cudnn.size(), s_.libraries.size(), scanned_.size()),
                          ""};
    }
  }

  const LibraryFile* first_file(const std::vector<std::string>& dirs, const std::string& component) const {
    for (const auto& f : s_.libraries) {
      if (f.component != component || !f.symlink_target.empty()) continue;
      if (std::find(dirs.begin(), dirs.end(), path_dirname(f.path)) != dirs.end()) return &f;
    }
    return nullptr;
  }

  void ask_libraries() {
    for (const auto& ci : s_.cuda) {
      const LibraryFile* f = first_file(ci.lib_dirs, "cudart");
      if (!f) continue;
      ChildAnswer a = run_vendor_child(host_, options_, VendorLibrary::kCudart, f->path);
      std::string version = a.json.contains("version") && a.json["version"].is_string() ? a.json["version"].get<std::string>() : "";
      if (a.ok) s_.notes.push_back(fmt::format("cudaRuntimeGetVersion() of {}: {}", f->path, version));
      else s_.notes.push_back(fmt::format("cudaRuntimeGetVersion() of {} failed: {}", f->path, a.summary));
    }
    for (const auto& cd : s_.cudnn) {
      const LibraryFile* f = first_file(cd.lib_dirs, "cudnn");
      if (!f) continue;
      ChildAnswer a = run_vendor_child(host_, options_, VendorLibrary::kCudnn, f->path);
      if (!a.ok) {
        s_.notes.push_back(fmt::format("cudnnGetVersion() of {} failed: {}", f->path, a.summary));
        continue;
      }
      uint64_t code = a.json.contains("version_code") && a.json["version_code"].is_number_unsigned()
                          ? a.json["version_code"].get<uint64_t>()
                          : 0;
      std::string note = fmt::format("cudnnGetVersion() of {}: {}", f->path, code);
      // Compare with the header's version under either CUDNN_VERSION encoding
      // (major*1000 up to 8, major*10000 from 9; nvidia.md §3c) rather than decoding here.
      if (auto v = Version::parse(cd.version)) {
        uint64_t base = static_cast<uint64_t>(v->minor()) * 100 + static_cast<uint64_t>(v->patch());
        bool match = code == static_cast<uint64_t>(v->major()) * 1000 + base ||
                     code == static_cast<uint64_t>(v->major()) * 10000 + base;
        note += match ? fmt::format(" (matches {} from {})", cd.version, cd.version_source)
                      : fmt::format(" (does NOT match {} from {})", cd.version, cd.version_source);
      }
      s_.notes.push_back(note);
    }
  }

  const Host& host_;
  const ProbeOptions& options_;
  Snapshot& s_;
  std::set<std::string> scanned_;
  std::vector<std::string> looked_dirs_;                // every dir scan_dir was given, as given
  std::map<std::string, std::string> link_memo_;        // path -> dir symlink target ("" = not one)
};

}  // namespace

void probe_runtime(const Host& host, const ProbeOptions& options, Snapshot& s) { RuntimeScan(host, options, s).run(); }

}  // namespace tfgpu::probe
