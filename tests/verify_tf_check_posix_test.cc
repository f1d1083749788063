// `verify --python`: TensorFlow's answer parsed from the check script's JSON and compared
// with a prediction. Real TensorFlow cannot use a GPU here, so "python" is a shell script
// printing canned JSON (written by the test), run through the real child-process path.
#include <sys/stat.h>

#include <fstream>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu/tf_check.h"
#include "host/host.h"
#include "report/verify_render.h"

namespace tfgpu::gpu {
namespace {

const char* kGpuJson =
    R"({"schema": "tfgpu.tfcheck/1", "python": "3.11.9", "tf_version": "2.16.1", "built_with_cuda": true,)"
    R"( "build_cuda": "12.3", "build_cudnn": "8", "gpus": ["/physical_device:GPU:0"],)"
    R"( "gpu_names": ["NVIDIA GeForce RTX 4090"], "gpu_compute_capabilities": ["8.9"], "memory_growth": "enabled",)"
    R"( "matmul_cpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:CPU:0", "ms": 31.5},)"
    R"( "matmul_gpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:GPU:0", "ms": 0.4},)"
    R"( "results_match": true, "mixed_precision": {"policy": "mixed_float16", "compute_dtype": "float16"}})";

const char* kCpuOnlyJson =
    R"({"schema": "tfgpu.tfcheck/1", "python": "3.12.1", "tf_version": "2.17.0", "built_with_cuda": false,)"
    R"( "gpus": [], "memory_growth": "no GPU", "matmul_cpu": {"ran": true, "device": "CPU:0", "ms": 30}})";

// A fake interpreter: a shell script that ignores `-c SCRIPT` and prints `stdout_text`.
std::string fake_python(const std::string& name, const std::string& stdout_text, int exit_code = 0) {
  std::string path = std::string(TFGPU_TEST_BINARY_DIR) + "/" + name;
  std::ofstream f(path);
  f << "#!/bin/sh\ncat <<'TFGPU_EOF'\n" << stdout_text << "\nTFGPU_EOF\n";
  f << "echo 'some TensorFlow warning on stderr' >&2\nexit " << exit_code << "\n";
  f.close();
  ::chmod(path.c_str(), 0755);
  return path;
}

TfPrediction will_use(int gpus) {
  TfPrediction p;
  p.outcome = TfPrediction::Outcome::kWillUseGpu;
  p.gpus = gpus;
  return p;
}

TfPrediction will_not() {
  TfPrediction p;
  p.outcome = TfPrediction::Outcome::kWillNotUseGpu;
  p.reasons = {"TF >= 2.11 has no GPU build on native Windows"};
  return p;
}

TEST(TfCheck, ParsesTheScriptsJsonAfterOtherStdoutNoise) {
  auto r = parse_tf_check(std::string("2024-01-01 some log line\n{not json\n") + kGpuJson + "\n");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->tf_version, "2.16.1");
  EXPECT_TRUE(r->built_with_cuda);
  ASSERT_EQ(r->gpus.size(), 1u);
  EXPECT_EQ(r->gpu_compute_capabilities[0], "8.9");
  EXPECT_EQ(r->matmul_gpu.device, "/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_DOUBLE_EQ(r->matmul_gpu.ms, 0.4);
  EXPECT_EQ(r->results_match, true);
  EXPECT_EQ(r->mixed_precision_policy, "mixed_float16");
}

TEST(TfCheck, HostileOutputIsAnErrorNotACrash) {
  std::mt19937 rng(7);
  std::string big(1 << 20, '{');
  for (const std::string& text : {std::string(), std::string("{"), std::string(kGpuJson).substr(0, 100), big,
                                  std::string(R"({"schema": "other"})"), std::string("[1,2,3]")}) {
    EXPECT_FALSE(parse_tf_check(text).has_value());
  }
  for (int i = 0; i < 200; ++i) {
    std::string s(kGpuJson);
    for (int k = 0; k < 5; ++k) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    auto r = parse_tf_check(s);  // any outcome but a crash
    if (r) EXPECT_EQ(r->gpus.size() <= 1, true);
  }
  // Right schema, wrong types: fields read as absent.
  auto r = parse_tf_check(R"({"schema": "tfgpu.tfcheck/1", "gpus": 3, "matmul_gpu": [], "results_match": "yes"})");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->gpus.empty());
  EXPECT_FALSE(r->results_match.has_value());
}

TEST(TfCheck, ScriptIsTheClassicCheck) {
  std::string s = tf_check_script(512);
  for (const char* needle : {"import tensorflow", "is_built_with_cuda", "list_physical_devices(\"GPU\")",
                             "set_memory_growth", "tf.device(dev)", "/GPU:0", "/CPU:0", "mixed_float16",
                             "N = 512", "tfgpu.tfcheck/1"}) {
    EXPECT_NE(s.find(needle), std::string::npos) << needle;
  }
}

TEST(TfCheckPrediction, MatchingAnswerIsConfirmed) {
  auto c = compare_prediction(will_use(1), *parse_tf_check(kGpuJson));
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kConfirmed);
  EXPECT_EQ(c.summary, "prediction confirmed: TensorFlow uses 1 GPU");
  auto n = compare_prediction(will_not(), *parse_tf_check(kCpuOnlyJson));
  EXPECT_EQ(n.verdict, PredictionCheck::Verdict::kConfirmed);
}

