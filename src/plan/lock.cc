// Lock building, TOML round trip and drift checks. The TOML is written by hand (not
// through toml++'s formatter) so that the key order and comments are stable for
// golden files and readable for people.
#include "plan/lock.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include <toml++/toml.h>

#include "util/strings.h"
#include "util/text_encoding.h"
#include "util/toml_guard.h"

namespace tfgpu::plan {
namespace {

// A Windows directory as the file system resolves it: case-insensitive, '/' is '\', and
// repeated or trailing separators do not matter (a UNC path keeps its leading "\\").
std::string windows_path_key(const std::string& p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i] == '/' ? '\\' : static_cast<char>(std::tolower(static_cast<unsigned char>(p[i])));
    if (c == '\\' && i > 1 && !out.empty() && out.back() == '\\') continue;
    out += c;
  }
  while (out.size() > 1 && out.back() == '\\') out.pop_back();
  return out;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
  return s;
}

// A TOML basic string.
std::string q(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else out += c;
    }
  }
  return out + "\"";
}

std::string qlist(const std::vector<std::string>& v) {
  if (v.empty()) return "[]";
  std::string out = "[\n";
  for (const auto& s : v) out += "  " + q(s) + ",\n";
  return out + "]";
}

void add_source(Lock& lock, std::string fact, std::vector<std::string> urls, bool verified) {
  for (const auto& s : lock.sources)
    if (s.fact == fact) return;
  lock.sources.push_back({std::move(fact), std::move(urls), verified});
}

}  // namespace

