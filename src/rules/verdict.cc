#include "rules/verdict.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "rules/rule_support.h"
#include "rules/rules.h"
#include "rules/runtime_loads.h"
#include "util/error.h"
#include "util/strings.h"

namespace tfgpu {

using namespace rules;

const char* to_string(VerdictKind k) {
  switch (k) {
    case VerdictKind::kWillUseGpu:
      return "will_use_gpu";
    case VerdictKind::kWillNotUseGpu:
      return "will_not_use_gpu";
    case VerdictKind::kCannotTell:
      return "cannot_tell";
    case VerdictKind::kNoTensorflow:
      return "no_tensorflow";
  }
  return "unknown";
}

int doctor_exit_code(const std::vector<Finding>& findings) {
  for (const auto& f : findings)
    if (f.severity == Severity::kBlocker) return kExitProblems;
  return kExitOk;
}

namespace {

// Blockers by environment ("" = the machine's, which hold for every environment), in
// findings order: built once, so that the verdicts stay linear in the number of findings.
using BlockerIndex = std::unordered_map<std::string, std::vector<const Finding*>>;
BlockerIndex index_blockers(const std::vector<Finding>& findings) {
  BlockerIndex out;
  for (const auto& f : findings)
    if (f.severity == Severity::kBlocker) out[f.env].push_back(&f);
  return out;
}

std::vector<const Finding*> blockers_for(const BlockerIndex& index, const std::string& env) {
  std::vector<const Finding*> out;
  auto machine = index.find("");
  auto own = env.empty() ? index.end() : index.find(env);
  // Merged back into findings order (both lists are in it), then by how fundamental.
  const std::vector<const Finding*> none;
  const auto& a = machine == index.end() ? none : machine->second;
  const auto& b = own == index.end() ? none : own->second;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding* x, const Finding* y) { return fundamental_rank(x->id) < fundamental_rank(y->id); });
  return out;
}

// GPUs the TF build will register: the driver's count (or the bus), minus the ones
// hidden by CUDA_VISIBLE_DEVICES, minus those below the build's compute capability.
// The GPUs' compute capabilities with how many GPUs have each, read once per snapshot
// (per environment it would be environments x GPUs: quadratic in the snapshot's size).
using CcCounts = std::map<kb::ComputeCapability, int>;
CcCounts cc_counts(const Snapshot& s, const kb::KnowledgeBase& kb) {
  CcCounts out;
  for (const auto& g : s.gpus)
    if (auto cc = gpu_cc(g, kb)) ++out[*cc];
  return out;
}

std::optional<int> usable_gpus(const Snapshot& s, const kb::KnowledgeBase& kb, const TfEnv& e, const CcCounts& ccs) {
  int total = -1;
  if (s.driver.state.status == ProbeStatus::kOk && s.driver.device_count >= 0) total = s.driver.device_count;
  else if (!s.gpus.empty()) total = static_cast<int>(s.gpus.size());
  if (total < 0) return std::nullopt;
  int ignored = 0;
  if (e.release)
    for (const auto& [cc, count] : ccs)
      if (kb.tf_cc_support(*e.release, cc).support == kb::CcSupport::kIgnored) ignored += count;
  int n = std::max(0, total - ignored);
  if (auto cvd = env_var(s, "CUDA_VISIBLE_DEVICES")) {
    int listed = 0;
    for (const auto& item : split(*cvd, ',')) {
      std::string t(trim(item));
      if (t.empty() || (t.find_first_not_of("0123456789") != std::string::npos && !starts_with(t, "GPU-") && !starts_with(t, "MIG-"))) break;
      ++listed;
    }
    n = std::min(n, listed);
  }
  return n;
}

std::string lower_first(std::string s);

std::string join_because(const std::vector<std::string>& because) {
  std::string out;
  for (size_t i = 0; i < because.size(); ++i) {
    if (i) out += i + 1 == because.size() ? "; and " : "; ";
    out += lower_first(because[i]);
  }
  return out;
}

