#include "rules/runtime_loads.h"

#include <algorithm>

#include <fmt/format.h>

#include "probe/runtime_names.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

// The innermost active scope of this thread (run_rules runs the rules on one thread).
thread_local LoaderScope* g_scope = nullptr;

// The probe records every file whose name it tracks (probe/runtime_names.h) in the
// dirs it searches; a name it does not track may be on disk unrecorded, so the loader
// model answers "unknown" rather than "absent" for it.
bool probed_name(std::string_view name) { return !probe::library_component(std::string(name)).empty(); }

// `conda activate` on Windows puts these first on PATH (conda/activate.py,
// _get_path_dirs); TF in a conda env runs with them even when the probing shell had
// another env active.
std::vector<std::string> conda_activation_dirs(const PythonEnv& py) {
  const std::string& p = py.prefix;
  return {p, p + "\\Library\\mingw-w64\\bin", p + "\\Library\\usr\\bin", p + "\\Library\\bin", p + "\\Scripts", p + "\\bin"};
}

std::shared_ptr<const EnvLoads> compute(const Snapshot& s, const kb::KnowledgeBase& kb, const TfEnv& env) {
  auto out = std::make_shared<EnvLoads>();
  out->py = env.py;
  auto process = loader::tensorflow_process(s, *env.py, *env.tf);
  if (!process) {
    out->error = process.error().message;
    return out;
  }
  if (process->platform == Platform::kWindows && env.py->kind == "conda" && !env.py->prefix.empty()) {
    std::string library_bin = norm_path(s, env.py->prefix + "\\Library\\bin");
    bool active = false;
    for (const auto& e : path_entries(s, "PATH")) active = active || norm_path(s, e) == library_bin;
    if (!active) {
      out->path_added = conda_activation_dirs(*env.py);
      std::string& path = process->windows_process.path_env;
      path = join(out->path_added, ";") + (path.empty() ? "" : ";" + path);
      process->notes.push_back(fmt::format("conda activate puts {} first on PATH", join(out->path_added, ";")));
    }
  }
  auto platform = wheel_platform(s).value_or(process->platform);
  std::vector<loader::WantedLibrary> kb_names;
  if (env.release && tf_gpu_build(env, s, kb)) {
    const kb::TfLibraries libs = kb.tf_libraries(*env.release, platform);
    for (const auto& l : libs.libraries) kb_names.push_back({l.component, l.file, l.must_load, "kb"});
    // TensorRT last: TF opens it at start too, but a failure there changes nothing above.
    for (const auto& l : libs.optional) kb_names.push_back({l.component, l.file, false, "kb"});
  }
  out->wanted = loader::tensorflow_libraries(*env.tf, process->platform, kb_names);
  out->report = loader::simulate_tensorflow_loads(s, *process, out->wanted.libraries, probed_name);
  out->process = std::move(*process);
  if (out->process->platform == Platform::kWindows) {
    if (auto w = loader::WindowsLoader::create(s, out->process->windows_process, {probed_name}))
      out->windows_finder = std::make_shared<const loader::WindowsLoader>(std::move(*w));
  } else if (auto ld = loader::LdSo::create(s, out->process->linux_process, {probed_name})) {
    out->linux_finder = std::make_shared<const loader::LdSo>(std::move(*ld));
  }
  return out;
}

}  // namespace

const loader::TfLoad* EnvLoads::load_of(std::string_view file) const {
  bool windows = process && process->platform == Platform::kWindows;
  for (const auto& l : report.loads)
    if (windows ? iequals(l.wanted.file, file) : l.wanted.file == file) return &l;
  return nullptr;
}

LoaderScope::LoaderScope(const Snapshot& s, const kb::KnowledgeBase& kb) : s_(&s), kb_(&kb), outer_(g_scope) {
  if (outer_ && outer_->s_ == s_ && outer_->kb_ == kb_) shared_ = outer_->shared_ ? outer_->shared_ : outer_;
  g_scope = this;
}

LoaderScope::~LoaderScope() { g_scope = outer_; }

std::shared_ptr<const EnvLoads> loads_for(const Snapshot& s, const kb::KnowledgeBase& kb, const TfEnv& env) {
  if (g_scope && g_scope->snapshot() == &s && g_scope->kb() == &kb) {
    auto& slot = g_scope->cache()[env.py];
    if (!slot) slot = compute(s, kb, env);
    return slot;
  }
  return compute(s, kb, env);
}

loader::Resolution search_library(const Snapshot& s, const EnvLoads* loads, const std::string& name) {
  loader::Resolution none;
  none.name = name;
  none.outcome = loader::Outcome::kUnknown;
  if (loads && loads->process) {
    const loader::TfProcess& p = *loads->process;
    if (p.platform == Platform::kWindows)
      return loads->windows_finder ? loads->windows_finder->find(name, loader::SearchFlags::kAlteredSearchPath) : none;
    return loads->linux_finder ? loads->linux_finder->find(name, p.linux_process.caller) : none;
  }
  if (is_windows(s)) {
    loader::WindowsProcess p;
    p.app_dir = !s.pythons.empty() && !s.pythons.front().executable.empty() ? dir_of(s.pythons.front().executable)
                                                                             : s.loader.system_dir;
    p.path_env = env_var(s, "PATH").value_or("");
    auto w = loader::WindowsLoader::create(s, std::move(p), {probed_name});
    if (!w) return none;
    return w->find(name, loader::SearchFlags::kNone);
  }
  loader::LinuxProcess p;
  loader::LinuxObject main_obj;
  main_obj.path = !s.pythons.empty() ? s.pythons.front().executable : "";
  main_obj.elf.bits = 64;
  p.objects.push_back(std::move(main_obj));
  p.ld_library_path = env_var(s, "LD_LIBRARY_PATH");
  p.cwd = env_var(s, "PWD").value_or("");
  auto ld = loader::LdSo::create(s, std::move(p), {probed_name});
  if (!ld) return none;
  return ld->find(name, 0);
}

std::vector<TrailStep> trail_steps(const Snapshot& s, const loader::Resolution& r) {
  std::vector<TrailStep> out;
  for (const auto& step : r.trail) {
    TrailStep t;
    t.source = step.source;
    t.path = step.path.empty() ? step.dir : step.path;
    t.why = loader::to_string(step.why);
    t.detail = step.detail;
    if ((step.source == "PATH" || step.source == "LD_LIBRARY_PATH") && !step.dir.empty()) {
      // The loader splits the variable the way the platform does; the position is the
      // entry's place in the variable as the user sees and edits it.
      std::vector<std::string> entries;
      if (auto v = env_var(s, step.source))
        entries = step.source == "PATH" && is_windows(s) ? split_nonempty(*v, ';') : split(*v, ':');
      std::string want = norm_path(s, step.dir);
      for (size_t i = 0; i < entries.size(); ++i)
        if (!entries[i].empty() && norm_path(s, std::string(trim(entries[i]))) == want) {
          t.position = static_cast<int>(i) + 1;
          break;
        }
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::string step_place(const TrailStep& step) {
  if (step.position > 0) return fmt::format("{} #{}", step.source, step.position);
  if (step.source == "PATH") return "PATH (conda activate)";  // a dir the user's PATH lacks
  return step.source;
}

Evidence trail_evidence(const Snapshot& s, std::string text, const loader::Resolution& r) {
  Evidence e = fact(std::move(text), "loader model");
  e.trail = trail_steps(s, r);
  return e;
}

}  // namespace tfgpu::rules