Result<Lock> build_lock(const PlanResult& plan, const kb::KnowledgeBase& kb, const Packaging& pk) {
  if (!plan.chosen) return fail(Error::input("there is no plan to lock"));
  const Option& o = *plan.chosen;
  const kb::TfRelease& tf = *o.tf;
  const Machine& m = plan.machine;
  Lock l;
  l.generator = std::string("tfgpu ") + TFGPU_VERSION;
  l.os = m.inside_wsl2 ? "windows" : m.os;
  l.target = to_string(plan.target);
  l.gpu = m.gpu_name;
  l.gpu_pci_id = m.gpu_pci_id;
  l.compute_capability = m.cc ? m.cc->str() : "";
  l.cc_support = std::string(kb::to_string(o.cc_support));
  l.driver_platform = platform_name(o.driver_platform);
  l.driver_min = driver_text(o.min_driver);
  l.driver_recommended = o.recommended_driver ? driver_text(*o.recommended_driver) : "";
  l.driver_seen = m.driver ? driver_text(*m.driver) : "";
  l.tensorflow = tf.version.str();
  l.package = o.package;
  l.python = o.python ? o.python->str() : "";
  l.cuda = o.cuda.str();
  l.cudnn = o.cudnn.str();
  l.method = to_string(o.method);
  l.env_name = "tf-" + tf.series().str();
  l.warnings = o.warnings;
  for (const auto& c : o.cites) add_source(l, c.row, c.sources, c.verified);
  auto add_pk_source = [&](std::string fact, const PackagingSource& p) {
    std::vector<std::string> urls;
    for (const auto& s : p.source) urls.push_back(kb.resolve_source(s));
    add_source(l, std::move(fact), std::move(urls), p.verified);
  };

  switch (o.method) {
    case Method::kPipAndCuda: {
      // The extra's nvidia-* requirements come from TensorFlow's own metadata (ranges since
      // 2.20): a plan that repeated them as == pins made pip's resolution impossible. A
      // lock pins exact versions only after a resolver chose them.
      l.pip.push_back(fmt::format("{}[and-cuda]=={}", o.package, l.tensorflow));
      break;
    }
    case Method::kConda: {
      l.pip.push_back(fmt::format("{}=={}", o.package, l.tensorflow));
      if (const CondaCuda* c = pk.conda_for(o.tf_platform, o.cuda, o.cudnn)) {
        l.conda_channel = c->channel;
        l.conda_packages = c->packages;
        add_pk_source(fmt::format("conda {} for CUDA {} / cuDNN {}", join(c->packages, " "), c->cuda.str(), c->cudnn.str()), c->prov);
      }
      break;
    }
    case Method::kSystemCuda: {
      l.pip.push_back(fmt::format("{}=={}", o.package, l.tensorflow));
      if (o.tf_platform == Platform::kWindows) {
        const WindowsPath* wp = pk.windows_path_for(tf.version);
        l.cuda_root = o.reuse_cuda ? o.reuse_cuda->root : (wp ? replace_all(wp->cuda_root, "{cuda}", l.cuda) : "");
        l.cudnn_root = o.reuse_cudnn ? o.reuse_cudnn->root : (wp ? wp->cudnn_root : "");
        if (wp) {
          for (auto e : wp->entries) {
            e = replace_all(std::move(e), "{cuda_root}", l.cuda_root);
            e = replace_all(std::move(e), "{cudnn_root}", l.cudnn_root);
            // cuDNN copied into the toolkit (cudnn_root == cuda_root) gives "{cuda_root}\bin"
            // twice: PATH gets each directory once (compared as Windows does: case and a
            // trailing backslash do not matter).
            auto same = [&](const std::string& x) { return windows_path_key(x) == windows_path_key(e); };
            if (std::none_of(l.path_entries.begin(), l.path_entries.end(), same)) l.path_entries.push_back(std::move(e));
          }
          add_pk_source(fmt::format("Windows PATH entries for TF {}", wp->tf.str()), wp->prov);
        }
      } else {
        if (o.reuse_cuda) l.cuda_root = o.reuse_cuda->root;
        if (o.reuse_cudnn) l.cudnn_root = o.reuse_cudnn->root;
      }
      if (!o.reuse_cuda) {
        if (const CudaInstaller* in = pk.installer_for(o.tf_platform, o.cuda)) {
          l.cuda_installer = in->file;
          l.cuda_installer_sha256 = in->sha256;
          add_pk_source(fmt::format("CUDA {} installer {}", in->cuda.str(), in->file), in->prov);
        }
      }
      break;
    }
    case Method::kDocker:
      break;
  }
  // What a working install needs beyond TensorFlow's own requirements (numpy<2 before
  // 2.18), right after the TensorFlow line so pip resolves them together.
  if (!l.pip.empty()) {
    for (const kb::PipConstraint* c : kb.pip_constraints_for(tf, o.tf_platform)) {
      l.pip.insert(l.pip.begin() + 1, c->requirement);
      auto cite = kb.cite(*c);
      add_source(l, cite.row, cite.sources, cite.verified);
    }
  }
  // The official image is written for every target (a Dockerfile is one of the outputs).
  if (o.tf_platform == Platform::kLinux || plan.target != Target::kNative) {
    if (const DockerImage* d = pk.docker_for(tf.version)) {
      l.docker_image = d->image + ":" + replace_all(d->tag, "{version}", l.tensorflow);
      add_pk_source(fmt::format("Docker image {}", l.docker_image), d->prov);
    }
  }
  if (!l.pip.empty())
    l.pip_hashes_note = "the knowledge base holds no wheel hashes: requirements are pinned by version only";
  auto libs = kb.tf_libraries(tf, o.tf_platform);
  for (const auto& e : libs.libraries) l.libraries.push_back(e.file);
  for (const auto& c : libs.cites) add_source(l, c.row, c.sources, c.verified);
  return l;
}