TEST(TfCheckPrediction, PredictedGpuButTensorflowSeesNoneDiffersLoudly) {
  auto c = compare_prediction(will_use(0), *parse_tf_check(kCpuOnlyJson));
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kDiffers);
  EXPECT_EQ(c.summary, "PREDICTION DIFFERS FROM TENSORFLOW'S REAL ANSWER");
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_EQ(c.differences[0], "predicted TensorFlow would use the GPU; it lists no GPU");
}

TEST(TfCheckPrediction, PredictedNoGpuButTensorflowUsesOneDiffers) {
  auto c = compare_prediction(will_not(), *parse_tf_check(kGpuJson));
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kDiffers);
  EXPECT_EQ(c.differences.at(0), "predicted TensorFlow would not use the GPU; it lists 1 GPU and ran a matmul on /GPU:0");
}

TEST(TfCheckPrediction, WrongGpuCountAndBrokenMatmulAreEachNamed) {
  auto obs = *parse_tf_check(kGpuJson);
  obs.matmul_gpu.ran = false;
  obs.matmul_gpu.error = "InternalError: cuBLAS handle failed";
  auto c = compare_prediction(will_use(2), obs);
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kDiffers);
  ASSERT_EQ(c.differences.size(), 2u);
  EXPECT_EQ(c.differences[0], "predicted 2 GPUs; TensorFlow lists 1");
  EXPECT_EQ(c.differences[1], "TensorFlow lists the GPU but the matmul on /GPU:0 failed: InternalError: cuBLAS handle failed");
}

TEST(TfCheckPrediction, NoPredictionOrNoAnswerAreSaidAsSuch) {
  auto none = compare_prediction(std::nullopt, *parse_tf_check(kGpuJson));
  EXPECT_EQ(none.verdict, PredictionCheck::Verdict::kNoPrediction);
  EXPECT_EQ(none.summary, "no prediction to compare with; TensorFlow sees 1 GPU");
  TfCheckResult broken;
  broken.failure = "python exited with 1";
  EXPECT_EQ(compare_prediction(will_use(1), broken).verdict, PredictionCheck::Verdict::kNoAnswer);
}

TEST(TfCheckPrediction, PredictionJsonIsValidated) {
  auto p = prediction_from_json(nlohmann::json::parse(R"({"will_use_gpu": true, "gpus": 2, "reasons": ["ok"]})"));
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->outcome, TfPrediction::Outcome::kWillUseGpu);
  EXPECT_EQ(p->gpus, 2);
  EXPECT_EQ(prediction_from_json(nlohmann::json::parse(R"({"will_use_gpu": null})"))->outcome,
            TfPrediction::Outcome::kUnknown);
  for (const char* bad : {"[]", "{}", R"({"will_use_gpu": 1})", R"({"will_use_gpu": true, "gpus": -1})",
                          R"({"will_use_gpu": true, "gpus": 1e9})", R"({"will_use_gpu": true, "gpus": "2"})"}) {
    EXPECT_FALSE(prediction_from_json(nlohmann::json::parse(bad)).has_value()) << bad;
  }
}

TEST(TfCheckPrediction, DoctorReportGivesTheVerdictForThatInterpreter) {
  auto report = nlohmann::json::parse(R"({"verdicts": [
      {"kind": "will_not_use_gpu", "env": "/opt/conda/envs/old", "because": ["cuDNN 8.1 missing"]},
      {"kind": "will_use_gpu", "env": "/home/u/.venv", "gpu_count": 2, "because": []}]})");
  auto p = prediction_from_json(report, "/home/u/.venv/bin/python3");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->outcome, TfPrediction::Outcome::kWillUseGpu);
  EXPECT_EQ(p->gpus, 2);
  EXPECT_EQ(p->source, "tfgpu doctor (/home/u/.venv)");
  auto other = prediction_from_json(report, "/opt/conda/envs/old/bin/python");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->outcome, TfPrediction::Outcome::kWillNotUseGpu);
  EXPECT_EQ(other->reasons, std::vector<std::string>{"cuDNN 8.1 missing"});
  // Several verdicts, none for this interpreter: an error, not a guess.
  EXPECT_FALSE(prediction_from_json(report, "/usr/bin/python3").has_value());
  // One verdict: that one.
  auto single = prediction_from_json(nlohmann::json::parse(R"({"verdicts": [{"kind": "no_tensorflow", "env": ""}]})"),
                                     "/usr/bin/python3");
  ASSERT_TRUE(single.has_value());
  EXPECT_EQ(single->outcome, TfPrediction::Outcome::kWillNotUseGpu);
  EXPECT_FALSE(prediction_from_json(nlohmann::json::parse(R"({"verdicts": [{"kind": "perhaps"}]})")).has_value());
  EXPECT_FALSE(prediction_from_json(nlohmann::json::parse(R"({"verdicts": 3})")).has_value());
}

