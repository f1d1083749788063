// Runtime-layer rules: CUDA libraries, cuDNN, zlibwapi, several CUDAs, library planting,
// conda conflicts, XLA, the Visual C++ runtime.
#include <gtest/gtest.h>

#include <map>

#include "report/doctor_report.h"
#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

using testing::ids;
using testing::load_scenario;
using testing::test_kb;

TEST(RuleCudaLibraries, PipWheelsFoundThroughTfRunpath) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  auto envs = rules::tf_envs(s, test_kb());
  ASSERT_EQ(envs.size(), 1u);
  rules::Resolution r = rules::resolve(s, &envs[0], "libcudart.so.12");
  EXPECT_EQ(r.found_path, "/home/bob/tf/lib/python3.11/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12");
  EXPECT_EQ(r.found_via.rfind("DT_RUNPATH of ", 0), 0u) << r.found_via;
  EXPECT_TRUE(rules::rule_cuda_libraries(s, test_kb()).empty());
}

TEST(RuleCudaLibraries, Tf2161WithoutRunpathCannotFindTheWheels) {
  auto f = rules::rule_cuda_libraries(load_scenario("linux_tf2161_pip_libs_not_found"), test_kb());
  EXPECT_EQ(ids(f), std::set<std::string>{"pip_nvidia_libs_not_found"});
}

