// `tfgpu verify --python PATH` without --prediction: doctor's verdict for that
// interpreter, turned into the prediction TensorFlow's answer is compared with.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "cli/verify_prediction.h"
#include "rules/rule_support.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

PythonEnv env(std::string exe, std::string prefix, std::string kind, std::string name, std::string tf_version) {
  PythonEnv py;
  py.executable = std::move(exe);
  py.prefix = std::move(prefix);
  py.kind = std::move(kind);
  py.name = std::move(name);
  py.version = "3.11.9";
  if (!tf_version.empty()) {
    TensorflowInstall tf;
    tf.package = "tensorflow";
    tf.version = std::move(tf_version);
    py.tensorflow.push_back(tf);
  }
  return py;
}

Verdict verdict_for(const PythonEnv& py, VerdictKind kind, int gpus, std::vector<std::string> because = {}) {
  Verdict v;
  v.kind = kind;
  v.env = rules::env_label(py);
  v.gpu_count = gpus;
  v.because = std::move(because);
  return v;
}

std::string same(const std::string& p) { return p; }

// Two venvs whose python links to one base interpreter, and that base itself.
struct Machine {
  Snapshot s;
  std::vector<Verdict> verdicts;
  Machine() {
    s.pythons.push_back(env("/home/u/gpu/bin/python3", "/home/u/gpu", "venv", "gpu", "2.16.1"));
    s.pythons.push_back(env("/home/u/cpu/bin/python3", "/home/u/cpu", "venv", "cpu", "2.16.1"));
    s.pythons.push_back(env("/usr/bin/python3.11", "/usr", "system", "", ""));
    verdicts.push_back(verdict_for(s.pythons[0], VerdictKind::kWillUseGpu, 2));
    verdicts.push_back(
        verdict_for(s.pythons[1], VerdictKind::kWillNotUseGpu, 0, {"tensorflow-cpu is the CPU-only build"}));
  }
};

TEST(VerifyPrediction, WillUseGpuVerdictPredictsItsGpuCount) {
  Verdict v;
  v.kind = VerdictKind::kWillUseGpu;
  v.env = "venv 'tf' (/v/bin/python)";
  v.gpu_count = 2;
  auto p = prediction_from_verdict(v);
  EXPECT_EQ(p.outcome, gpu::TfPrediction::Outcome::kWillUseGpu);
  EXPECT_EQ(p.gpus, 2);
  EXPECT_EQ(p.source, "tfgpu doctor (venv 'tf' (/v/bin/python))");
}

TEST(VerifyPrediction, BlockedOrNoTensorflowPredictsNoGpuWithTheReasons) {
  for (VerdictKind k : {VerdictKind::kWillNotUseGpu, VerdictKind::kNoTensorflow}) {
    Verdict v;
    v.kind = k;
    v.because = {"libcudnn.so.8 is missing", "the driver is too old"};
    auto p = prediction_from_verdict(v);
    EXPECT_EQ(p.outcome, gpu::TfPrediction::Outcome::kWillNotUseGpu) << to_string(k);
    EXPECT_EQ(p.reasons, v.because);
    EXPECT_EQ(p.source, "tfgpu doctor");
  }
}

TEST(VerifyPrediction, CannotTellIsNoPrediction) {
  Verdict v;
  v.kind = VerdictKind::kCannotTell;
  v.because = {"the driver was not probed"};
  auto p = prediction_from_verdict(v);
  EXPECT_EQ(p.outcome, gpu::TfPrediction::Outcome::kUnknown);
  // compare_prediction then says there is nothing to compare with.
  gpu::TfCheckResult seen;
  seen.gpus = {"/physical_device:GPU:0"};
  EXPECT_EQ(gpu::compare_prediction(p, seen).verdict, gpu::PredictionCheck::Verdict::kNoPrediction);
}

TEST(VerifyPrediction, PicksTheVerdictOfTheInterpreterGiven) {
  Machine m;
  auto gpu_env = prediction_for_python(m.s, m.verdicts, "/home/u/gpu/bin/python3", same);
  ASSERT_TRUE(gpu_env.prediction.has_value()) << gpu_env.note;
  EXPECT_EQ(gpu_env.prediction->outcome, gpu::TfPrediction::Outcome::kWillUseGpu);
  EXPECT_EQ(gpu_env.prediction->gpus, 2);
  auto cpu_env = prediction_for_python(m.s, m.verdicts, "/home/u/cpu/bin/python3", same);
  ASSERT_TRUE(cpu_env.prediction.has_value());
  EXPECT_EQ(cpu_env.prediction->outcome, gpu::TfPrediction::Outcome::kWillNotUseGpu);
  EXPECT_EQ(cpu_env.prediction->reasons.at(0), "tensorflow-cpu is the CPU-only build");
}

