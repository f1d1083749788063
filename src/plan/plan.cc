// The plan solver. Every release in the KB is evaluated against every constraint so
// that the report can say, for each one left out, which constraint excluded it; the
// choice among the feasible ones is then a simple ordering (newest first).
#include "plan/plan.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::plan {
namespace {

std::string platform_label(Platform p, Target t) {
  if (t == Target::kWsl2) return "WSL2";
  if (t == Target::kDocker) return "Docker";
  switch (p) {
    case Platform::kWindows: return "native Windows";
    case Platform::kLinux: return "Linux";
    case Platform::kMacos: return "macOS";
  }
  return "?";
}

std::string series(const Version& v) { return v.truncated(2).str(); }

bool same_minor(const Version& a, const Version& b) { return a.truncated(2) == b.truncated(2); }

std::string range_text(const std::vector<Version>& vs) {
  if (vs.empty()) return "none";
  if (vs.size() == 1) return vs.front().str();
  return vs.front().str() + "-" + vs.back().str();
}

bool system_kind(const std::string& kind) {
  return kind == "toolkit" || kind == "system" || kind == "registry" || kind == "standalone" || kind.empty();
}

// The lowest TF release with a tensorflow[and-cuda] pin row: where the extra starts.
std::optional<Version> and_cuda_start(const kb::KnowledgeBase& kb) {
  std::optional<Version> lo;
  for (const auto& a : kb.and_cuda())
    if (a.tf.lo() && (!lo || *a.tf.lo() < *lo)) lo = *a.tf.lo();
  return lo;
}

}  // namespace

const char* to_string(Target t) {
  switch (t) {
    case Target::kNative: return "native";
    case Target::kWsl2: return "wsl2";
    case Target::kDocker: return "docker";
  }
  return "native";
}

Result<Target> parse_target(std::string_view text) {
  if (text == "native") return Target::kNative;
  if (text == "wsl2" || text == "wsl") return Target::kWsl2;
  if (text == "docker") return Target::kDocker;
  return fail(Error::usage(fmt::format("unknown --target '{}' (expected native, wsl2 or docker)", text)));
}

const char* to_string(Method m) {
  switch (m) {
    case Method::kConda: return "conda";
    case Method::kSystemCuda: return "system-cuda";
    case Method::kPipAndCuda: return "pip-and-cuda";
    case Method::kDocker: return "docker";
  }
  return "system-cuda";
}

Result<Method> parse_method(std::string_view text) {
  for (Method m : {Method::kConda, Method::kSystemCuda, Method::kPipAndCuda, Method::kDocker})
    if (text == to_string(m)) return m;
  return fail(Error::input(fmt::format("unknown install method '{}'", text)));
}

const char* to_string(PlanStatus s) {
  switch (s) {
    case PlanStatus::kOk: return "ok";
    case PlanStatus::kNeedsDriverUpdate: return "needs_driver_update";
    case PlanStatus::kNearest: return "nearest";
    case PlanStatus::kNoPlan: return "no_plan";
  }
  return "no_plan";
}

std::string driver_text(const Version& v) { return kb::driver_version_str(v); }

std::string Option::label() const {
  std::string s = fmt::format("TF {} + CUDA {} + cuDNN {}", tf ? tf->version.str() : "?", cuda.str(), cudnn.str());
  if (python) s += " + Python " + python->str();
  return s;
}

