#include "rules/rule_support.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::rules {

std::optional<Platform> wheel_platform(const Snapshot& s) {
  if (s.host.os == "linux") return Platform::kLinux;
  if (s.host.os == "windows") return Platform::kWindows;
  if (s.host.os == "macos") return Platform::kMacos;
  return std::nullopt;
}

bool is_wsl2(const Snapshot& s) { return s.host.os == "linux" && s.host.wsl2 == Tri::kYes; }
bool is_windows(const Snapshot& s) { return s.host.os == "windows"; }

std::optional<Platform> driver_platform(const Snapshot& s) {
  if (is_wsl2(s)) return Platform::kWindows;  // nvidia-smi in WSL2 shows the Windows driver
  return wheel_platform(s);
}

bool probed(const ProbeState& st) { return st.status != ProbeStatus::kNotProbed; }

bool runtime_looked(const Snapshot& s) {
  return s.runtime_state.status == ProbeStatus::kOk || s.runtime_state.status == ProbeStatus::kAbsent;
}

bool python_unknown(const Snapshot& s) {
  if (s.python_state.status == ProbeStatus::kFailed || s.python_state.status == ProbeStatus::kUnsupported) return true;
  for (const auto& py : s.pythons)
    if (py.packages_state.status == ProbeStatus::kFailed) return true;
  return false;
}

bool env_known(const Snapshot& s) { return s.host.state.status == ProbeStatus::kOk; }

std::optional<std::string> env_var(const Snapshot& s, const std::string& name) {
  auto it = s.env.find(name);
  if (it == s.env.end()) return std::nullopt;
  return it->second;
}

std::string env_label(const PythonEnv& py) {
  std::string what;
  if (py.kind == "conda")
    what = py.name.empty() ? "conda env" : fmt::format("conda env '{}'", py.name);
  else if (py.kind == "venv")
    what = py.name.empty() ? "venv" : fmt::format("venv '{}'", py.name);
  else if (py.kind == "pyenv")
    what = fmt::format("pyenv {}", py.name.empty() ? py.version : py.name);
  else
    what = py.version.empty() ? "Python" : fmt::format("Python {}", py.version);
  if (!py.executable.empty()) what += fmt::format(" ({})", py.executable);
  return what;
}

std::vector<TfEnv> tf_envs(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<TfEnv> out;
  for (const auto& py : s.pythons) {
    if (py.tensorflow.empty()) continue;
    TfEnv e;
    e.py = &py;
    // Several TF distributions in one env: `import tensorflow` gets one package
    // directory; the probe lists the one owning it first.
    e.tf = &py.tensorflow.front();
    if (auto v = Version::parse(e.tf->version)) {
      e.version = *v;
      e.release = kb.find_tf(*v);
    }
    e.label = env_label(py);
    e.kb = &kb;
    out.push_back(e);
  }
  return out;
}

bool tf_gpu_build(const TfEnv& e, const Snapshot& s, const kb::KnowledgeBase& kb) {
  auto p = wheel_platform(s);
  if (!p || !e.release || !e.release->has_gpu_build(*p)) return false;
  for (const kb::TfPackage* pkg : kb.packages_for(*e.release, *p)) {
    if (pkg->name != e.tf->package) continue;
    if (pkg->role == "cpu" || pkg->role == "installer" || pkg->role == "removed") return false;
  }
  return true;
}

Evidence cite(const kb::Citation& c, std::string text) {
  std::string src = "kb: " + c.row;
  if (!c.sources.empty()) src += " (" + c.sources.front() + ")";
  if (!c.verified) src += " [unverified]";
  return Evidence{std::move(text), std::move(src), 0};
}

Evidence fact(std::string text, std::string source) { return Evidence{std::move(text), std::move(source), 0}; }

std::string norm_path(const Snapshot& s, std::string_view path) {
  std::string p(path);
  if (is_windows(s)) {
    std::replace(p.begin(), p.end(), '/', '\\');
    p = to_lower(p);
    while (p.size() > 3 && p.back() == '\\') p.pop_back();
    return p;
  }
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  // Collapse "dir/../" so $ORIGIN/../nvidia/x/lib compares with the real dir.
  std::vector<std::string> parts;
  for (const auto& part : split(p, '/')) {
    if (part == "..") {
      if (!parts.empty() && !parts.back().empty()) parts.pop_back();
    } else if (part != ".") {
      parts.push_back(part);
    }
  }
  std::string joined = join(parts, "/");
  return joined.empty() ? "/" : joined;
}

