#include "python/python_env.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "binfmt/elf.h"
#include "binfmt/python_metadata.h"
#include "binfmt/tf_build_info.h"
#include "python/path_util.h"
#include "util/strings.h"
#include "util/version.h"

namespace tfgpu::python {

namespace {

bool windows(const Host& host) { return host.platform() == Platform::kWindows; }

std::string home_dir(const Host& host) {
  if (auto h = host.env("HOME"); h && !h->empty()) return *h;
  if (auto h = host.env("USERPROFILE"); h && !h->empty()) return *h;
  return "";
}

// python, python3, python3.11 (and python.exe on Windows); not python3-config etc.
bool is_interpreter_name(const std::string& name, bool win) {
  if (win) return iequals(name, "python.exe") || iequals(name, "python3.exe");
  if (name == "python" || name == "python3") return true;
  if (!starts_with(name, "python3.") || name.size() <= 8) return false;
  return std::all_of(name.begin() + 8, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string bin_python(const Host& host, const std::string& prefix) {
  if (windows(host)) {
    std::string p = path_join(prefix, "python.exe");
    if (host.is_file(p)) return p;
    return "";
  }
  for (const char* n : {"bin/python3", "bin/python"}) {
    std::string p = path_join(prefix, n);
    if (host.is_file(p)) return p;
  }
  return "";
}

// Prefix of an interpreter: <prefix>/bin/python3 on POSIX, <prefix>\python.exe on Windows
// (venvs there put it in Scripts\).
std::string prefix_of(const Host& host, const std::string& exe) {
  std::string dir = path_dirname(exe);
  std::string base = path_basename(dir);
  if (!windows(host) && base == "bin") return path_dirname(dir);
  if (windows(host) && iequals(base, "Scripts")) return path_dirname(dir);
  return dir;
}

std::string dedup_key(const Host& host, const std::string& exe) {
  std::string prefix = prefix_of(host, exe);
  if (host.is_file(path_join(prefix, "pyvenv.cfg"))) return "venv:" + prefix;
  return host.canonical(exe).value_or(exe);
}

// "3.11" from "python3.11" / "lib/python3.11".
std::string minor_from_name(const std::string& name) {
  std::string_view n = name;
  if (!starts_with(n, "python")) return "";
  n.remove_prefix(6);
  if (ends_with(n, ".exe")) n.remove_suffix(4);
  if (n.find('.') == std::string_view::npos) return "";
  auto v = Version::parse(n);
  if (!v || v->size() != 2) return "";
  return v->str();
}

// include/python3.11/patchlevel.h: #define PY_VERSION "3.11.7"
std::string version_from_patchlevel(const Host& host, const std::string& prefix, const std::string& minor) {
  std::string path = windows(host) ? path_join(prefix, "include/patchlevel.h")
                                   : path_join(prefix, "include/python" + minor + "/patchlevel.h");
  auto text = host.read_file(path, 1u << 20);
  if (!text) return "";
  auto pos = text->find("#define PY_VERSION");
  if (pos == std::string::npos) return "";
  auto q1 = text->find('"', pos);
  auto q2 = q1 == std::string::npos ? q1 : text->find('"', q1 + 1);
  if (q2 == std::string::npos) return "";
  return text->substr(q1 + 1, q2 - q1 - 1);
}

// conda-meta/python-3.11.5-h955ad1f_0.json
std::string version_from_conda_meta(const Host& host, const std::string& prefix) {
  auto entries = host.list_dir(path_join(prefix, "conda-meta"));
  if (!entries) return "";
  for (const auto& e : *entries) {
    if (!starts_with(e.name, "python-") || !ends_with(e.name, ".json")) continue;
    auto parts = split(e.name, '-');
    if (parts.size() >= 3 && Version::parse(parts[1])) return parts[1];
  }
  return "";
}

std::vector<std::string> lib_python_dirs(const Host& host, const std::string& prefix) {
  std::vector<std::string> out;
  auto entries = host.list_dir(path_join(prefix, "lib"));
  if (!entries) return out;
  for (const auto& e : *entries) {
    if (!minor_from_name(e.name).empty()) out.push_back(e.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void add_site(const Host& host, std::vector<std::string>& sites, const std::string& dir) {
  if (dir.empty() || !host.is_dir(dir)) return;
  std::string c = host.canonical(dir).value_or(dir);
  for (const auto& s : sites)
    if (host.canonical(s).value_or(s) == c) return;
  sites.push_back(dir);
}

void add_prefix_sites(const Host& host, std::vector<std::string>& sites, const std::string& prefix,
                      const std::string& minor) {
  if (windows(host)) {
    add_site(host, sites, path_join(prefix, "Lib\\site-packages"));
    return;
  }
  if (minor.empty()) return;
  add_site(host, sites, path_join(prefix, "lib/python" + minor + "/site-packages"));
  add_site(host, sites, path_join(prefix, "lib64/python" + minor + "/site-packages"));
  // Debian's system Python: dist-packages under /usr/lib and /usr/local/lib.
  if (prefix == "/usr") {
    add_site(host, sites, "/usr/local/lib/python" + minor + "/dist-packages");
    add_site(host, sites, "/usr/lib/python3/dist-packages");
    add_site(host, sites, "/usr/lib/python" + minor + "/dist-packages");
  }
}

int elf_bits(const Host& host, const std::string& exe) {
  // Headers by ranges: an interpreter binary is tens of MiB (pyenv builds are not
  // stripped); its class is in the first bytes.
  auto real = host.canonical(exe).value_or(exe);
  auto file = host.open_ranges(real);
  if (!file) return 0;
  RangeReader& r = **file;
  auto elf = binfmt::parse_elf_ranges(
      r.size(), [&r](uint64_t offset, uint64_t length) { return r.read(offset, length); }, real);
  return elf ? elf->bits : 0;
}

}  // namespace

std::optional<Candidate> own_environment(const Host& host, const std::string& self_exe) {
  if (self_exe.empty()) return std::nullopt;
  std::string prefix = prefix_of(host, self_exe);
  if (prefix == path_dirname(self_exe)) return std::nullopt;  // not in a bin/ or Scripts\ folder
  const char* kind = host.is_file(path_join(prefix, "pyvenv.cfg"))      ? "venv"
                     : host.is_dir(path_join(prefix, "conda-meta")) ? "conda"
                                                                      : nullptr;
  if (!kind) return std::nullopt;
  std::string exe = bin_python(host, prefix);
  if (std::string scripts = path_join(path_join(prefix, "Scripts"), "python.exe");
      exe.empty() && windows(host) && host.is_file(scripts))
    exe = scripts;  // a Windows venv's python.exe is next to tfgpu.exe
  if (exe.empty()) return std::nullopt;
  return Candidate{exe, kind, path_basename(prefix), "tfgpu's environment"};
}

std::vector<Candidate> find_interpreters(const Host& host, const std::vector<std::string>& given) {
  std::vector<Candidate> found;
  const bool win = windows(host);
  auto add = [&](const std::string& exe, const char* kind, std::string name, const char* source) {
    if (exe.empty()) return;
    found.push_back({exe, kind, std::move(name), source});
  };
  for (const auto& g : given) add(g, "given", "", "--python");
  if (auto venv = host.env("VIRTUAL_ENV"); venv && !venv->empty())
    add(bin_python(host, *venv), "venv", path_basename(*venv), "VIRTUAL_ENV");
  if (auto own = own_environment(host, host.self_exe())) found.push_back(std::move(*own));
  if (auto cp = host.env("CONDA_PREFIX"); cp && !cp->empty())
    add(bin_python(host, *cp), "conda", path_basename(*cp), "CONDA_PREFIX");
  // A project's venv, activated or not: .venv/, venv/, env/ (with a pyvenv.cfg) in the
  // current directory and its parents, nearest first.
  {
    std::string dir = host.current_dir();
    for (int depth = 0; !dir.empty() && depth < 64; ++depth) {
      for (const char* name : {".venv", "venv", "env"}) {
        std::string venv = path_join(dir, name);
        if (host.exists(path_join(venv, "pyvenv.cfg"))) add(bin_python(host, venv), "venv", name, "project folder");
      }
      std::string parent = path_dirname(dir);
      if (parent == dir) break;
      dir = parent;
    }
  }

  // PATH, in order; pyenv's shims are shell scripts, the versions are read below.
  std::set<std::string> path_dirs_seen;  // /bin and /usr/bin are one folder on merged-/usr systems
  for (const auto& dir : split_nonempty(host.env("PATH").value_or(""), win ? ';' : ':')) {
    if (dir.find("/shims") != std::string::npos) continue;
    if (!path_dirs_seen.insert(host.canonical(dir).value_or(dir)).second) continue;
    auto entries = host.list_dir(dir);
    if (!entries) continue;
    std::vector<std::string> names;
    for (const auto& e : *entries)
      if (e.type != FileType::kDirectory && is_interpreter_name(e.name, win)) names.push_back(e.name);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
      std::string exe = path_join(dir, n);
      if (host.is_file(exe)) add(exe, "system", "", "PATH");
    }
  }

  std::string home = home_dir(host);
  std::string pyenv_root = host.env("PYENV_ROOT").value_or(home.empty() ? "" : path_join(home, ".pyenv"));
  if (!pyenv_root.empty()) {
    std::string versions = path_join(pyenv_root, "versions");
    if (auto entries = host.list_dir(versions)) {
      std::vector<std::string> names;
      for (const auto& e : *entries) names.push_back(e.name);
      // Version order (3.6.15 before 3.10.13); names that are not versions
      // ("miniconda3-latest") after them, alphabetically.
      std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        auto va = Version::parse(a), vb = Version::parse(b);
        if (va && vb && *va != *vb) return *va < *vb;
        if (va.has_value() != vb.has_value()) return va.has_value();
        return a < b;
      });
      for (const auto& n : names) add(bin_python(host, path_join(versions, n)), "pyenv", n, "pyenv");
    }
  }

  // conda: environments.txt lists every env conda created; roots cover the rest.
  std::vector<std::string> conda_prefixes;
  if (!home.empty()) {
    if (auto text = host.read_file(path_join(home, ".conda/environments.txt"), 1u << 20)) {
      for (const auto& line : split(*text, '\n')) {
        std::string p(trim(line));
        if (!p.empty()) conda_prefixes.push_back(p);
      }
    }
  }
  std::vector<std::string> roots;
  if (auto exe = host.env("CONDA_EXE"); exe && !exe->empty()) roots.push_back(path_dirname(path_dirname(*exe)));
  if (!home.empty())
    for (const char* r : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba"})
      roots.push_back(path_join(home, r));
  if (!win) for (const char* r : {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3"}) roots.push_back(r);
  for (const auto& root : roots) {
    if (!host.is_dir(root)) continue;
    conda_prefixes.push_back(root);
    if (auto envs = host.list_dir(path_join(root, "envs"))) {
      std::vector<std::string> names;
      for (const auto& e : *envs) names.push_back(e.name);
      std::sort(names.begin(), names.end());
      for (const auto& n : names) conda_prefixes.push_back(path_join(root, "envs/" + n));
    }
  }
  for (const auto& p : conda_prefixes) add(bin_python(host, p), "conda", path_basename(p), "conda");

  // Deduplicate: a venv is its own environment even though its python links to the
  // base; the first finding wins except that a specific kind beats "system".
  std::vector<Candidate> out;
  std::vector<std::string> keys;
  for (auto& c : found) {
    std::string key = dedup_key(host, c.executable);
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      out.push_back(std::move(c));
      continue;
    }
    Candidate& prev = out[it - keys.begin()];
    if (prev.kind == "system" && c.kind != "system") {
      prev.kind = c.kind;
      prev.name = c.name;
      prev.source = std::string(prev.source) + ", " + c.source;
    }
  }
  // A venv found on PATH is a venv, not the system Python.
  for (auto& c : out) {
    if (c.kind == "system" && host.is_file(path_join(prefix_of(host, c.executable), "pyvenv.cfg"))) {
      c.kind = "venv";
      c.name = path_basename(prefix_of(host, c.executable));
    }
  }
  return out;
}

PythonEnv read_environment(const Host& host, const Candidate& c) {
  PythonEnv env;
  env.executable = c.executable;
  env.kind = c.kind;
  env.name = c.name;
  env.source = c.source;
  env.prefix = prefix_of(host, c.executable);

  std::string minor;
  std::string base_prefix;
  Tri system_site = Tri::kNo;
  std::string cfg_path = path_join(env.prefix, "pyvenv.cfg");
  if (host.is_file(cfg_path)) {
    if (auto text = host.read_file(cfg_path, 1u << 20)) {
      if (auto cfg = binfmt::parse_pyvenv_cfg(*text, cfg_path)) {
        if (!cfg->version.empty()) env.version = cfg->version;
        system_site = cfg->include_system_site_packages;
        if (!cfg->home.empty()) base_prefix = windows(host) ? cfg->home : path_dirname(cfg->home);
      }
    }
    if (env.kind == "system" || env.kind == "given") env.kind = env.kind == "given" ? "given" : "venv";
  }
  // major.minor: from the version, the name, the resolved name, or lib/pythonX.Y.
  if (!env.version.empty()) {
    if (auto v = Version::parse(env.version)) minor = v->truncated(2).str();
  }
  if (minor.empty()) minor = minor_from_name(path_basename(c.executable));
  if (minor.empty()) {
    if (auto real = host.canonical(c.executable)) minor = minor_from_name(path_basename(*real));
  }
  if (minor.empty()) {
    auto dirs = lib_python_dirs(host, env.prefix);
    if (dirs.size() == 1) minor = minor_from_name(dirs[0]);
  }
  if (env.version.empty() && env.kind == "pyenv") {
    if (auto v = Version::parse(env.name); v && v->size() == 3 && env.name.find_first_not_of("0123456789.") == std::string::npos)
      env.version = env.name;
  }
  if (env.version.empty()) env.version = version_from_conda_meta(host, env.prefix);
  if (env.version.empty() && !minor.empty()) {
    env.version = version_from_patchlevel(host, env.prefix, minor);
    if (env.version.empty() && !base_prefix.empty()) env.version = version_from_patchlevel(host, base_prefix, minor);
  }
  if (env.version.empty()) env.version = minor;
  if (minor.empty() && !env.version.empty()) {
    if (auto v = Version::parse(env.version)) minor = v->truncated(2).str();
  }
  env.bits = elf_bits(host, c.executable);

  add_prefix_sites(host, env.site_packages, env.prefix, minor);
  if (system_site == Tri::kYes && !base_prefix.empty()) add_prefix_sites(host, env.site_packages, base_prefix, minor);
  // User site-packages apply outside venvs (site.py disables them in a venv).
  if (env.kind != "venv" && !windows(host) && !minor.empty()) {
    std::string home = home_dir(host);
    if (!home.empty()) add_site(host, env.site_packages, path_join(home, ".local/lib/python" + minor + "/site-packages"));
  }
  // Packages not listed are unknown, not absent: "no TensorFlow" needs every dir read.
  std::vector<std::string> unlisted;
  for (const auto& site : env.site_packages) {
    auto pkgs = list_relevant_packages(host, site);
    if (!pkgs) {
      unlisted.push_back(site + ": " + pkgs.error().message);
      continue;
    }
    env.packages.insert(env.packages.end(), pkgs->begin(), pkgs->end());
  }
  if (!unlisted.empty())
    env.packages_state = {ProbeStatus::kFailed, "cannot list " + join(unlisted, "; "), "site-packages"};
  else if (env.site_packages.empty())
    env.packages_state = {ProbeStatus::kFailed,
                          minor.empty() ? "Python version unknown, so its site-packages dir was not found"
                                        : "no site-packages dir found under " + env.prefix,
                          env.prefix};
  else
    env.packages_state = {ProbeStatus::kOk, "", join(env.site_packages, ", ")};
  env.tensorflow = read_tensorflow(host, env);
  return env;
}

bool is_relevant_package(const std::string& n) {
  static const std::set<std::string> exact = {"keras", "tf-keras", "torch", "jax", "jaxlib", "tensorrt",
                                              "intel-tensorflow", "tensorflow-directml-plugin", "cupy",
                                              "numpy", "protobuf", "ml-dtypes", "ml_dtypes"};
  return exact.count(n) || starts_with(n, "tensorflow") || starts_with(n, "tf-nightly") ||
         starts_with(n, "nvidia-") || starts_with(n, "jax-cuda") || starts_with(n, "tensorrt-") ||
         starts_with(n, "cupy-cuda");
}

std::vector<PythonPackage> relevant_packages(const Host& host, const std::string& site_packages) {
  return list_relevant_packages(host, site_packages).value_or(std::vector<PythonPackage>{});
}

Result<std::vector<PythonPackage>> list_relevant_packages(const Host& host, const std::string& site_packages) {
  std::vector<PythonPackage> out;
  auto entries = host.list_dir(site_packages);
  if (!entries) return fail(entries.error());
  for (const auto& e : *entries) {
    bool dist = ends_with(e.name, ".dist-info");
    bool egg = ends_with(e.name, ".egg-info");
    if (!dist && !egg) continue;
    // Wheel dist-info dirs are "<name>-<version>.dist-info" with '-' escaped in the name.
    std::string stem = e.name.substr(0, e.name.size() - (dist ? 10 : 9));
    auto dash = stem.find('-');
    std::string dir_name = binfmt::normalize_dist_name(stem.substr(0, dash));
    if (!is_relevant_package(dir_name)) continue;
    PythonPackage p;
    p.location = site_packages;
    p.name = dir_name;
    if (dash != std::string::npos) {
      std::string rest = stem.substr(dash + 1);
      p.version = egg ? rest.substr(0, rest.find('-')) : rest;
    }
    std::string dir = path_join(site_packages, e.name);
    std::string meta = path_join(dir, dist ? "METADATA" : "PKG-INFO");
    if (egg && e.type != FileType::kDirectory) meta = dir;  // a single-file egg-info is PKG-INFO itself
    p.source = dir;
    if (auto text = host.read_file(meta, 4u << 20)) {
      if (auto md = binfmt::parse_dist_metadata(*text, meta)) {
        p.name = md->normalized_name;
        p.version = md->version;
        p.source = meta;
      }
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const PythonPackage& a, const PythonPackage& b) {
    return a.name < b.name || (a.name == b.name && a.version < b.version);
  });
  return out;
}

std::vector<TensorflowInstall> read_tensorflow(const Host& host, const PythonEnv& env) {
  std::vector<TensorflowInstall> out;
  // Distributions that install the `tensorflow` package dir (facts/tensorflow.md §4b, §5).
  static const std::set<std::string> flavours = {
      "tensorflow",       "tensorflow-cpu",   "tensorflow-gpu",   "tensorflow-intel", "tensorflow-macos",
      "tensorflow-aarch64", "tensorflow-cpu-aws", "tensorflow-rocm", "intel-tensorflow", "tf-nightly",
      "tf-nightly-cpu",   "tf-nightly-gpu",   "tf-nightly-intel"};
  for (const auto& p : env.packages) {
    if (!flavours.count(p.name)) continue;
    TensorflowInstall tf;
    tf.package = p.name;
    tf.version = p.version;
    std::string pkg_dir = path_join(p.location, "tensorflow");
    tf.location = host.is_dir(pkg_dir) ? pkg_dir : "";
    std::string bi = path_join(pkg_dir, "python/platform/build_info.py");
    if (tf.location.empty()) {
      tf.build_info_state = {ProbeStatus::kAbsent, "no tensorflow/ package dir next to the metadata (installer-only wheel?)", pkg_dir};
    } else if (auto text = host.read_file(bi, 4u << 20)) {
      if (auto info = binfmt::parse_tf_build_info(*text, bi)) {
        tf.build_info = std::move(*info);
        tf.build_info_state = {ProbeStatus::kOk, "", bi};
      } else {
        tf.build_info_state = {ProbeStatus::kFailed, info.error().message, bi};
      }
    } else {
      tf.build_info_state = {ProbeStatus::kAbsent, "no build_info.py: " + text.error().message, bi};
    }
    out.push_back(std::move(tf));
  }
  return out;
}

void mark_active(const Host& host, std::vector<PythonEnv>& envs) {
  auto by_prefix = [&](const std::string& prefix) -> PythonEnv* {
    std::string want = host.canonical(prefix).value_or(path_clean(prefix));
    for (auto& e : envs)
      if (host.canonical(e.prefix).value_or(path_clean(e.prefix)) == want) return &e;
    return nullptr;
  };
  PythonEnv* active = nullptr;
  if (auto v = host.env("VIRTUAL_ENV"); v && !v->empty()) active = by_prefix(*v);
  if (!active)
    if (auto c = host.env("CONDA_PREFIX"); c && !c->empty()) active = by_prefix(*c);
  if (!active) {
    // First `python3` / `python` on PATH. pyenv shims run the selected version:
    // PYENV_VERSION, else $PYENV_ROOT/version (per-directory .python-version files are
    // not followed); "system" means the next interpreter on PATH.
    const bool win = windows(host);
    for (const auto& dir : split_nonempty(host.env("PATH").value_or(""), win ? ';' : ':')) {
      if (dir.find("/shims") != std::string::npos) {
        std::string selected = host.env("PYENV_VERSION").value_or("");
        if (selected.empty()) {
          std::string root = path_dirname(path_clean(dir));
          auto text = host.read_file(path_join(root, "version"), 4096);
          if (text) selected = std::string(trim(split(*text, '\n').front()));
        }
        for (auto& e : envs)
          if (e.kind == "pyenv" && e.name == selected) active = &e;
        if (active) break;
        continue;
      }
      for (const char* n : {win ? "python.exe" : "python3", win ? "python.exe" : "python"}) {
        std::string exe = path_join(dir, n);
        if (!host.is_file(exe)) continue;
        std::string key = dedup_key(host, exe);
        for (auto& e : envs)
          if (dedup_key(host, e.executable) == key) active = &e;
        if (active) break;
      }
      if (active) break;
    }
  }
  if (active) active->active = true;
}

}  // namespace tfgpu::python
