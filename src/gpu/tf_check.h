#pragma once
// `tfgpu verify --python PATH`: TensorFlow's own answer, compared with tfgpu's prediction.
// tf_check_script() is the classic check (version, built with CUDA, GPUs, memory growth, a
// timed matmul on /GPU:0 vs /CPU:0, the mixed-precision policy) printing one JSON object;
// parse_tf_check() reads it; compare_prediction() says "prediction confirmed" or exactly
// how TensorFlow's answer differs from what doctor predicted for that environment.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "host/host.h"
#include "util/error.h"

namespace tfgpu::gpu {

// One CUDA library TensorFlow loads and the file the prediction says it comes from.
struct LibraryChoice {
  std::string name;       // as TensorFlow dlopens it: "libcusparse.so.12"
  std::string component;  // "cusparse"
  std::string path;       // the file the loader model chose ("" when it finds none)
  std::string canonical;  // `path` with symlinks resolved on this machine, as /proc/self/maps names it
  std::string why;        // when `path` is "": why not (the loader model's words)
};

// What doctor predicts for one Python environment (filled by the doctor's verdict, or
// read from a JSON file with --prediction; see docs/verify-json.md).
struct TfPrediction {
  enum class Outcome { kWillUseGpu, kWillNotUseGpu, kUnknown };
  Outcome outcome = Outcome::kUnknown;
  int gpus = 0;                      // expected GPU count when kWillUseGpu (0 = "at least one")
  std::vector<std::string> reasons;  // the blockers or the reasoning, one line each
  std::string source;                // "tfgpu doctor", or the file it was read from
  std::vector<LibraryChoice> libraries;  // the libraries TF must load (doctor's list), where known
};
// Either tfgpu's small prediction object ({"will_use_gpu": true, "gpus": 1, ...}) or a whole
// `tfgpu doctor --json` report, whose verdict for `python` is taken: the verdict whose
// environment names that interpreter's prefix, or the only verdict there is.
Result<TfPrediction> prediction_from_json(const nlohmann::json& j, const std::string& python = "");
// One line: "tfgpu doctor (venv 'tf' (/v/bin/python)) predicted: TensorFlow will not use the GPU, because ...".
std::string describe_prediction(const TfPrediction& p);

struct TfMatmul {
  bool ran = false;
  std::string device;  // where TensorFlow placed it: "/job:localhost/replica:0/task:0/device:GPU:0"
  double ms = 0;       // median of the timed runs
  std::string error;
};

// TensorFlow's answer, as printed by the check script.
struct TfCheckResult {
  std::string python_version;
  std::string import_error;  // set when `import tensorflow` failed
  std::string tf_version;
  bool built_with_cuda = false;
  std::string build_cuda;    // tf.sysconfig.get_build_info()
  std::string build_cudnn;
  std::vector<std::string> gpus;          // physical GPU device names
  std::vector<std::string> gpu_names;     // device_name from get_device_details, when given
  std::vector<std::string> gpu_compute_capabilities;
  std::string memory_growth;  // "enabled", "no GPU", or the error
  TfMatmul matmul_gpu;
  TfMatmul matmul_cpu;
  std::optional<bool> results_match;  // GPU result == CPU result (within tolerance)
  std::string mixed_precision_policy;   // "mixed_float16"
  std::string mixed_precision_compute_dtype;
  std::string mixed_precision_error;
  std::string failure;  // set by the parent: the interpreter did not run or printed no JSON
  // Shared objects in the process's /proc/self/maps when the check ended (the files TF
  // really mapped, symlinks resolved by the kernel); nullopt where there is none (Windows).
  std::optional<std::vector<std::string>> mapped;
};

// The Python program (no TensorFlow needed to generate it; it prints one JSON line).
std::string tf_check_script(int matmul_size = 1024);
Result<TfCheckResult> parse_tf_check(const std::string& stdout_text);
// Runs `python -c <script>` through the host (a child process with a timeout).
TfCheckResult run_tf_check(const Host& host, const std::string& python, std::chrono::milliseconds timeout);

// One library: the file TensorFlow mapped and the one the loader model chose.
struct LibraryAgreement {
  std::string name;
  std::string tf_mapped;    // "" when TF mapped no file of that name
  std::string model_chose;  // "" when the model finds none
  bool agree = false;
};

struct PredictionCheck {
  enum class Verdict { kConfirmed, kDiffers, kNoPrediction, kNoAnswer };
  Verdict verdict = Verdict::kNoPrediction;
  std::string summary;                   // one line
  std::vector<std::string> differences;  // each way TensorFlow's answer differs (library choices included)
  std::vector<LibraryAgreement> libraries;  // library by library, when both sides are known
  std::string libraries_note;               // why libraries were not compared ("" when they were)
};
const char* to_string(PredictionCheck::Verdict v);  // "confirmed", "differs", "no_prediction", "no_answer"

// The prediction's library choices against the files TF mapped (compare_prediction uses it).
// A library's mapped file is the one named like it ("libcusparse.so.12", "libcusparse.so.12.6.3.3")
// or the very file the model chose. Compared only when TF mapped at least one of them:
// otherwise it stopped before loading its CUDA libraries (no driver, no device) and `note` says so.
std::vector<LibraryAgreement> compare_libraries(const std::vector<LibraryChoice>& predicted,
                                                const std::vector<std::string>& mapped, std::string* note);

PredictionCheck compare_prediction(const std::optional<TfPrediction>& prediction, const TfCheckResult& observed);

nlohmann::json to_json(const TfCheckResult& r);
nlohmann::json to_json(const PredictionCheck& c);

}  // namespace tfgpu::gpu