std::string dir_of(std::string_view path) {
  size_t cut = path.find_last_of("/\\");
  if (cut == std::string_view::npos) return "";
  return std::string(path.substr(0, cut));
}

std::string file_of(std::string_view path) {
  size_t cut = path.find_last_of("/\\");
  return std::string(cut == std::string_view::npos ? path : path.substr(cut + 1));
}

std::string join_path(const Snapshot& s, std::string_view dir, std::string_view name) {
  char sep = is_windows(s) ? '\\' : '/';
  std::string d(dir);
  if (!d.empty() && d.back() != sep) d += sep;
  return d + std::string(name);
}

std::string path_var_name(const Snapshot& s) { return is_windows(s) ? "PATH" : "LD_LIBRARY_PATH"; }

std::vector<std::string> path_entries(const Snapshot& s, const std::string& var) {
  auto v = env_var(s, var);
  if (!v) return {};
  return split_nonempty(*v, is_windows(s) ? ';' : ':');
}

namespace {

bool names_equal(const Snapshot& s, std::string_view a, std::string_view b) {
  return is_windows(s) ? iequals(a, b) : a == b;
}

bool under(const Snapshot& s, std::string_view path, std::string_view dir) {
  if (dir.empty()) return false;
  std::string p = norm_path(s, path);
  std::string d = norm_path(s, dir);
  return p == d || starts_with(p, d + (is_windows(s) ? "\\" : "/"));
}

// The directories a process searches at all (order aside): where a same-name file
// that was not chosen is "shadowed" rather than "elsewhere".
std::vector<std::string> searched_dirs(const Snapshot& s, const EnvLoads* loads, std::string_view name) {
  std::vector<std::string> dirs;
  if (is_windows(s)) {
    if (loads && loads->process) {
      const auto& p = loads->process->windows_process;
      dirs.push_back(p.app_dir);
      for (const auto& d : split_nonempty(p.path_env, ';')) dirs.push_back(std::string(trim(d)));
    } else {
      for (const auto& d : path_entries(s, "PATH")) dirs.push_back(d);
    }
    dirs.push_back(s.loader.system_dir);
    dirs.push_back(s.loader.windows_dir);
    return dirs;
  }
  if (loads && loads->process)
    for (const auto& d : loads->process->rpath_dirs) dirs.push_back(d);
  for (const auto& d : path_entries(s, "LD_LIBRARY_PATH")) dirs.push_back(d);
  for (const auto& e : s.loader.ld_cache)
    if (e.name == name) dirs.push_back(dir_of(e.path));
  for (const auto& d : s.loader.default_dirs) dirs.push_back(d);
  return dirs;
}

}  // namespace

namespace {
Resolution resolve_in(const Snapshot& s, const EnvLoads* loads, std::string_view file_name);
}  // namespace

Resolution resolve(const Snapshot& s, const TfEnv* env, std::string_view file_name) {
  std::shared_ptr<const EnvLoads> loads;
  if (env && env->py && env->tf && env->kb) loads = loads_for(s, *env->kb, *env);
  if (!loads) return resolve_in(s, nullptr, file_name);
  {
    std::lock_guard lock(loads->resolved_mutex);
    if (auto it = loads->resolved.find(file_name); it != loads->resolved.end()) return *it->second;
  }
  auto r = std::make_shared<const Resolution>(resolve_in(s, loads.get(), file_name));
  std::lock_guard lock(loads->resolved_mutex);
  return *loads->resolved.emplace(std::string(file_name), std::move(r)).first->second;
}