Result<Machine> describe_machine(const Snapshot* snap, const MachineFlags& flags, const kb::KnowledgeBase& kb) {
  Machine m;
  // OS
  if (!flags.os.empty()) {
    std::string os = to_lower(flags.os);
    if (os != "windows" && os != "linux")
      return fail(Error::usage(fmt::format("unknown --os '{}' (expected windows or linux)", flags.os)));
    m.os = os;
    m.os_source = "--os";
  } else if (snap && !snap->host.os.empty()) {
    m.os = snap->host.os;
    m.os_source = "snapshot";
  }
  if (m.os.empty()) return fail(Error::usage("the operating system is unknown: give --snapshot FILE or --os windows|linux"));
  if (snap && snap->host.wsl2 == Tri::kYes && m.os == "linux") m.inside_wsl2 = true;

  // GPU
  if (!flags.gpu.empty()) {
    auto found = kb.find_gpus(flags.gpu);
    if (!found) return fail(Error::usage(fmt::format("--gpu {}: {}", flags.gpu, found.error().message)));
    const kb::Gpu* g = found->front();
    for (const kb::Gpu* other : *found) {
      if (other->cc != g->cc) {
        std::vector<std::string> names;
        for (const kb::Gpu* x : *found) names.push_back(fmt::format("{} ({}, compute {})", x->name, x->pci_id, x->cc.str()));
        if (names.size() > 6) names.resize(6);
        return fail(Error::usage(fmt::format("--gpu '{}' is ambiguous: {}; give the PCI id", flags.gpu, join(names, ", "))));
      }
    }
    m.gpu_name = g->name;
    m.gpu_pci_id = g->pci_id;
    m.cc = g->cc;
    m.gpu_source = "--gpu (kb:gpus.toml)";
  } else if (snap && !snap->gpus.empty()) {
    const GpuInfo& g = snap->gpus.front();
    m.gpu_name = g.name;
    m.gpu_pci_id = g.pci_id;
    m.gpu_source = "snapshot (" + g.source + ")";
    if (!g.compute_capability.empty()) {
      if (auto cc = kb::ComputeCapability::parse(g.compute_capability)) m.cc = *cc;
    }
    if (!m.cc && !g.pci_id.empty()) {
      if (auto r = kb.find_gpu_by_pci(g.pci_id)) {
        m.cc = (*r)->cc;
        if (m.gpu_name.empty()) m.gpu_name = (*r)->name;
        m.gpu_source += ", compute capability from kb:gpus.toml";
      }
    }
    if (snap->gpus.size() > 1) m.notes.push_back(fmt::format("{} GPUs: planned for the first, {}", snap->gpus.size(), g.name));
  }
  if (flags.gpu.empty() && snap && snap->gpus.empty() && snap->gpu_state.status == ProbeStatus::kAbsent)
    m.notes.insert(m.notes.begin(),
                   fmt::format("{} has no NVIDIA GPU ({}): TensorFlow will run on the CPU here whatever is installed; give --gpu NAME to plan for a card you will add",
                               snap->origin == "probe" ? "this machine" : "the machine in the snapshot",
                               snap->gpu_state.reason.empty() ? "none seen" : snap->gpu_state.reason));
  if (!m.cc) m.notes.push_back("GPU compute capability unknown (give --gpu NAME|PCI-ID): kernel support not checked");

  // Driver
  if (!flags.driver.empty()) {
    auto v = Version::parse(flags.driver);
    if (!v) return fail(Error::usage(fmt::format("--driver '{}': not a driver version (e.g. 522.06)", flags.driver)));
    m.driver = *v;
    m.driver_source = "--driver";
  } else if (snap && snap->driver.state.status == ProbeStatus::kOk && !snap->driver.version.empty()) {
    if (auto v = Version::parse(snap->driver.version)) {
      m.driver = *v;
      m.driver_source = "snapshot (" + snap->driver.state.source + ")";
    }
  }
  if (!m.driver) m.notes.push_back("no NVIDIA driver known (give --driver VERSION): the plan names the minimum to install");

  // Python
  if (!flags.python.empty()) {
    auto v = Version::parse(flags.python);
    if (!v || v->size() < 2)
      return fail(Error::usage(fmt::format("--python '{}': expected major.minor, e.g. 3.10", flags.python)));
    m.python = v->truncated(2);
    // A Python no plannable TensorFlow release has wheels for (3.99, 3.4) is a typo or a
    // dead end, not a plan to search: say which ones the KB knows.
    std::set<Version> known;
    for (const auto& tf : kb.tf_releases())
      if (tf.plan)
        for (const auto& [platform, pys] : tf.python)
          for (const auto& py : pys) known.insert(py.truncated(2));
    if (!known.empty() && !known.count(*m.python))
      return fail(Error::usage(fmt::format(
          "--python {}: no TensorFlow release in the knowledge base has wheels for Python {}; give one of {} to {} "
          "(major.minor, e.g. 3.11)",
          flags.python, m.python->str(), known.begin()->str(), known.rbegin()->str())));
  }
  if (snap) {
    std::set<Version> seen;
    for (const auto& p : snap->pythons)
      if (auto v = Version::parse(p.version); v && v->size() >= 2) seen.insert(v->truncated(2));
    m.installed_pythons.assign(seen.begin(), seen.end());
    for (const auto& c : snap->cuda)
      if (auto v = Version::parse(c.version)) m.cuda.push_back({*v, c.root, c.kind});
    for (const auto& c : snap->cudnn)
      if (auto v = Version::parse(c.version)) m.cudnn.push_back({*v, c.root, c.kind});
  }
  return m;
}

