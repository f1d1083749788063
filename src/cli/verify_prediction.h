#pragma once
// `tfgpu verify --python PATH` without `--prediction FILE`: doctor's own verdict for the
// environment of PATH, computed in-process (probe + rules + verdicts), as the prediction
// TensorFlow's real answer is compared with. The verdict -> prediction conversion and the
// choice of environment are pure; predict_with_doctor() is the live glue.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpu/tf_check.h"
#include "host/host.h"
#include "kb/kb.h"
#include "rules/verdict.h"
#include "snapshot/snapshot.h"

namespace tfgpu {

// A doctor verdict as the prediction verify checks (source "tfgpu doctor").
// will_use_gpu -> will use gpu_count GPUs; will_not_use_gpu / no_tensorflow -> will not;
// cannot_tell -> unknown, with what is unknown as the reasons.
gpu::TfPrediction prediction_from_verdict(const Verdict& verdict);

// The prediction for one interpreter, or why there is none (`note`, one line).
struct DoctorPrediction {
  std::optional<gpu::TfPrediction> prediction;
  std::string note;  // "no prediction for PATH: doctor did not find this interpreter"
  const PythonEnv* env = nullptr;  // the environment picked (points into the snapshot given)
};

// Resolves symlinks (Host::canonical); returns the path itself when it cannot.
using PathResolver = std::function<std::string(const std::string&)>;

// Picks the environment whose interpreter or prefix is `python` from a snapshot and the
// verdicts built from it: the executable as written, then the prefix, then both with
// symlinks resolved (a venv's python links to its base interpreter, so a resolved
// executable alone would match the base too; it is used only when it names one
// environment). An environment without TensorFlow is predicted not to use the GPU.
DoctorPrediction prediction_for_python(const Snapshot& s, const std::vector<Verdict>& verdicts,
                                       const std::string& python, const PathResolver& resolve);

// The loader model's file for each CUDA library TensorFlow must load in `env` (doctor's
// list: the KB's must-load set of its release for the snapshot's platform, driver
// included), with `resolve` giving the path as /proc/self/maps would name it. Empty when
// `env` has no CUDA build of a release the KB knows.
std::vector<gpu::LibraryChoice> model_library_choices(const Snapshot& s, const kb::KnowledgeBase& kb,
                                                      const PythonEnv& env, const PathResolver& resolve);

// Probes this machine the way `tfgpu doctor` does (with `python` added to the
// interpreters), runs the rules and verdicts and picks the one for `python`.
DoctorPrediction predict_with_doctor(const Host& host, const kb::KnowledgeBase& kb, const std::string& python);

}  // namespace tfgpu