std::string lock_to_toml(const Lock& l) {
  std::string s;
  s += "# tfgpu.lock.toml: a TensorFlow GPU version set planned by tfgpu for one machine.\n";
  s += "# Check a machine against it: tfgpu doctor --lock tfgpu.lock.toml\n";
  s += fmt::format("schema = {}\n", l.schema);
  s += fmt::format("generator = {}\n\n", q(l.generator));
  s += "[host]\n";
  s += fmt::format("os = {}\n", q(l.os));
  s += fmt::format("target = {}\n", q(l.target));
  s += fmt::format("gpu = {}\n", q(l.gpu));
  s += fmt::format("gpu_pci_id = {}\n", q(l.gpu_pci_id));
  s += fmt::format("compute_capability = {}\n", q(l.compute_capability));
  s += fmt::format("cc_support = {}\n", q(l.cc_support));
  s += fmt::format("driver_platform = {}\n", q(l.driver_platform));
  s += fmt::format("driver_min = {}\n", q(l.driver_min));
  s += fmt::format("driver_recommended = {}\n", q(l.driver_recommended));
  s += fmt::format("driver_seen = {}\n\n", q(l.driver_seen));
  s += "[versions]\n";
  s += fmt::format("tensorflow = {}\n", q(l.tensorflow));
  s += fmt::format("package = {}\n", q(l.package));
  s += fmt::format("python = {}\n", q(l.python));
  s += fmt::format("cuda = {}\n", q(l.cuda));
  s += fmt::format("cudnn = {}\n\n", q(l.cudnn));
  s += "[install]\n";
  s += fmt::format("method = {}\n", q(l.method));
  s += fmt::format("env_name = {}\n", q(l.env_name));
  s += fmt::format("pip = {}\n", qlist(l.pip));
  s += fmt::format("pip_hashes_note = {}\n", q(l.pip_hashes_note));
  s += fmt::format("conda_channel = {}\n", q(l.conda_channel));
  s += fmt::format("conda_packages = {}\n", qlist(l.conda_packages));
  s += fmt::format("cuda_root = {}\n", q(l.cuda_root));
  s += fmt::format("cudnn_root = {}\n", q(l.cudnn_root));
  s += fmt::format("path_entries = {}\n", qlist(l.path_entries));
  s += fmt::format("cuda_installer = {}\n", q(l.cuda_installer));
  s += fmt::format("cuda_installer_sha256 = {}\n", q(l.cuda_installer_sha256));
  s += fmt::format("libraries = {}\n", qlist(l.libraries));
  s += fmt::format("docker_image = {}\n", q(l.docker_image));
  s += fmt::format("warnings = {}\n", qlist(l.warnings));
  for (const auto& src : l.sources) {
    s += "\n[[source]]\n";
    s += fmt::format("fact = {}\n", q(src.fact));
    s += fmt::format("urls = {}\n", qlist(src.urls));
    s += fmt::format("verified = {}\n", src.verified ? "true" : "false");
  }
  return s;
}

namespace {

struct LockError {
  std::string message;
};

std::string get_str(const toml::table& t, std::string_view table, std::string_view key) {
  const auto* node = t.get(key);
  if (!node) throw LockError{fmt::format("[{}] is missing '{}'", table, key)};
  auto v = node->value<std::string>();
  if (!v) throw LockError{fmt::format("[{}] '{}' must be a string", table, key)};
  return *v;
}

std::vector<std::string> get_list(const toml::table& t, std::string_view table, std::string_view key) {
  std::vector<std::string> out;
  const auto* node = t.get(key);
  if (!node) return out;  // lists may be omitted
  const auto* arr = node->as_array();
  if (!arr) throw LockError{fmt::format("[{}] '{}' must be an array of strings", table, key)};
  for (const auto& e : *arr) {
    auto v = e.value<std::string>();
    if (!v) throw LockError{fmt::format("[{}] '{}' must be an array of strings", table, key)};
    out.push_back(*v);
  }
  return out;
}

const toml::table& get_table(const toml::table& doc, std::string_view key) {
  const auto* node = doc.get(key);
  if (!node || !node->as_table()) throw LockError{fmt::format("missing table [{}]", key)};
  return *node->as_table();
}

}  // namespace