namespace {

struct Evaluated {
  Option option;
  std::vector<Rejection> rejections;
  bool driver_only() const {
    return !rejections.empty() && std::all_of(rejections.begin(), rejections.end(),
                                              [](const Rejection& r) { return r.constraint == "driver"; });
  }
};

Evaluated evaluate(const kb::TfRelease& tf, const Machine& m, Target target, Platform tf_platform,
                   Platform driver_platform, Preference pref, const kb::KnowledgeBase& kb, const Packaging& pk) {
  Evaluated e;
  Option& o = e.option;
  o.tf = &tf;
  o.tf_platform = tf_platform;
  o.driver_platform = driver_platform;
  o.cuda = tf.cuda;
  o.cudnn = tf.cudnn;
  o.cites.push_back(kb.cite(tf));
  const std::string who = fmt::format("TF {} on {}", series(tf.version), platform_label(tf_platform, target));
  auto reject = [&](std::string constraint, std::string reason) {
    e.rejections.push_back({tf.version, std::move(constraint), std::move(reason)});
  };

  // OS / platform: is there a CUDA build of this release for the wheel's platform?
  if (!tf.has_gpu_build(tf_platform)) {
    std::string why = fmt::format("{}: no GPU build", who);
    if (const kb::PlatformNote* n = kb.platform_note(tf, tf_platform)) why += " (" + n->message + ")";
    reject("no_gpu_build", why);
  }
  if (const kb::TfPackage* gpu = kb.gpu_package(tf, tf_platform)) {
    o.package = gpu->name;
    o.cites.push_back(kb.cite(*gpu));
  }
  if (o.package.empty()) o.package = "tensorflow";

  // GPU: kernels in the wheel, and the toolkit's architecture range.
  if (m.cc) {
    auto cs = kb.tf_cc_support(tf, *m.cc);
    o.cc_support = cs.support;
    o.cc_detail = cs.detail;
    for (auto& c : cs.cites) o.cites.push_back(std::move(c));
    std::string gpu = fmt::format("{} (compute {})", m.gpu_name.empty() ? "the GPU" : m.gpu_name, m.cc->str());
    if (cs.support == kb::CcSupport::kIgnored)
      reject("compute_capability", fmt::format("TF {} on {}: {}", series(tf.version), gpu, cs.detail));
    else if (cs.support == kb::CcSupport::kPtxJit)
      o.warnings.push_back(fmt::format("{}: {}", gpu, cs.detail));
    else if (cs.support == kb::CcSupport::kUnknown)
      o.warnings.push_back(cs.detail + "; only the CUDA toolkit's architecture range was checked");
    if (const kb::CudaRelease* cr = kb.find_cuda(tf.cuda)) {
      if (*m.cc < cr->sass_min)
        reject("cuda_arch", fmt::format("TF {} uses CUDA {}, which cannot build for compute {} (lowest {})",
                                        series(tf.version), tf.cuda.str(), m.cc->str(), cr->sass_min.str()));
    }
  }

  // Driver: the minimum for the release's CUDA on the driver's platform.
  auto req = kb.min_driver(tf.cuda, driver_platform, kb::DriverPolicy::kMinorVersionCompat);
  if (!req) {
    reject("driver", fmt::format("TF {} uses CUDA {}: {}", series(tf.version), tf.cuda.str(), req.error().message));
  } else {
    o.min_driver = req->min_driver;
    o.driver_basis = req->basis;
    for (auto& c : req->cites) o.cites.push_back(std::move(c));
    // Inside WSL2 the Windows driver serves CUDA: the KB's WSL2 minimum where one is stated
    // (the same number doctor and matrix give).
    if (target == Target::kWsl2)
      if (const kb::Wsl2Driver* w = kb.wsl2_driver(tf.cuda); w && o.min_driver < w->driver) {
        o.min_driver = w->driver;
        o.driver_basis = w->note;
        o.cites.push_back(kb.cite(*w));
      }
    if (auto exact = kb.min_driver(tf.cuda, driver_platform, kb::DriverPolicy::kToolkitExact);
        exact && exact->policy == kb::DriverPolicy::kToolkitExact && exact->min_driver > o.min_driver)
      o.recommended_driver = exact->min_driver;
    if (m.driver && *m.driver < o.min_driver)
      reject("driver", fmt::format("TF {} uses CUDA {}: needs a {} driver >= {} ({}), this machine has {}",
                                   series(tf.version), tf.cuda.str(), platform_name(driver_platform),
                                   driver_text(o.min_driver), o.driver_basis, driver_text(*m.driver)));
  }

  // Python: wheels exist for the tested versions of the wheel's platform.
  if (target != Target::kDocker && tf.has_gpu_build(tf_platform)) {
    const std::vector<Version>* pys = tf.python_on(tf_platform);
    if (!pys || pys->empty()) {
      reject("no_python_list", fmt::format("{}: the knowledge base lists no Python versions", who));
    } else if (m.python) {
      bool ok = std::any_of(pys->begin(), pys->end(), [&](const Version& v) { return same_minor(v, *m.python); });
      if (!ok)
        reject("python", fmt::format("TF {} has no {} wheel for Python {} (Python {})", series(tf.version),
                                     platform_name(tf_platform), m.python->str(), range_text(*pys)));
      else
        o.python = m.python;
    } else {
      if (pref == Preference::kReuse) {
        for (auto it = pys->rbegin(); it != pys->rend() && !o.python; ++it)
          for (const auto& inst : m.installed_pythons)
            if (same_minor(*it, inst)) o.python = it->truncated(2);
      }
      if (!o.python) o.python = pys->back().truncated(2);
    }
    if (o.python)
      o.python_reused = std::any_of(m.installed_pythons.begin(), m.installed_pythons.end(),
                                    [&](const Version& v) { return same_minor(v, *o.python); });
  }

  // What is installed already: a system CUDA of the same major.minor and a cuDNN that
  // satisfies TF's own check are reused rather than installing another copy.
  if (target != Target::kDocker) {
    for (const auto& c : m.cuda)
      if (system_kind(c.kind) && same_minor(c.version, tf.cuda)) o.reuse_cuda = c;
    for (const auto& c : m.cudnn)
      if (system_kind(c.kind) && tf.loads_cudnn(c.version)) o.reuse_cudnn = c;
  }

  // Install method.
  if (target == Target::kDocker) {
    o.method = Method::kDocker;
    if (!pk.docker_for(tf.version)) reject("docker_image", fmt::format("TF {}: no official GPU image in the knowledge base", series(tf.version)));
  } else if (tf_platform == Platform::kWindows) {
    if (o.reuse_cuda) o.method = Method::kSystemCuda;
    else if (pk.conda_for(Platform::kWindows, tf.cuda, tf.cudnn)) o.method = Method::kConda;
    else o.method = Method::kSystemCuda;
  } else {
    auto start = and_cuda_start(kb);
    bool and_cuda = start && tf.version >= *start;
    if (and_cuda && !(pref == Preference::kReuse && o.reuse_cuda && o.reuse_cudnn)) o.method = Method::kPipAndCuda;
    else o.method = Method::kSystemCuda;
    if (o.method == Method::kPipAndCuda)
      if (const kb::AndCudaPins* pins = kb.and_cuda_for(tf)) o.cites.push_back(kb.cite(*pins));
    // A pin of the extra that pip cannot install for the chosen Python: take another
    // supported Python (installed first), or warn when --python forces this one.
    const std::vector<Version>* pys = tf.python_on(tf_platform);
    if (o.method == Method::kPipAndCuda && o.python && pys) {
      if (const AndCudaGap* gap = pk.and_cuda_gap(tf.version, *o.python)) {
        kb::Citation cite{fmt::format("tensorflow[and-cuda] {} gap: {}", gap->tf.str(), gap->wheel), {}, gap->prov.verified};
        for (const auto& s : gap->prov.source) cite.sources.push_back(kb.resolve_source(s));
        o.cites.push_back(std::move(cite));
        std::string why = fmt::format("{} (from tensorflow[and-cuda]=={}) cannot be installed by pip for Python {}",
                                      gap->wheel, tf.version.str(), o.python->str());
        // No Python the extra installs on: the same release from the system CUDA toolkit
        // (pip installs plain tensorflow, whose requirements resolve).
        auto system_cuda = [&] {
          o.warnings.push_back(why + ": planned with the system CUDA toolkit instead (" + gap->note + ")");
          o.method = Method::kSystemCuda;
        };
        if (m.python) {
          system_cuda();
        } else {
          std::optional<Version> alt;
          auto installed = [&](const Version& v) {
            return std::any_of(m.installed_pythons.begin(), m.installed_pythons.end(),
                               [&](const Version& i) { return same_minor(i, v); });
          };
          for (int pass = pref == Preference::kReuse ? 0 : 1; pass < 2 && !alt; ++pass)
            for (auto it = pys->rbegin(); it != pys->rend() && !alt; ++it)
              if (!pk.and_cuda_gap(tf.version, *it) && (pass == 1 || installed(*it))) alt = it->truncated(2);
          if (alt) {
            o.warnings.push_back(why + fmt::format(": planned with Python {} instead", alt->str()));
            o.python = alt;
            o.python_reused = std::any_of(m.installed_pythons.begin(), m.installed_pythons.end(),
                                          [&](const Version& v) { return same_minor(v, *alt); });
          } else {
            system_cuda();
          }
        }
      }
    }
  }
  // Only a system-CUDA plan uses what is installed; others must not claim to reuse it.
  if (o.method != Method::kSystemCuda) {
    o.reuse_cuda.reset();
    o.reuse_cudnn.reset();
  }
  for (const auto& n : tf.notes)
    if (icontains(n, "LD_LIBRARY_PATH") && o.method == Method::kPipAndCuda) o.warnings.push_back(n);
  return e;
}

int distance(const Version& a, const Version& b) {
  return std::abs((a.major() * 100 + a.minor()) - (b.major() * 100 + b.minor()));
}

std::string driver_step(const Option& o, const Machine& m, Target target) {
  std::string where;
  if (target == Target::kWsl2 || (o.driver_platform == Platform::kWindows && o.tf_platform == Platform::kLinux))
    where = " on the Windows host (never install a Linux NVIDIA driver inside WSL2)";
  if (m.driver)
    return fmt::format("Update the NVIDIA driver to >= {}{} (this machine has {}; {})", driver_text(o.min_driver), where,
                       driver_text(*m.driver), o.driver_basis);
  return fmt::format("Install an NVIDIA driver >= {}{} ({})", driver_text(o.min_driver), where, o.driver_basis);
}

}  // namespace