namespace {

Resolution resolve_in(const Snapshot& s, const EnvLoads* loads, std::string_view file_name) {
  Resolution r;
  r.name = std::string(file_name);
  if (const loader::TfLoad* load = loads ? loads->load_of(file_name) : nullptr) {
    r.loader = load->result.root;
    if (load->result.root.outcome == loader::Outcome::kFound && load->result.outcome != loader::Outcome::kFound &&
        load->result.outcome != loader::Outcome::kUnknown) {
      r.dependency_error = load->result.error;
      for (const auto& d : load->result.closure)
        if (d.resolution.outcome == loader::Outcome::kNotFound || d.resolution.outcome == loader::Outcome::kFailed)
          r.failed_dependency = d.resolution;
    }
  } else {
    r.loader = search_library(s, loads, r.name);
  }
  if (r.loader.outcome == loader::Outcome::kFound) {
    r.found = r.loader.file;
    // ld.so keeps $ORIGIN/../ unresolved in l_name (the trail shows that); findings name the file plainly.
    r.found_path = is_windows(s) ? r.loader.path : loader::normalize_path(r.loader.path);
    if (!r.loader.trail.empty()) {
      auto steps = trail_steps(s, r.loader);
      r.found_via = step_place(steps.back());
    }
  }
  std::vector<std::string> dirs = searched_dirs(s, loads, file_name);
  for (const auto& f : s.libraries) {
    if (!names_equal(s, f.name, file_name) || &f == r.found) continue;
    if (!r.found_path.empty() && norm_path(s, f.path) == norm_path(s, r.found_path)) continue;
    bool on_path = std::any_of(dirs.begin(), dirs.end(),
                               [&](const std::string& d) { return !d.empty() && norm_path(s, dir_of(f.path)) == norm_path(s, d); });
    (on_path ? r.shadowed : r.elsewhere).push_back(&f);
  }
  return r;
}

}  // namespace

Evidence loader_evidence(const Snapshot& s, std::string text, const Resolution& r) {
  return trail_evidence(s, std::move(text), r.loader);
}

std::vector<const LibraryFile*> libraries_of(const Snapshot& s, std::string_view component) {
  std::vector<const LibraryFile*> out;
  for (const auto& f : s.libraries)
    if (f.component == component) out.push_back(&f);
  return out;
}

const CudaInstall* cuda_install_of(const Snapshot& s, const LibraryFile& f) {
  for (const auto& c : s.cuda) {
    for (const auto& d : c.lib_dirs)
      if (norm_path(s, dir_of(f.path)) == norm_path(s, d)) return &c;
  }
  for (const auto& c : s.cuda)
    if (under(s, f.path, c.root)) return &c;
  return nullptr;
}

const CudnnInstall* cudnn_install_of(const Snapshot& s, const LibraryFile& f) {
  for (const auto& c : s.cudnn) {
    for (const auto& d : c.lib_dirs)
      if (norm_path(s, dir_of(f.path)) == norm_path(s, d)) return &c;
  }
  for (const auto& c : s.cudnn)
    if (under(s, f.path, c.root)) return &c;
  return nullptr;
}

const kb::Gpu* kb_gpu(const GpuInfo& g, const kb::KnowledgeBase& kb) {
  if (g.pci_id.empty()) return nullptr;
  auto k = kb.find_gpu_by_pci(g.pci_id);
  return k ? *k : nullptr;
}

std::optional<kb::ComputeCapability> gpu_cc(const GpuInfo& g, const kb::KnowledgeBase& kb) {
  if (!g.compute_capability.empty())
    if (auto c = kb::ComputeCapability::parse(g.compute_capability)) return *c;
  if (const kb::Gpu* k = kb_gpu(g, kb)) return k->cc;
  return std::nullopt;
}

}  // namespace tfgpu::rules

