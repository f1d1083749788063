#pragma once
// Fact-based reasoning for explain: conclusions that no single log line states but the
// facts together do ("TF 2.12 + native Windows + empty GPU list", "libcusolver.so.10
// missing while CUDA 11.2 is installed"). Version facts come from the KB only.

#include <map>
#include <string>
#include <vector>

#include "explain/log_facts.h"
#include "kb/kb.h"
#include "rules/finding.h"

namespace tfgpu::explain {

// One argument for a finding, from an inference rule.
struct Inference {
  std::string finding;
  double weight = 0.0;  // 0..1, same scale as signature weights
  std::string rule;     // which inference produced it ("platform.windows_tf_ge_2_11")
  std::vector<Evidence> evidence;
  // true: the rule argues against the finding (weight = how strongly, as a signature's
  // `refutes` weight) instead of for it; its evidence is not shown (refutations never are).
  bool refutes = false;
};

// What the scan saw besides the facts, which some inferences need.
struct InferenceInput {
  const LogFacts& facts;
  const std::map<std::string, uint64_t>& hit_counts;  // signature id -> lines
  // Current best argument per finding from the signatures (before inference).
  const std::map<std::string, double>& signature_scores;
  bool gpu_context = false;  // the log is about using a GPU
};

// The compute capabilities of the GPUs a report names: the one it states, and each GPU
// name the KB resolves to a single capability (with the fact it was read from).
std::vector<std::pair<kb::ComputeCapability, Fact>> stated_ccs(const LogFacts& f, const kb::KnowledgeBase& kb);

// The TensorFlow releases a report can be about: the stated one; with none stated, every
// release with a GPU build on the platform that was built with the stated CUDA (and the
// stated cuDNN, where one is): "CUDA 8.0 / cuDNN 5.1" is 1.0-1.2. Empty when neither is
// stated or the KB has no such release.
std::vector<const kb::TfRelease*> candidate_releases(const LogFacts& f, const kb::KnowledgeBase& kb, Platform p);

// Every inference whose conditions hold. `kb` may be null (then only KB-free ones run).
std::vector<Inference> infer(const InferenceInput& in, const kb::KnowledgeBase* kb);

// A failed CUDA runtime whose file name only TensorFlow releases before 2.1 load
// (cudart64_100.dll, libcudart.so.9.0): before 2.1 only the separate GPU package touched
// CUDA, so the log is from someone who installed it to use the GPU (not the harmless
// "no GPU here" dlerror of later CPU machines). Release/CUDA/file facts from the KB.
bool failed_runtime_only_gpu_package_loads(const LogFacts& facts, const kb::KnowledgeBase& kb);

// Inferences that build on the others' results (conda vs system CUDA conflicts, a
// container behind a no-device error): run after the first round is scored.
std::vector<Inference> infer_second_round(const InferenceInput& in, const std::map<std::string, double>& scores);

}  // namespace tfgpu::explain