Result<PlanResult> solve(const Machine& machine, const PlanRequest& request, const kb::KnowledgeBase& kb,
                         const Packaging& pk) {
  PlanResult out;
  out.machine = machine;
  Target target = request.target.value_or(machine.inside_wsl2 ? Target::kWsl2 : Target::kNative);
  if (target == Target::kNative && machine.inside_wsl2) {
    target = Target::kWsl2;
    out.explanation.push_back("the snapshot is from inside WSL2: planned for the wsl2 target");
  }
  if (target == Target::kWsl2 && machine.os != "windows" && !machine.inside_wsl2)
    return fail(Error::usage("--target wsl2 needs a Windows machine (--os windows) or a snapshot taken inside WSL2"));
  out.target = target;

  Platform tf_platform = Platform::kLinux;
  if (machine.os == "macos") tf_platform = Platform::kMacos;
  if (target == Target::kNative && machine.os == "windows") tf_platform = Platform::kWindows;
  if (target != Target::kNative && machine.os == "macos")
    return fail(Error::usage(fmt::format("--target {} needs a Windows or Linux host with an NVIDIA GPU", to_string(target))));
  Platform driver_platform = (machine.os == "windows" || machine.inside_wsl2) ? Platform::kWindows : Platform::kLinux;

  const kb::TfRelease* wanted = nullptr;
  if (request.tf) {
    auto r = kb.find_tf(*request.tf);
    if (!r) return fail(Error::usage(fmt::format("--tf {}: {}", *request.tf, r.error().message)));
    wanted = r->release;
    if (!r->note.empty()) out.explanation.push_back(r->note);
  }

  std::vector<Evaluated> all;
  for (const auto& tf : kb.tf_releases())
    if (tf.plan || (wanted && wanted->version == tf.version))
      all.push_back(evaluate(tf, machine, target, tf_platform, driver_platform, request.preference, kb, pk));
  std::sort(all.begin(), all.end(), [](const Evaluated& a, const Evaluated& b) { return a.option.tf->version > b.option.tf->version; });

  std::vector<const Evaluated*> feasible, driver_only;
  for (const auto& e : all) {
    if (e.rejections.empty()) feasible.push_back(&e);
    else if (e.driver_only()) driver_only.push_back(&e);
    for (const auto& r : e.rejections) out.rejected.push_back(r);
  }

  const Evaluated* chosen = nullptr;
  if (wanted) {
    auto it = std::find_if(all.begin(), all.end(), [&](const Evaluated& e) { return e.option.tf == wanted; });
    const Evaluated& w = *it;
    if (w.rejections.empty()) {
      chosen = &w;
      out.status = PlanStatus::kOk;
    } else if (w.driver_only()) {
      chosen = &w;
      out.status = PlanStatus::kNeedsDriverUpdate;
    } else {
      for (const auto& r : w.rejections) out.explanation.push_back("cannot plan " + r.reason);
      const auto& pool = !feasible.empty() ? feasible : driver_only;
      for (const Evaluated* e : pool)  // newest first, so ties go to the newer release
        if (!chosen || distance(e->option.tf->version, wanted->version) < distance(chosen->option.tf->version, wanted->version))
          chosen = e;
      if (chosen) {
        out.status = PlanStatus::kNearest;
        out.explanation.push_back(fmt::format("nearest feasible plan: {}", chosen->option.label()));
      }
      bool no_windows_build = std::any_of(w.rejections.begin(), w.rejections.end(),
                                          [](const Rejection& r) { return r.constraint == "no_gpu_build"; });
      if (no_windows_build && tf_platform == Platform::kWindows)
        out.explanation.push_back(fmt::format("TF {} uses the GPU only in WSL2 on Windows: tfgpu plan --tf {} --target wsl2",
                                              series(wanted->version), series(wanted->version)));
    }
  } else if (!feasible.empty()) {
    chosen = feasible.front();
    out.status = PlanStatus::kOk;
  } else if (!driver_only.empty()) {
    chosen = driver_only.front();
    out.status = PlanStatus::kNeedsDriverUpdate;
    out.explanation.push_back(fmt::format("the driver {} is too old for every TensorFlow GPU build that fits this machine",
                                          machine.driver ? driver_text(*machine.driver) : "?"));
  }
  if (!chosen) {
    out.status = PlanStatus::kNoPlan;
    std::set<std::string> kinds;
    for (const auto& e : all)
      for (const auto& r : e.rejections) kinds.insert(r.constraint);
    out.explanation.push_back(fmt::format("no TensorFlow release in the knowledge base fits: every one fails on {}",
                                          join(std::vector<std::string>(kinds.begin(), kinds.end()), ", ")));
    if (tf_platform == Platform::kMacos)
      out.explanation.push_back("there is no CUDA build of TensorFlow for macOS");
    return out;
  }
  out.chosen = chosen->option;
  for (const Evaluated* e : feasible) {
    if (e == chosen || out.runners_up.size() >= 3) continue;
    out.runners_up.push_back(e->option);
  }

  // Steps, in order: the driver first when it is missing or too old.
  const Option& o = *out.chosen;
  if (!machine.driver || *machine.driver < o.min_driver) out.steps.push_back(driver_step(o, machine, target));
  switch (o.method) {
    case Method::kConda:
      out.steps.push_back(fmt::format("Run setup.ps1: conda env with Python {} and the CUDA {} / cuDNN {} conda packages, then pip install {}=={}",
                                      o.python ? o.python->str() : "?", o.cuda.str(), o.cudnn.str(), o.package, o.tf->version.str()));
      break;
    case Method::kSystemCuda: {
      if (o.reuse_cuda) out.steps.push_back(fmt::format("Reuse the installed CUDA {} at {}", o.reuse_cuda->version.str(), o.reuse_cuda->root));
      else out.steps.push_back(fmt::format("Install the CUDA {} toolkit{}", o.cuda.str(),
                                           o.tf_platform == Platform::kLinux && target == Target::kWsl2 ? " from NVIDIA's wsl-ubuntu repository (cuda-toolkit only, never cuda or cuda-drivers)" : ""));
      if (o.reuse_cudnn) out.steps.push_back(fmt::format("Reuse the installed cuDNN {} at {}", o.reuse_cudnn->version.str(), o.reuse_cudnn->root));
      else out.steps.push_back(fmt::format("Install cuDNN {} for CUDA {}", o.cudnn.str(), o.cuda.major()));
      out.steps.push_back(fmt::format("Run {}: venv with Python {}, pip install {}=={}",
                                      o.tf_platform == Platform::kWindows ? "setup.ps1" : "setup.sh",
                                      o.python ? o.python->str() : "?", o.package, o.tf->version.str()));
      break;
    }
    case Method::kPipAndCuda:
      out.steps.push_back(fmt::format("Run setup.sh: venv with Python {}, pip install \"{}[and-cuda]=={}\" (CUDA and cuDNN come as pip wheels)",
                                      o.python ? o.python->str() : "?", o.package, o.tf->version.str()));
      break;
    case Method::kDocker:
      out.steps.push_back("Install the NVIDIA Container Toolkit on the host");
      out.steps.push_back("docker build -t tfgpu-plan . && docker run --rm --gpus all tfgpu-plan");
      break;
  }
  if (o.method != Method::kDocker) out.steps.push_back("Run verify.py in the new environment: one line for you, then one JSON object");
  return out;
}

}  // namespace tfgpu::plan