Result<Lock> parse_lock(std::string_view raw, std::string_view name) {
  // A lock saved by Windows tools may carry a BOM or be UTF-16 (PowerShell 5.1's `>`).
  std::string decoded;
  std::string_view text = raw;
  if (detect_bom(raw) != TextEncoding::kPlain) text = decoded = decode_text(raw);
  toml::table doc;
  // toml++ 3.3.0 crashes on some shapes of input: checked first (util/toml_guard.h).
  if (auto guarded = guard_toml(text, name); !guarded) return fail(guarded.error());
  try {
    doc = toml::parse(text, std::string(name));
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return fail(Error::input(fmt::format("{}:{}:{}: {}", name, b.line, b.column, e.description())));
  }
  Lock l;
  try {
    const auto* schema = doc.get("schema");
    if (!schema || !schema->value<int64_t>()) throw LockError{"missing integer 'schema'"};
    if (*schema->value<int64_t>() != kLockSchemaVersion)
      throw LockError{fmt::format("schema {} is not supported (this tfgpu reads schema {})", *schema->value<int64_t>(), kLockSchemaVersion)};
    if (const auto* g = doc.get("generator"); g && g->value<std::string>()) l.generator = *g->value<std::string>();
    const auto& h = get_table(doc, "host");
    l.os = get_str(h, "host", "os");
    l.target = get_str(h, "host", "target");
    l.gpu = get_str(h, "host", "gpu");
    l.gpu_pci_id = get_str(h, "host", "gpu_pci_id");
    l.compute_capability = get_str(h, "host", "compute_capability");
    l.cc_support = get_str(h, "host", "cc_support");
    l.driver_platform = get_str(h, "host", "driver_platform");
    l.driver_min = get_str(h, "host", "driver_min");
    l.driver_recommended = get_str(h, "host", "driver_recommended");
    l.driver_seen = get_str(h, "host", "driver_seen");
    const auto& v = get_table(doc, "versions");
    l.tensorflow = get_str(v, "versions", "tensorflow");
    l.package = get_str(v, "versions", "package");
    l.python = get_str(v, "versions", "python");
    l.cuda = get_str(v, "versions", "cuda");
    l.cudnn = get_str(v, "versions", "cudnn");
    const auto& i = get_table(doc, "install");
    l.method = get_str(i, "install", "method");
    l.env_name = get_str(i, "install", "env_name");
    l.pip = get_list(i, "install", "pip");
    l.pip_hashes_note = get_str(i, "install", "pip_hashes_note");
    l.conda_channel = get_str(i, "install", "conda_channel");
    l.conda_packages = get_list(i, "install", "conda_packages");
    l.cuda_root = get_str(i, "install", "cuda_root");
    l.cudnn_root = get_str(i, "install", "cudnn_root");
    l.path_entries = get_list(i, "install", "path_entries");
    l.cuda_installer = get_str(i, "install", "cuda_installer");
    l.cuda_installer_sha256 = get_str(i, "install", "cuda_installer_sha256");
    l.libraries = get_list(i, "install", "libraries");
    l.docker_image = get_str(i, "install", "docker_image");
    l.warnings = get_list(i, "install", "warnings");
    if (const auto* srcs = doc.get("source")) {
      const auto* arr = srcs->as_array();
      if (!arr) throw LockError{"'source' must be an array of tables ([[source]])"};
      for (const auto& e : *arr) {
        const auto* t = e.as_table();
        if (!t) throw LockError{"'source' must be an array of tables ([[source]])"};
        LockSource s;
        s.fact = get_str(*t, "source", "fact");
        s.urls = get_list(*t, "source", "urls");
        const auto* ver = t->get("verified");
        s.verified = ver && ver->value<bool>() ? *ver->value<bool>() : false;
        l.sources.push_back(std::move(s));
      }
    }
  } catch (const LockError& e) {
    return fail(Error::input(fmt::format("{}: {}", name, e.message)));
  }
  // Values the checks and emitters rely on.
  if (l.os != "windows" && l.os != "linux") return fail(Error::input(fmt::format("{}: [host] os '{}' must be windows or linux", name, l.os)));
  if (!parse_target(l.target)) return fail(Error::input(fmt::format("{}: [host] target '{}' must be native, wsl2 or docker", name, l.target)));
  if (!parse_method(l.method)) return fail(Error::input(fmt::format("{}: [install] method '{}' is unknown", name, l.method)));
  for (auto [key, val] : {std::pair<const char*, const std::string*>{"tensorflow", &l.tensorflow}, {"cuda", &l.cuda},
                          {"cudnn", &l.cudnn}, {"driver_min", &l.driver_min}})
    if (!Version::parse(*val)) return fail(Error::input(fmt::format("{}: '{}' = '{}' is not a version", name, key, *val)));
  if (!l.python.empty() && !Version::parse(l.python))
    return fail(Error::input(fmt::format("{}: 'python' = '{}' is not a version", name, l.python)));
  auto bad_char = [](const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  };
  // Emitted scripts embed these; control characters have no business in them.
  for (const auto* s : {&l.env_name, &l.package, &l.cuda_root, &l.cudnn_root, &l.docker_image, &l.conda_channel})
    if (bad_char(*s)) return fail(Error::input(fmt::format("{}: control character in a value", name)));
  for (const auto* list : {&l.pip, &l.conda_packages, &l.path_entries, &l.libraries})
    for (const auto& s : *list)
      if (bad_char(s)) return fail(Error::input(fmt::format("{}: control character in a value", name)));
  return l;
}