TEST(VerifyPrediction, APrefixNamesItsEnvironment) {
  Machine m;
  auto p = prediction_for_python(m.s, m.verdicts, "/home/u/cpu/", same);
  ASSERT_TRUE(p.prediction.has_value()) << p.note;
  EXPECT_EQ(p.prediction->source, "tfgpu doctor (" + rules::env_label(m.s.pythons[1]) + ")");
}

TEST(VerifyPrediction, SymlinkedFoldersResolveWithoutMergingVenvsThatShareABase) {
  Machine m;
  // ~/envs/gpu is a link to ~/gpu; every venv python links to /usr/bin/python3.11.
  std::map<std::string, std::string> links = {{"/home/u/envs/gpu/bin", "/home/u/gpu/bin"},
                                              {"/home/u/gpu/bin/python3", "/usr/bin/python3.11"},
                                              {"/home/u/cpu/bin/python3", "/usr/bin/python3.11"},
                                              {"/home/u/envs/gpu/bin/python3", "/usr/bin/python3.11"}};
  auto resolve = [&](const std::string& p) {
    auto it = links.find(p);
    return it == links.end() ? p : it->second;
  };
  auto p = prediction_for_python(m.s, m.verdicts, "/home/u/envs/gpu/bin/python3", resolve);
  ASSERT_TRUE(p.prediction.has_value()) << p.note;
  EXPECT_EQ(p.prediction->outcome, gpu::TfPrediction::Outcome::kWillUseGpu);  // the gpu venv, not the cpu one
}

TEST(VerifyPrediction, AnEnvironmentWithoutTensorflowIsPredictedNotToUseTheGpu) {
  Machine m;
  auto p = prediction_for_python(m.s, m.verdicts, "/usr/bin/python3.11", same);
  ASSERT_TRUE(p.prediction.has_value()) << p.note;
  EXPECT_EQ(p.prediction->outcome, gpu::TfPrediction::Outcome::kWillNotUseGpu);
  EXPECT_EQ(p.prediction->reasons.at(0), "TensorFlow is not installed in this environment");
}

TEST(VerifyPrediction, AnInterpreterDoctorDidNotFindGetsANoteNotAnError) {
  Machine m;
  auto p = prediction_for_python(m.s, m.verdicts, "/opt/other/bin/python", same);
  EXPECT_FALSE(p.prediction.has_value());
  EXPECT_EQ(p.note, "no prediction for /opt/other/bin/python: doctor did not find this interpreter");
  // The report then says why there is nothing to compare with.
  Snapshot empty;
  EXPECT_FALSE(prediction_for_python(empty, {}, "/usr/bin/python3", same).prediction.has_value());
}

// The prediction's library choices are doctor's: the loader model over the KB's must-load
// set, the path as the model spells it and resolved for /proc/self/maps.
TEST(VerifyPrediction, LibraryChoicesAreTheLoaderModelsForEachMustLoadLibrary) {
  Snapshot s = testing::load_scenario("linux_pip_and_cuda_good");
  auto choices = model_library_choices(s, testing::test_kb(), s.pythons[0],
                                       [](const std::string& p) { return "/resolved" + p; });
  ASSERT_FALSE(choices.empty());
  std::map<std::string, const gpu::LibraryChoice*> by_name;
  for (const auto& c : choices) by_name[c.name] = &c;
  ASSERT_TRUE(by_name.count("libcudart.so.12"));
  const auto& cudart = *by_name["libcudart.so.12"];
  EXPECT_EQ(cudart.component, "cudart");
  EXPECT_EQ(cudart.path, "/home/bob/tf/lib/python3.11/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12");
  EXPECT_EQ(cudart.canonical, "/resolved" + cudart.path);
  ASSERT_TRUE(by_name.count("libcuda.so.1"));
  EXPECT_EQ(by_name["libcuda.so.1"]->path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  // A CPU-only flavour loads no CUDA library.
  s.pythons[0].tensorflow[0].package = "tensorflow-cpu";
  EXPECT_TRUE(model_library_choices(s, testing::test_kb(), s.pythons[0], same).empty());
}

TEST(VerifyPrediction, DescribeSaysWhoPredictedWhat) {
  Machine m;
  auto p = prediction_for_python(m.s, m.verdicts, "/home/u/cpu/bin/python3", same);
  ASSERT_TRUE(p.prediction.has_value());
  EXPECT_EQ(gpu::describe_prediction(*p.prediction),
            "tfgpu doctor (venv 'cpu' (/home/u/cpu/bin/python3)) predicted: TensorFlow will not use the GPU, because "
            "tensorflow-cpu is the CPU-only build");
}

}  // namespace
}  // namespace tfgpu