TEST(RuleCudaLibraries, NothingInstalledIsCudartMissingWithInstallSteps) {
  auto f = rules::rule_cuda_libraries(load_scenario("win_cudart_missing"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "cudart_missing");
  EXPECT_NE(f[0].title.find("cudart64_110.dll"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].fix[0].find("CUDA 11.2"), std::string::npos) << f[0].fix[0];
}

TEST(RuleCudaLibraries, InstalledButNotOnPath) {
  auto f = rules::rule_cuda_libraries(load_scenario("win_cuda_not_on_path"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "env_path_not_set");
  EXPECT_NE(f[0].fix[0].find("CUDA\\v11.2\\bin"), std::string::npos) << f[0].fix[0];
}

TEST(RuleCudaLibraries, OlderCudartFirstOnPathIsAMismatch) {
  auto f = rules::rule_cuda_libraries(load_scenario("win_old_cudart_first_on_path"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "cuda_version_mismatch");
}

TEST(RuleCudaLibraries, Cuda12ForTf210SuggestsATfThatLoadsIt) {
  auto f = rules::rule_cuda_libraries(load_scenario("linux_cuda12_for_tf210"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "cuda_version_mismatch");
  EXPECT_NE(f[0].fix.back().find("tensorflow==2.17.*"), std::string::npos) << f[0].fix.back();
}

// The release suggested for the CUDA at hand is one tfgpu plans (not a tensorflow_gpu 1.x
// row), under the name of its CUDA build: "tensorflow-gpu" up to 2.0, whose plain
// "tensorflow" package is the CPU-only one.
TEST(RuleCudaLibraries, ATfForCuda100IsNamedByItsGpuPackage) {
  Snapshot s = load_scenario("linux_cuda12_for_tf210");
  const std::map<std::string, std::string> cuda100 = {
      {"cudart", "libcudart.so.10.0"}, {"cublas", "libcublas.so.10.0"}, {"cufft", "libcufft.so.10.0"},
      {"curand", "libcurand.so.10.0"}, {"cusolver", "libcusolver.so.10.0"}, {"cusparse", "libcusparse.so.10.0"},
      {"cudnn", "libcudnn.so.7"}};
  int renamed = 0;
  for (auto& l : s.libraries) {
    auto it = cuda100.find(l.component);
    if (it == cuda100.end()) continue;
    l.path = l.path.substr(0, l.path.rfind('/') + 1) + it->second;
    l.name = l.elf.soname = it->second;
    ++renamed;
  }
  ASSERT_GE(renamed, 6);
  auto f = rules::rule_cuda_libraries(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "cuda_version_mismatch");
  EXPECT_NE(f[0].fix.back().find("\"tensorflow-gpu==2.0.*\""), std::string::npos) << f[0].fix.back();
}

// CUDA 13's libcusparse.so.12 and cuDNN 9 for CUDA 13 answer a CUDA 12 TF's dlopen by
// name: a warning naming both CUDA versions, library by library.
TEST(RuleOtherCudaMajor, SameSonameFromCuda13ForACuda12TfIsAWarningNamingBoth) {
  Snapshot s = load_scenario("linux_cuda13_libs_for_tf218");
  auto f = rules::rule_other_cuda_major(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "cuda_library_other_major");
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_NE(f[0].title.find("libcusparse.so.12"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].title.find("libcudnn.so.9"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].title.find("CUDA 13"), std::string::npos) << f[0].title;
  EXPECT_EQ(f[0].title.find("libcufft"), std::string::npos) << "libcufft.so.11 is CUDA 12's name: the wheel's";
  auto has = [&](const std::vector<Finding>& fs, const std::string& text) {
    for (const auto& e : fs[0].evidence)
      if (e.fact == text) return true;
    return false;
  };
  EXPECT_TRUE(has(f, "libcusparse.so.12 comes from CUDA 13.0.96 (/usr/local/cuda-13.0), TensorFlow 2.18.0 was built for CUDA 12.5"));
  EXPECT_TRUE(has(f, "libcudnn.so.9 comes from cuDNN 9.19.0 for CUDA 13 (/usr/local/cuda-13.0), TensorFlow 2.18.0 was built for CUDA 12.5"));
  for (const auto& e : f[0].evidence) {
    if (e.fact.starts_with("libcusparse.so.12")) {
      EXPECT_FALSE(e.trail.empty()) << "the loader's trail comes with it";
    }
  }
  EXPECT_NE(f[0].fix[0].find("/usr/local/cuda-13.0/lib"), std::string::npos) << f[0].fix[0];
  // TF's own build_info names the CUDA it was built with, more precisely than the KB row.
  s.pythons[0].tensorflow[0].build_info["cuda_version"] = "12.5.1";
  EXPECT_TRUE(has(rules::rule_other_cuda_major(s, test_kb()),
                  "libcusparse.so.12 comes from CUDA 13.0.96 (/usr/local/cuda-13.0), TensorFlow 2.18.0 was built for CUDA 12.5.1"));
  // The wheels alone: every library is CUDA 12's.
  EXPECT_TRUE(rules::rule_other_cuda_major(load_scenario("linux_pip_and_cuda_good"), test_kb()).empty());
  EXPECT_TRUE(rules::rule_other_cuda_major(load_scenario("linux_gtx960_tf218"), test_kb()).empty());
}

TEST(RuleCudnn, MissingOldShadowingAndIncomplete) {
  EXPECT_EQ(ids(rules::rule_cudnn(load_scenario("win_cudnn81_missing"), test_kb())), std::set<std::string>{"cudnn_missing"});
  auto shadow = rules::rule_cudnn(load_scenario("linux_old_cudnn_shadows"), test_kb());
  ASSERT_EQ(shadow.size(), 1u);
  EXPECT_EQ(shadow[0].id, "cudnn_version_mismatch");
  EXPECT_NE(shadow[0].fix[0].find("/opt/cudnn-8.2/lib/libcudnn.so.8"), std::string::npos) << shadow[0].fix[0];
  EXPECT_EQ(ids(rules::rule_cudnn(load_scenario("linux_cudnn_incomplete_copy"), test_kb())), std::set<std::string>{"cudnn_incomplete"});
  EXPECT_TRUE(rules::rule_cudnn(load_scenario("win_tf210_good"), test_kb()).empty());
}

TEST(RuleZlibwapi, OnlyForCudnnThatNeedsIt) {
  EXPECT_EQ(rules::rule_zlibwapi(load_scenario("win_zlibwapi_missing"), test_kb()).size(), 1u);
  EXPECT_TRUE(rules::rule_zlibwapi(load_scenario("win_tf210_good"), test_kb()).empty());  // cuDNN 8.1
}

TEST(RuleMultipleCuda, TwoVersionsOnThePathAndWhichToKeep) {
  auto f = rules::rule_multiple_cuda(load_scenario("linux_two_cuda_on_ld_library_path"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].fix[0].find("/usr/local/cuda-11.8/lib64 first"), std::string::npos) << f[0].fix[0];
}

TEST(RulePathPlanting, WorldWritableDirBeforeCuda) {
  auto f = rules::rule_path_planting(load_scenario("linux_ld_library_path_world_writable"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "library_path_world_writable");
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  EXPECT_TRUE(rules::rule_path_planting(s, test_kb()).empty());
  s = load_scenario("linux_cudnn_incomplete_copy");
  s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.8/lib64:/tmp";  // after the CUDA folder: fine
  EXPECT_TRUE(rules::rule_path_planting(s, test_kb()).empty());
}

TEST(RulePathPlanting, EmptyDotOrRelativeElementSearchesTheCurrentDirWhereverItSits) {
  Snapshot s = load_scenario("linux_cudnn_incomplete_copy");
  for (std::string value : {":/usr/local/cuda-11.8/lib64", "/usr/local/cuda-11.8/lib64:", "/usr/local/cuda-11.8/lib64::/opt/x",
                            ".:/usr/local/cuda-11.8/lib64", "/usr/local/cuda-11.8/lib64:.", "/usr/local/cuda-11.8/lib64:lib",
                            "/opt/nothing-cuda:./plugins"}) {
    s.env["LD_LIBRARY_PATH"] = value;
    auto f = rules::rule_path_planting(s, test_kb());
    ASSERT_EQ(f.size(), 1u) << value;
    EXPECT_EQ(f[0].id, "library_path_current_dir") << value;
    EXPECT_EQ(f[0].severity, Severity::kWarning);
    EXPECT_NE(f[0].evidence[0].fact.find("LD_LIBRARY_PATH element #"), std::string::npos) << f[0].evidence[0].fact;
  }
  s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.8/lib64:.";
  auto f = rules::rule_path_planting(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fix.back(), "export LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64");  // the absolute elements, in order
  s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.8/lib64:/opt/x";
  EXPECT_TRUE(rules::rule_path_planting(s, test_kb()).empty());
  s.env["LD_LIBRARY_PATH"] = "";  // glibc ignores an empty variable as a whole
  EXPECT_TRUE(rules::rule_path_planting(s, test_kb()).empty());
}

TEST(RuleCondaCuda, CondaCudatoolkitNextToPipCuda12) {
  EXPECT_EQ(rules::rule_conda_cuda(load_scenario("linux_conda_cudatoolkit_conflict"), test_kb()).size(), 1u);
  EXPECT_TRUE(rules::rule_conda_cuda(load_scenario("win_tf210_good"), test_kb()).empty());
}

TEST(RuleXla, NoToolkitNoNvccWheel) {
  EXPECT_EQ(rules::rule_xla(load_scenario("linux_xla_ptxas_missing"), test_kb()).size(), 1u);
  EXPECT_TRUE(rules::rule_xla(load_scenario("linux_pip_and_cuda_good"), test_kb()).empty());
}

TEST(RuleMsvcRuntime, OnlyWhenTheRuntimeProbeLooked) {
  Snapshot s = load_scenario("win_msvcp140_1_missing");
  EXPECT_EQ(rules::rule_msvc_runtime(s, test_kb()).size(), 1u);
  s.runtime_state.status = ProbeStatus::kNotProbed;
  EXPECT_TRUE(rules::rule_msvc_runtime(s, test_kb()).empty());
}

// TensorRT (kb [[tensorrt]], read from the wheels and from real runs): TF 2.15 opens
// libnvinfer.so.8.6.1 when it starts and warns when it is missing; harmless, said as info.
TEST(RuleTensorrt, MissingTensorrtIsAHarmlessNoteNamingTheFile) {
  auto f = rules::rule_tensorrt(load_scenario("linux_pip_and_cuda_good"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "tensorrt_not_found");
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_NE(f[0].title.find("libnvinfer.so.8.6.1"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].title.find("Could not find TensorRT"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].fix.back().find("TensorRT 8.6.1"), std::string::npos) << f[0].fix.back();
}

TEST(RuleTensorrt, TensorrtOnTheSearchPathIsNoFinding) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  std::vector<LibraryFile> trt;
  for (const auto& l : s.libraries)
    if (l.name == "libcudnn.so.8")
      for (std::string name : {"libnvinfer.so.8.6.1", "libnvinfer_plugin.so.8.6.1"}) {
        LibraryFile copy = l;
        copy.path = l.path.substr(0, l.path.rfind('/') + 1) + name;
        copy.name = copy.elf.soname = name;
        copy.component = "tensorrt";
        trt.push_back(copy);
      }
  ASSERT_EQ(trt.size(), 2u);
  s.libraries.insert(s.libraries.end(), trt.begin(), trt.end());
  EXPECT_TRUE(rules::rule_tensorrt(s, test_kb()).empty());
}

// A build without TensorRT (build_info is_tensorrt_build False) never opens it: no note, and
// the verdict does not list it.
TEST(RuleTensorrt, BuildWithoutTensorrtOpensNone) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.pythons.front().tensorflow.front().build_info["is_tensorrt_build"] = "False";
  EXPECT_TRUE(rules::rule_tensorrt(s, test_kb()).empty());
  DoctorReport r = diagnose(s, test_kb());
  ASSERT_FALSE(r.verdicts.empty());
  for (const auto& l : r.verdicts.front().libraries) EXPECT_NE(l.component, "tensorrt") << l.file;
}

// TF 2.18 on has no TensorRT build (real run of 2.21: no libnvinfer attempt).
TEST(RuleTensorrt, Tf221OpensNoTensorrt) {
  EXPECT_TRUE(rules::rule_tensorrt(load_scenario("real_tf221_cuda_as_installed"), test_kb()).empty());
}

}  // namespace
}  // namespace tfgpu
