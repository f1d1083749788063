#include "cli/verify_prediction.h"

#include <algorithm>

#include <fmt/format.h>

#include "python/path_util.h"
#include "rules/rule_support.h"
#include "rules/rules.h"

namespace tfgpu {

// cmd_doctor_live.cc: the same live probe `tfgpu doctor` runs, with extra interpreters.
Result<Snapshot> doctor_live_snapshot(const Host& host, const kb::KnowledgeBase& kb,
                                      const std::vector<std::string>& extra_pythons);

gpu::TfPrediction prediction_from_verdict(const Verdict& v) {
  gpu::TfPrediction p;
  switch (v.kind) {
    case VerdictKind::kWillUseGpu:
      p.outcome = gpu::TfPrediction::Outcome::kWillUseGpu;
      p.gpus = std::max(0, v.gpu_count);
      break;
    case VerdictKind::kWillNotUseGpu:
    case VerdictKind::kNoTensorflow:
      p.outcome = gpu::TfPrediction::Outcome::kWillNotUseGpu;
      break;
    case VerdictKind::kCannotTell:
      p.outcome = gpu::TfPrediction::Outcome::kUnknown;
      break;
  }
  p.reasons = v.because;
  p.source = "tfgpu doctor";
  if (!v.env.empty()) p.source += " (" + v.env + ")";
  return p;
}

namespace {

// "/venv/bin/python3" -> "<resolved /venv/bin>/python3": the folder resolved, the last
// link kept, so two venvs linking to one base interpreter stay two.
std::string resolve_dir(const std::string& path, const PathResolver& resolve) {
  std::string dir = python::path_dirname(path);
  if (dir.empty()) return path;
  return python::path_join(resolve(dir), python::path_basename(path));
}

}  // namespace

DoctorPrediction prediction_for_python(const Snapshot& s, const std::vector<Verdict>& verdicts,
                                       const std::string& python, const PathResolver& resolve) {
  DoctorPrediction out;
  const std::string want = python::path_clean(python);
  auto pick = [&](auto same) -> const PythonEnv* {
    const PythonEnv* found = nullptr;
    for (const auto& py : s.pythons) {
      if (!same(py)) continue;
      if (found) return nullptr;  // ambiguous at this level
      found = &py;
    }
    return found;
  };
  const PythonEnv* env = pick([&](const PythonEnv& py) { return python::path_clean(py.executable) == want; });
  if (!env)
    env = pick([&](const PythonEnv& py) { return !py.prefix.empty() && python::path_clean(py.prefix) == want; });
  if (!env) {
    std::string w = resolve_dir(want, resolve);
    env = pick([&](const PythonEnv& py) { return resolve_dir(python::path_clean(py.executable), resolve) == w; });
  }
  if (!env) {
    std::string w = resolve(want);
    env = pick([&](const PythonEnv& py) {
      return resolve(python::path_clean(py.executable)) == w || (!py.prefix.empty() && resolve(py.prefix) == w);
    });
  }
  if (!env) {
    out.note = fmt::format("no prediction for {}: doctor did not find this interpreter", python);
    return out;
  }
  out.env = env;
  if (env->tensorflow.empty()) {
    gpu::TfPrediction p;
    p.outcome = gpu::TfPrediction::Outcome::kWillNotUseGpu;
    p.reasons = {"TensorFlow is not installed in this environment"};
    p.source = "tfgpu doctor (" + rules::env_label(*env) + ")";
    out.prediction = p;
    return out;
  }
  const std::string label = rules::env_label(*env);
  for (const auto& v : verdicts) {
    if (v.env == label) {
      out.prediction = prediction_from_verdict(v);
      return out;
    }
  }
  out.note = fmt::format("no prediction for {}: doctor gave no verdict for {}", python, label);
  return out;
}

std::vector<gpu::LibraryChoice> model_library_choices(const Snapshot& s, const kb::KnowledgeBase& kb,
                                                      const PythonEnv& env, const PathResolver& resolve) {
  std::vector<gpu::LibraryChoice> out;
  auto wp = rules::wheel_platform(s);
  if (!wp) return out;
  for (const auto& e : rules::tf_envs(s, kb)) {
    if (e.py != &env || !e.release || !rules::tf_gpu_build(e, s, kb)) continue;
    for (const auto& lib : kb.tf_libraries(*e.release, *wp).libraries) {
      // Optional ones load later or on demand: their absence from the maps says nothing.
      // The driver is loaded first of all (cuInit), so it is compared too.
      if (!lib.must_load && lib.component != "driver") continue;
      rules::Resolution r = rules::resolve(s, &e, lib.file);
      gpu::LibraryChoice c;
      c.name = lib.file;
      c.component = lib.component;
      c.path = r.found_path;
      if (!c.path.empty()) c.canonical = resolve(c.path);
      else c.why = r.loader.error.empty() ? loader::to_string(r.loader.outcome) : r.loader.error;
      out.push_back(std::move(c));
    }
  }
  return out;
}

DoctorPrediction predict_with_doctor(const Host& host, const kb::KnowledgeBase& kb, const std::string& python) {
  auto snap = doctor_live_snapshot(host, kb, {python});
  if (!snap) {
    DoctorPrediction out;
    out.note = fmt::format("no prediction for {}: the probe failed: {}", python, snap.error().message);
    return out;
  }
  auto findings = run_rules(*snap, kb);
  auto verdicts = build_verdicts(*snap, kb, findings);
  PathResolver canonical = [&host](const std::string& p) {
    auto c = host.canonical(p);
    return c ? *c : p;
  };
  DoctorPrediction out = prediction_for_python(*snap, verdicts, python, canonical);
  if (out.prediction && out.env) out.prediction->libraries = model_library_choices(*snap, kb, *out.env, canonical);
  out.env = nullptr;  // the snapshot ends here
  return out;
}

}  // namespace tfgpu
