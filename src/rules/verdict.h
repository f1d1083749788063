#pragma once
// The verdict: one per Python environment that has TensorFlow ("TensorFlow 2.10.1 in
// conda env 'tf' will use 1 GPU" / "will not use the GPU, because ..." / "cannot tell,
// because ..., run ..."), or one saying no environment has TensorFlow. Derived from
// the findings (blockers, most fundamental first) and from what was probed.

#include <string>
#include <vector>

#include "kb/kb.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace tfgpu {

enum class VerdictKind { kWillUseGpu, kWillNotUseGpu, kCannotTell, kNoTensorflow };
const char* to_string(VerdictKind k);  // "will_use_gpu", "will_not_use_gpu", "cannot_tell", "no_tensorflow"

// One library TF opens at run time in this environment, as the loader model predicts its
// dlopen / LoadLibrary (the same simulation the runtime rules read; docs/doctor-json.md).
struct VerdictLibrary {
  std::string component;   // "cudart", "cudnn", "driver", ...
  std::string file;        // the exact name TF opens: "libcudart.so.12"
  bool must_load = false;  // TF registers no GPU unless every must_load library loads
  std::string outcome;     // "found" | "not_found" | "unknown"
  std::string path;        // the chosen file as the loader spells it; "" unless found
  std::string why;         // found: the place that supplied it ("DT_RUNPATH of ..."); else the loader's error
};

struct Verdict {
  VerdictKind kind = VerdictKind::kCannotTell;
  std::string env;                       // environment label; "" for kNoTensorflow
  std::string tf_package;                // "tensorflow"
  std::string tf_version;                // "2.12.0"
  int gpu_count = 0;                     // kWillUseGpu: how many GPUs TF will list
  std::vector<std::string> blocker_ids;  // most fundamental first
  std::vector<std::string> because;      // the blockers' titles, or what is unknown
  std::vector<std::string> run;          // kCannotTell / kNoTensorflow: what to run next
  std::string sentence;                  // the whole verdict as one sentence
  // TF's libraries in TF's order; empty when the loader model could not run for this env.
  std::vector<VerdictLibrary> libraries;
};

// `findings` as returned by run_rules.
std::vector<Verdict> build_verdicts(const Snapshot& s, const kb::KnowledgeBase& kb, const std::vector<Finding>& findings);

// 0 when no finding is a blocker, 1 otherwise (util/error.h ExitCode).
int doctor_exit_code(const std::vector<Finding>& findings);

}  // namespace tfgpu