namespace tfgpu::rules {

bool under_dir(const Snapshot& s, std::string_view path, std::string_view dir) { return under(s, path, dir); }

std::vector<const PythonPackage*> packages_with_prefix(const PythonEnv& py, std::string_view prefix) {
  std::vector<const PythonPackage*> out;
  for (const auto& p : py.packages)
    if (starts_with(p.name, prefix)) out.push_back(&p);
  return out;
}

std::string missing_library_id(const Snapshot& s, const TfEnv& env, const Resolution& r, std::string_view component,
                               std::string_view mismatch_id, std::string_view missing_id) {
  for (const LibraryFile* f : r.elsewhere) {
    for (const auto& sp : env.py->site_packages)
      if (under(s, f->path, sp) && !packages_with_prefix(*env.py, "nvidia-").empty())
        return "pip_nvidia_libs_not_found";
  }
  if (!r.elsewhere.empty()) return "env_path_not_set";
  if (!libraries_of(s, component).empty()) return std::string(mismatch_id);
  return std::string(missing_id);
}

const kb::TfRelease* newest_release_that_loads(const Snapshot& s, const TfEnv& env, const kb::KnowledgeBase& kb) {
  auto p = wheel_platform(s);
  if (!p) return nullptr;
  const kb::TfRelease* best = nullptr;
  for (const auto& rel : kb.tf_releases()) {
    // Only a release tfgpu would set up today (the KB's plan flag), not a 2017 tensorflow_gpu.
    if (!rel.plan || !rel.has_gpu_build(*p)) continue;
    kb::TfLibraries libs = kb.tf_libraries(rel, *p);
    if (!libs.gpu_build || libs.libraries.empty()) continue;
    bool all = true;
    for (const auto& l : libs.libraries) {
      if (!l.must_load || l.component == "driver") continue;
      if (resolve(s, &env, l.file).found_path.empty()) {
        all = false;
        break;
      }
    }
    if (all) best = &rel;  // rows are sorted ascending: the last hit is the newest
  }
  return best;
}

bool has_and_cuda_extra(const kb::KnowledgeBase& kb, const kb::TfRelease& rel) {
  for (const auto& a : kb.and_cuda())
    if (a.tf.lo() && !(rel.version < *a.tf.lo())) return true;
  return false;
}

std::vector<std::string> add_to_path_steps(const Snapshot& s, const std::string& dir) {
  if (is_windows(s)) {
    return {
        fmt::format("Add {} to PATH: Start > \"Edit environment variables for your account\" > Path > New > {} "
                    "(PowerShell: [Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path','User') + ';{}', 'User'))",
                    dir, dir, dir),
        "Close and reopen the terminal (and the IDE / Jupyter server) so the new PATH is seen, then run `tfgpu doctor` again",
    };
  }
  return {
      fmt::format("export LD_LIBRARY_PATH={}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}", dir),
      "Make it permanent: add that line to ~/.bashrc (or, for a conda env, to $CONDA_PREFIX/etc/conda/activate.d/env_vars.sh)",
      "Open a new shell and run `tfgpu doctor` again",
  };
}

std::vector<std::string> install_cuda_steps(const Snapshot& s, const TfEnv& env, const kb::KnowledgeBase& kb) {
  std::vector<std::string> steps;
  if (!env.release) return steps;
  const auto& rel = *env.release;
  std::string cuda = rel.cuda.str();
  std::string cudnn = rel.cudnn.str();
  if (is_windows(s)) {
    steps.push_back(fmt::format(
        "Install CUDA {} (TensorFlow {} was built with it): https://developer.nvidia.com/cuda-toolkit-archive > CUDA Toolkit {} > Windows > x86_64; "
        "it installs into C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v{} and adds its bin folder to PATH",
        cuda, rel.version.str(), cuda, cuda));
    steps.push_back(fmt::format(
        "Install cuDNN {} for CUDA {}.x: https://developer.nvidia.com/rdp/cudnn-archive; unzip and copy ALL files of its bin\\ into "
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v{}\\bin (include\\ and lib\\x64\\ likewise)",
        cudnn, rel.cuda.major(), cuda));
    if (env.py && env.py->kind == "conda")
      steps.push_back(fmt::format("Or, inside this conda env instead of both: conda install -c conda-forge cudatoolkit={} cudnn={}",
                                  cuda, cudnn));
    return steps;
  }
  if (has_and_cuda_extra(kb, rel)) {
    steps.push_back(fmt::format("In this environment: {} -m pip install \"tensorflow[and-cuda]=={}\" (CUDA {} and cuDNN {} as pip wheels)",
                                env.py && !env.py->executable.empty() ? env.py->executable : "python3",
                                env.tf ? env.tf->version : rel.version.str(), cuda, cudnn));
    return steps;
  }
  steps.push_back(fmt::format(
      "Install the CUDA {} libraries: https://developer.nvidia.com/cuda-toolkit-archive > CUDA Toolkit {} > Linux > runfile, "
      "then `sudo sh cuda_{}*_linux.run --toolkit --silent` (no driver); they go to /usr/local/cuda-{}/lib64",
      cuda, cuda, cuda, cuda));
  steps.push_back(fmt::format("Install cuDNN {} for CUDA {}.x (https://developer.nvidia.com/rdp/cudnn-archive) into /usr/local/cuda-{}",
                              cudnn, rel.cuda.major(), cuda));
  steps.push_back(fmt::format("export LD_LIBRARY_PATH=/usr/local/cuda-{}/lib64${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}} (add it to ~/.bashrc)", cuda));
  return steps;
}

}  // namespace tfgpu::rules