namespace {

Finding drift(std::string id, Layer layer, Severity sev, std::string title, std::vector<Evidence> ev,
              std::vector<std::string> fix) {
  Finding f;
  f.id = std::move(id);
  f.layer = layer;
  f.severity = sev;
  f.title = std::move(title);
  f.evidence = std::move(ev);
  f.fix = std::move(fix);
  return f;
}

const PythonPackage* find_package(const PythonEnv& env, std::string_view name) {
  for (const auto& p : env.packages)
    if (iequals(p.name, name)) return &p;
  return nullptr;
}

}  // namespace

std::vector<Finding> check_lock(const Lock& l, const Snapshot& s) {
  std::vector<Finding> out;
  const std::string lock_src = "tfgpu.lock.toml";
  // Host: the OS / target the lock was made for.
  if (!s.host.os.empty()) {
    bool wsl = s.host.wsl2 == Tri::kYes;
    bool ok = (l.target == "wsl2") ? (wsl || s.host.os == "windows")
              : (l.target == "docker") ? true
              : (s.host.os == l.os && !(l.os == "linux" && wsl && l.target == "native"));
    if (l.target == "native" && l.os == "windows" && s.host.os != "windows") ok = false;
    if (!ok)
      out.push_back(drift("lock_drift_os", Layer::kHardware, Severity::kBlocker,
                          fmt::format("the lock is for {} ({}), this machine is {}{}", l.os, l.target, s.host.os, wsl ? " (WSL2)" : ""),
                          {{fmt::format("lock: os = {}, target = {}", l.os, l.target), lock_src},
                           {fmt::format("machine: {}{}", s.host.os, wsl ? ", WSL2" : ""), s.host.state.source}},
                          {"Plan again for this machine: tfgpu plan --out DIR"}));
  }
  // GPU: compute capability.
  if (!l.compute_capability.empty() && !s.gpus.empty()) {
    bool any = std::any_of(s.gpus.begin(), s.gpus.end(), [&](const GpuInfo& g) {
      return g.compute_capability.empty() || g.compute_capability == l.compute_capability;
    });
    if (!any)
      out.push_back(drift("lock_drift_gpu", Layer::kHardware, Severity::kWarning,
                          fmt::format("the lock was planned for compute capability {} ({}), this machine's GPU is {} (compute {})",
                                      l.compute_capability, l.gpu, s.gpus.front().name, s.gpus.front().compute_capability),
                          {{fmt::format("lock: {} compute {}", l.gpu, l.compute_capability), lock_src},
                           {fmt::format("machine: {} compute {}", s.gpus.front().name, s.gpus.front().compute_capability), s.gpus.front().source}},
                          {"Plan again for this GPU: kernel support differs between compute capabilities"}));
  }
  // Driver.
  auto min = Version::parse(l.driver_min);
  if (s.driver.state.status == ProbeStatus::kOk && !s.driver.version.empty()) {
    auto have = Version::parse(s.driver.version);
    if (min && have && *have < *min)
      out.push_back(drift("lock_drift_driver", Layer::kDriver, Severity::kBlocker,
                          fmt::format("driver {} is older than the lock's minimum {} for CUDA {}", s.driver.version, l.driver_min, l.cuda),
                          {{fmt::format("lock: driver_min = {}", l.driver_min), lock_src},
                           {fmt::format("machine: driver {}", s.driver.version), s.driver.state.source}},
                          {fmt::format("Update the NVIDIA driver to >= {}{}", l.driver_min,
                                       l.target == "wsl2" ? " on the Windows host (never inside WSL2)" : "")}));
  } else if (s.driver.state.status == ProbeStatus::kAbsent) {
    out.push_back(drift("lock_drift_driver", Layer::kDriver, Severity::kBlocker,
                        fmt::format("no NVIDIA driver: the lock needs >= {}", l.driver_min),
                        {{fmt::format("lock: driver_min = {}", l.driver_min), lock_src},
                         {"machine: no driver (" + s.driver.state.reason + ")", s.driver.state.source}},
                        {fmt::format("Install an NVIDIA driver >= {}", l.driver_min)}));
  }
  if (l.target == "docker") return out;  // the image carries TF, CUDA and cuDNN

  // Framework: an environment with the locked TF.
  const PythonEnv* env = nullptr;
  const PythonEnv* other = nullptr;
  std::string other_version;
  for (const auto& p : s.pythons) {
    const PythonPackage* tf = find_package(p, l.package);
    if (!tf) tf = find_package(p, "tensorflow");
    if (!tf) continue;
    if (tf->version == l.tensorflow || starts_with(tf->version, l.tensorflow + ".")) {
      if (!env || p.active) env = &p;
    } else if (!other) {
      other = &p;
      other_version = tf->version;
    }
  }
  if (!env) {
    if (other)
      out.push_back(drift("lock_drift_tensorflow", Layer::kFramework, Severity::kBlocker,
                          fmt::format("TensorFlow {} is installed, the lock pins {}", other_version, l.tensorflow),
                          {{fmt::format("lock: {}=={}", l.package, l.tensorflow), lock_src},
                           {fmt::format("{}: tensorflow {}", other->executable, other_version), other->source}},
                          {fmt::format("Run the plan's setup script again, or: python -m pip install \"{}\"", l.pip.empty() ? l.package + "==" + l.tensorflow : l.pip.front())}));
    else if (s.python_state.status == ProbeStatus::kOk || !s.pythons.empty())
      out.push_back(drift("lock_drift_tensorflow_missing", Layer::kFramework, Severity::kWarning,
                          fmt::format("no Python environment has TensorFlow {} installed", l.tensorflow),
                          {{fmt::format("lock: {}=={}", l.package, l.tensorflow), lock_src}},
                          {"Run the plan's setup script"}));
    return out;
  }
  if (!l.python.empty()) {
    auto want = Version::parse(l.python);
    auto have = Version::parse(env->version);
    if (want && have && have->truncated(2) != want->truncated(2))
      out.push_back(drift("lock_drift_python", Layer::kFramework, Severity::kWarning,
                          fmt::format("TensorFlow {} runs on Python {}, the lock pins Python {}", l.tensorflow, env->version, l.python),
                          {{"lock: python = " + l.python, lock_src}, {env->executable + ": Python " + env->version, env->source}},
                          {fmt::format("Recreate the environment {} with Python {}", l.env_name, l.python)}));
  }
  // Pinned wheels (nvidia-*, from [and-cuda]).
  for (const auto& line : l.pip) {
    auto eq = line.find("==");
    if (eq == std::string::npos || line.find('[') != std::string::npos) continue;
    std::string name = line.substr(0, eq), want = line.substr(eq + 2);
    if (!starts_with(name, "nvidia-")) continue;
    const PythonPackage* p = find_package(*env, name);
    if (!p)
      out.push_back(drift("lock_drift_wheel", Layer::kRuntime, Severity::kBlocker,
                          fmt::format("{} is not installed in {}", name, env->executable),
                          {{"lock: " + line, lock_src}}, {fmt::format("python -m pip install \"{}\"", line)}));
    else if (p->version != want)
      out.push_back(drift("lock_drift_wheel", Layer::kRuntime, Severity::kWarning,
                          fmt::format("{} {} is installed, the lock pins {}", name, p->version, want),
                          {{"lock: " + line, lock_src}, {fmt::format("{} {}", name, p->version), p->source}},
                          {fmt::format("python -m pip install \"{}\"", line)}));
  }
  // Constraints beyond TensorFlow's own requirements ("numpy<2" before TF 2.18): an
  // installed version outside them is the classic "compiled using NumPy 1.x" failure.
  for (const auto& line : l.pip) {
    size_t op = line.find_first_of("<>!");
    if (op == std::string::npos || op == 0 || line.find('[') != std::string::npos) continue;
    std::string name = std::string(trim(line.substr(0, op)));
    const PythonPackage* p = find_package(*env, name);
    if (!p) continue;
    auto have = Version::parse(p->version);
    if (!have) continue;
    bool ok = satisfies_specifier(*have, line.substr(op));
    if (!ok)
      out.push_back(drift("lock_drift_constraint", Layer::kFramework, Severity::kBlocker,
                          fmt::format("{} {} is installed, the lock needs {}", name, p->version, line),
                          {{"lock: " + line, lock_src}, {fmt::format("{} {}", name, p->version), p->source}},
                          {fmt::format("python -m pip install \"{}\"", line)}));
  }
  // System CUDA / cuDNN the lock relies on.
  if (l.method == "system-cuda") {
    auto cuda = Version::parse(l.cuda);
    bool have_cuda = std::any_of(s.cuda.begin(), s.cuda.end(), [&](const CudaInstall& c) {
      auto v = Version::parse(c.version);
      return v && cuda && v->truncated(2) == cuda->truncated(2);
    });
    if (!have_cuda)
      out.push_back(drift("lock_drift_cuda", Layer::kRuntime, Severity::kBlocker,
                          fmt::format("CUDA {} is not installed (the lock uses a system CUDA {})", l.cuda, l.cuda),
                          {{"lock: cuda = " + l.cuda + (l.cuda_root.empty() ? "" : " at " + l.cuda_root), lock_src}},
                          {fmt::format("Install CUDA {}{}", l.cuda, l.cuda_installer.empty() ? "" : " (" + l.cuda_installer + ")")}));
    auto cudnn = Version::parse(l.cudnn);
    bool have_cudnn = std::any_of(s.cudnn.begin(), s.cudnn.end(), [&](const CudnnInstall& c) {
      auto v = Version::parse(c.version);
      return v && cudnn && v->major() == cudnn->major() && v->truncated(2) >= cudnn->truncated(2);
    });
    if (!have_cudnn)
      out.push_back(drift("lock_drift_cudnn", Layer::kRuntime, Severity::kBlocker,
                          fmt::format("no cuDNN {}.x (>= {}) is installed", cudnn ? cudnn->major() : 0, l.cudnn),
                          {{"lock: cudnn = " + l.cudnn, lock_src}},
                          {fmt::format("Install cuDNN {} for CUDA {}", l.cudnn, l.cuda)}));
  }
  return out;
}

}  // namespace tfgpu::plan