TEST(TfCheckRun, FakeInterpreterRunsThroughTheChildProcessPath) {
  auto host = make_system_host();
  auto r = run_tf_check(*host, fake_python("fake_python_gpu", kGpuJson), std::chrono::seconds(20));
  EXPECT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_EQ(r.tf_version, "2.16.1");
  report::VerifyOutcome v;
  v.python = "fake_python_gpu";
  v.tf = r;
  v.prediction = compare_prediction(will_use(1), r);
  std::string text = report::render_verify_text(v);
  EXPECT_NE(text.find("TensorFlow 2.16.1 on Python 3.11.9, built with CUDA 12.3 / cuDNN 8"), std::string::npos) << text;
  EXPECT_NE(text.find("matmul 1024x1024 on /GPU:0: 0.40 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("prediction confirmed: TensorFlow uses 1 GPU"), std::string::npos) << text;
}

TEST(TfCheckRun, InterpreterThatPrintsNothingUsefulIsNoAnswerWithItsStderr) {
  auto host = make_system_host();
  auto r = run_tf_check(*host, fake_python("fake_python_garbage", "Traceback: boom", 1), std::chrono::seconds(20));
  EXPECT_NE(r.failure.find("exited with 1"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("some TensorFlow warning on stderr"), std::string::npos) << r.failure;
  auto missing = run_tf_check(*host, "/nonexistent/python3", std::chrono::seconds(20));
  EXPECT_FALSE(missing.failure.empty());
}

// TensorFlow's mapped files against the loader model's choices, library by library.
const char* kMappedJson =
    R"({"schema": "tfgpu.tfcheck/1", "python": "3.11.9", "tf_version": "2.18.0", "built_with_cuda": true,)"
    R"( "gpus": ["/physical_device:GPU:0"], "memory_growth": "enabled",)"
    R"( "matmul_cpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:CPU:0", "ms": 31.5},)"
    R"( "matmul_gpu": {"ran": true, "device": "/job:localhost/replica:0/task:0/device:GPU:0", "ms": 0.4},)"
    R"( "results_match": true, "maps": ["/usr/lib/x86_64-linux-gnu/libc.so.6",)"
    R"( "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14", "/v/sp/nvidia/cuda_runtime/lib/libcudart.so.12",)"
    R"( "/usr/local/cuda-13.0/lib/libcusparse.so.12.6.3.3", "/v/sp/nvidia/cudnn/lib/libcudnn.so.9"]})";

TfPrediction with_libraries(TfPrediction p) {
  p.libraries = {
      {"libcuda.so.1", "driver", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14", ""},
      {"libcudart.so.12", "cudart", "/v/sp/tensorflow/../nvidia/cuda_runtime/lib/libcudart.so.12",
       "/v/sp/nvidia/cuda_runtime/lib/libcudart.so.12", ""},
      {"libcusparse.so.12", "cusparse", "/v/sp/tensorflow/../nvidia/cusparse/lib/libcusparse.so.12",
       "/v/sp/nvidia/cusparse/lib/libcusparse.so.12", ""},
      {"libcufft.so.11", "cufft", "/v/sp/nvidia/cufft/lib/libcufft.so.11", "/v/sp/nvidia/cufft/lib/libcufft.so.11", ""},
      {"libcublas.so.12", "cublas", "", "", "libcublas.so.12: not found"},
      {"libcudnn.so.9", "cudnn", "/v/sp/nvidia/cudnn/lib/libcudnn.so.9", "/v/sp/nvidia/cudnn/lib/libcudnn.so.9", ""}};
  return p;
}

TEST(TfCheckLibraries, EachDisagreementNamesTheLibraryWhatTfMappedAndWhatTheModelChose) {
  auto obs = parse_tf_check(kMappedJson);
  ASSERT_TRUE(obs.has_value());
  ASSERT_TRUE(obs->mapped.has_value());
  EXPECT_EQ(obs->mapped->size(), 5u);
  auto c = compare_prediction(with_libraries(will_use(1)), *obs);
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kDiffers) << "the GPU answer agrees, the reasons do not";
  ASSERT_EQ(c.libraries.size(), 6u);
  EXPECT_TRUE(c.libraries[0].agree) << "libcuda.so.1 -> its versioned file, through the canonical path";
  EXPECT_TRUE(c.libraries[1].agree) << "$ORIGIN/.. spelling, same file";
  EXPECT_FALSE(c.libraries[2].agree);
  EXPECT_EQ(c.libraries[2].tf_mapped, "/usr/local/cuda-13.0/lib/libcusparse.so.12.6.3.3");
  EXPECT_FALSE(c.libraries[3].agree);
  EXPECT_TRUE(c.libraries[4].agree) << "neither found libcublas.so.12";
  EXPECT_TRUE(c.libraries[5].agree);
  ASSERT_EQ(c.differences.size(), 2u);
  EXPECT_EQ(c.differences[0],
            "libcusparse.so.12: TensorFlow mapped /usr/local/cuda-13.0/lib/libcusparse.so.12.6.3.3, the loader model chose "
            "/v/sp/tensorflow/../nvidia/cusparse/lib/libcusparse.so.12 (= /v/sp/nvidia/cusparse/lib/libcusparse.so.12)");
  EXPECT_EQ(c.differences[1],
            "libcufft.so.11: TensorFlow mapped no such file, the loader model chose /v/sp/nvidia/cufft/lib/libcufft.so.11");
  auto j = to_json(c);
  EXPECT_EQ(j["libraries"].size(), 6u);
  EXPECT_EQ(j["libraries"][2]["agree"], false);
}

TEST(TfCheckLibraries, AllAgreeingIsSaidInTheSummary) {
  auto obs = *parse_tf_check(kMappedJson);
  auto p = with_libraries(will_use(1));
  p.libraries.erase(p.libraries.begin() + 2, p.libraries.begin() + 4);  // drop cusparse and cufft
  auto c = compare_prediction(p, obs);
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kConfirmed);
  EXPECT_EQ(c.summary, "prediction confirmed: TensorFlow uses 1 GPU; all 4 CUDA libraries are the files the loader model chose");
}

TEST(TfCheckLibraries, NothingIsComparedWhenTensorflowLoadedNoneOfThem) {
  auto obs = *parse_tf_check(kCpuOnlyJson);
  obs.mapped = std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/libc.so.6",
                                        "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14"};
  auto c = compare_prediction(with_libraries(will_not()), obs);
  EXPECT_EQ(c.verdict, PredictionCheck::Verdict::kConfirmed);
  EXPECT_TRUE(c.libraries.empty());
  EXPECT_NE(c.libraries_note.find("mapped none of its CUDA libraries"), std::string::npos) << c.libraries_note;
  obs.mapped.reset();  // Windows: no /proc/self/maps
  EXPECT_NE(compare_prediction(with_libraries(will_not()), obs).libraries_note.find("/proc/self/maps"), std::string::npos);
}

// The real script in a real interpreter without TensorFlow: the import fails, and the
// maps are still read, from the kernel's own list.
TEST(TfCheckRun, TheScriptReportsTheFilesThisProcessMapped) {
  auto host = make_system_host();
  auto r = run_tf_check(*host, "python3", std::chrono::seconds(60));
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  if (r.import_error.empty()) GTEST_SKIP() << "this python3 has TensorFlow";
  ASSERT_TRUE(r.mapped.has_value());
  bool libc = false;
  for (const auto& m : *r.mapped) libc = libc || m.find("/libc.so.6") != std::string::npos;
  EXPECT_TRUE(libc) << "python3 maps libc.so.6";
}

TEST(TfCheckRun, DifferenceIsRenderedLoudly) {
  auto host = make_system_host();
  report::VerifyOutcome v;
  v.python = "fake_python_cpu";
  v.tf = run_tf_check(*host, fake_python("fake_python_cpu", kCpuOnlyJson), std::chrono::seconds(20));
  v.prediction = compare_prediction(will_use(1), *v.tf);
  std::string text = report::render_verify_text(v);
  EXPECT_NE(text.find("!!! PREDICTION DIFFERS FROM TENSORFLOW'S REAL ANSWER"), std::string::npos) << text;
  EXPECT_NE(text.find("  - predicted TensorFlow would use the GPU; it lists no GPU"), std::string::npos) << text;
  EXPECT_FALSE(v.passed());
  auto j = report::verify_json(v);
  EXPECT_EQ(j["prediction"]["verdict"], "differs");
  EXPECT_EQ(j["tensorflow"]["tf_version"], "2.17.0");
}

}  // namespace
}  // namespace tfgpu::gpu