// "No NVIDIA GPU" -> "no NVIDIA GPU"; names keep their case ("TensorFlow", "CUDA_VISIBLE_DEVICES").
std::string lower_first(std::string s) {
  size_t end = s.find(' ');
  std::string word = s.substr(0, end);
  bool plain = !word.empty() && std::all_of(word.begin() + 1, word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (plain && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// The loader model's answer for each library TF opens in `e`. kFailed (the loader stopped
// with an error) is a failed dlopen for TF, so it reads "not_found" like a missing file.
std::vector<VerdictLibrary> verdict_libraries(const Snapshot& s, const kb::KnowledgeBase& kb, const TfEnv& e) {
  std::vector<VerdictLibrary> out;
  auto loads = loads_for(s, kb, e);
  for (const auto& l : loads->report.loads) {
    VerdictLibrary v;
    v.component = l.wanted.component;
    v.file = l.wanted.file;
    v.must_load = l.wanted.must_load;
    switch (l.result.outcome) {
      case loader::Outcome::kFound:
        v.outcome = "found";
        break;
      case loader::Outcome::kUnknown:
        v.outcome = "unknown";
        break;
      case loader::Outcome::kNotFound:
      case loader::Outcome::kFailed:
        v.outcome = "not_found";
        break;
    }
    if (l.result.outcome == loader::Outcome::kFound) {
      v.path = l.result.root.path;
      auto steps = trail_steps(s, l.result.root);
      v.why = steps.empty() ? "already loaded" : step_place(steps.back());
    } else {
      v.why = !l.result.error.empty() ? l.result.error : l.result.root.error;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

std::vector<Verdict> build_verdicts(const Snapshot& s, const kb::KnowledgeBase& kb, const std::vector<Finding>& findings) {
  std::vector<Verdict> out;
  auto envs = tf_envs(s, kb);
  const BlockerIndex blockers_by_env = index_blockers(findings);
  const CcCounts ccs = cc_counts(s, kb);
  if (envs.empty()) {
    Verdict v;
    if (!probed(s.python_state)) {
      v.kind = VerdictKind::kCannotTell;
      v.because.push_back("the Python environments were not probed");
      v.run.push_back("tfgpu doctor (on the machine itself, to probe Python too)");
      v.sentence = "Cannot tell whether TensorFlow will use the GPU, because the Python environments were not probed; run `tfgpu doctor` on that machine.";
      out.push_back(v);
      return out;
    }
    // A probe that failed has not found "no TensorFlow": the facts are missing.
    if (python_unknown(s)) {
      v.kind = VerdictKind::kCannotTell;
      if (s.python_state.status != ProbeStatus::kOk && s.python_state.status != ProbeStatus::kAbsent)
        v.because.push_back(fmt::format("the Python probe {} ({})", s.python_state.status == ProbeStatus::kFailed ? "failed" : "could not run",
                                        s.python_state.reason.empty() ? "no reason given" : s.python_state.reason));
      for (const auto& py : s.pythons)
        if (py.packages_state.status == ProbeStatus::kFailed) {
          v.because.push_back(fmt::format("the packages of {} could not be listed ({})", env_label(py), py.packages_state.reason));
          v.run.push_back(fmt::format("{} -c \"import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))\"",
                                      py.executable.empty() ? "python" : py.executable));
        }
      if (v.run.empty())
        v.run.push_back("python -c \"import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))\"");
      v.sentence = fmt::format("Cannot tell whether TensorFlow will use the GPU, because {}; run: {}.", join_because(v.because),
                               join(v.run, "; "));
      std::vector<std::string> blocked;
      for (const Finding* b : blockers_for(blockers_by_env, "")) {
        v.blocker_ids.push_back(b->id);
        blocked.push_back(b->title);
      }
      if (!blocked.empty())
        v.sentence += fmt::format(" Wherever it is installed, TensorFlow would not use a GPU here, because: {}.", join_because(blocked));
      out.push_back(v);
      return out;
    }
    v.kind = VerdictKind::kNoTensorflow;
    for (const Finding* b : blockers_for(blockers_by_env, "")) {
      v.blocker_ids.push_back(b->id);
      v.because.push_back(b->title);
    }
    for (const auto& f : findings)
      if (f.id == "tensorflow_not_installed")
        for (const auto& step : f.fix)
          if (icontains(step, "tfgpu plan")) v.run.push_back(step);
    v.sentence = "No Python environment here has TensorFlow installed";
    v.sentence += v.run.empty() ? "; run `tfgpu plan`." : "; " + lower_first(v.run.front()) + ".";
    if (!v.because.empty())
      v.sentence += fmt::format(" Even then TensorFlow would not use a GPU here, because: {}.", join_because(v.because));
    out.push_back(v);
    return out;
  }
  for (const auto& e : envs) {
    Verdict v;
    v.env = e.label;
    v.tf_package = e.tf->package;
    v.tf_version = e.tf->version;
    v.libraries = verdict_libraries(s, kb, e);
    std::string who = fmt::format("TensorFlow {} in {}", e.tf->version, e.label);
    auto blockers = blockers_for(blockers_by_env, e.label);
    if (!blockers.empty()) {
      v.kind = VerdictKind::kWillNotUseGpu;
      for (const Finding* b : blockers) {
        if (std::find(v.blocker_ids.begin(), v.blocker_ids.end(), b->id) == v.blocker_ids.end()) v.blocker_ids.push_back(b->id);
        v.because.push_back(b->title);
      }
      v.sentence = fmt::format("{} will not use the GPU, because {}.", who, join_because(v.because));
      out.push_back(v);
      continue;
    }
    // No blocker: is that because all was checked, or because facts are missing?
    auto wp = wheel_platform(s);
    if (!wp) v.because.push_back("the operating system is unknown");
    if (!e.release) v.because.push_back(fmt::format("TensorFlow {} is not in the knowledge base", e.tf->version));
    else if (wp && !tf_gpu_build(e, s, kb)) v.because.push_back(fmt::format("whether {} {} is a CUDA build here is not known", e.tf->package, e.tf->version));
    if (s.driver.state.status != ProbeStatus::kOk) {
      v.because.push_back(s.driver.state.status == ProbeStatus::kNotProbed ? "the driver was not probed"
                                                                            : "the driver did not answer (" + s.driver.state.reason + ")");
      v.run.push_back(is_windows(s) ? "nvidia-smi" : "nvidia-smi (and `tfgpu doctor` on the machine itself)");
    }
    if (!runtime_looked(s) && wp != Platform::kMacos) {
      v.because.push_back("the CUDA/cuDNN libraries were not probed");
      v.run.push_back("tfgpu doctor on the machine itself (or `tfgpu probe --json` there and `tfgpu doctor --snapshot FILE` here)");
    }
    auto n = usable_gpus(s, kb, e, ccs);
    if (!n) v.because.push_back("the number of GPUs is not known");
    if (!v.because.empty()) {
      v.kind = VerdictKind::kCannotTell;
      v.run.push_back(fmt::format("{} -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"",
                                  e.py->executable.empty() ? "python" : e.py->executable));
      v.sentence = fmt::format("Cannot tell whether {} will use the GPU, because {}; run: {}.", who, join_because(v.because), join(v.run, "; "));
      out.push_back(v);
      continue;
    }
    v.kind = *n > 0 ? VerdictKind::kWillUseGpu : VerdictKind::kWillNotUseGpu;
    v.gpu_count = *n;
    v.sentence = *n > 0 ? fmt::format("{} will use {} GPU{}.", who, *n, *n == 1 ? "" : "s")
                        : fmt::format("{} will not use the GPU, because no GPU is left for it.", who);
    out.push_back(v);
  }
  return out;
}

}  // namespace tfgpu
