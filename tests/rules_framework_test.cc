// Framework-layer rules: platform, package, python, tf_presence, device_placement.
#include <gtest/gtest.h>

#include "rules/rule_list.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

using testing::ids;
using testing::load_scenario;
using testing::test_kb;

TEST(RulePlatform, WindowsTf211AndNewerIsCpuOnlyWithBothFixes) {
  auto f = rules::rule_platform(load_scenario("win_classic_guide_tf212"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "windows_native_gpu_unsupported_tf_ge_2_11");
  std::string fix;
  for (const auto& s : f[0].fix) fix += s + "\n";
  // Fix A from the KB's last Windows GPU release (2.10: CUDA 11.2, cuDNN 8.1); fix B: WSL2.
  EXPECT_NE(fix.find("TensorFlow 2.10 with CUDA 11.2 and cuDNN 8.1"), std::string::npos) << fix;
  EXPECT_NE(fix.find("cudatoolkit=11.2 cudnn=8.1"), std::string::npos) << fix;
  EXPECT_NE(fix.find("tensorflow<2.11"), std::string::npos) << fix;
  EXPECT_NE(fix.find("wsl --install"), std::string::npos) << fix;
  EXPECT_NE(fix.find("tensorflow[and-cuda]"), std::string::npos) << fix;
}

TEST(RulePlatform, WindowsTf210IsAGpuBuild) { EXPECT_TRUE(rules::rule_platform(load_scenario("win_tf210_good"), test_kb()).empty()); }

TEST(RulePlatform, MacosNeverUsesCuda) {
  auto f = rules::rule_platform(load_scenario("macos_tf216"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "macos_gpu_unsupported");
}

TEST(RulePlatform, TooNewPythonForTf210GetsANewEnvInFixA) {
  Snapshot s = load_scenario("win_classic_guide_tf212");
  s.pythons[0].version = "3.11.4";
  auto f = rules::rule_platform(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  std::string fix;
  for (const auto& x : f[0].fix) fix += x + "\n";
  EXPECT_NE(fix.find("conda create -n tf2.10 python=3.10"), std::string::npos) << fix;
}

TEST(RulePackage, CpuFlavourIsWrong) {
  auto f = rules::rule_package(load_scenario("linux_tensorflow_cpu"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "wrong_package");
  EXPECT_NE(f[0].fix.back().find("tensorflow[and-cuda]==2.15.1"), std::string::npos) << f[0].fix.back();
}

TEST(RulePackage, TwoFlavoursAtDifferentVersionsAreWrongButTheWindowsInstallerPairIsNot) {
  EXPECT_EQ(ids(rules::rule_package(load_scenario("linux_two_tf_packages"), test_kb())), std::set<std::string>{"wrong_package"});
  EXPECT_TRUE(rules::rule_package(load_scenario("win_classic_guide_tf212"), test_kb()).empty());
}

TEST(RulePython, ThirtyTwoBitPythonIsABlocker) {
  auto f = rules::rule_python(load_scenario("win_python_32bit"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "python_32bit");
  EXPECT_EQ(f[0].severity, Severity::kBlocker);
}

TEST(RulePython, NoWindowsGpuWheelForPython311) {
  auto f = rules::rule_python(load_scenario("win_python311_wants_tf210"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "python_version_unsupported");
  EXPECT_NE(f[0].fix[0].find("python=3.10"), std::string::npos) << f[0].fix[0];
}

TEST(RulePython, Python311OnLinuxHasWheels) {
  Snapshot s = load_scenario("linux_no_gpu_no_tf");
  s.pythons[0].active = true;
  EXPECT_TRUE(rules::rule_python(s, test_kb()).empty());
}

TEST(RulePython, InstalledTfOnAnUntestedPythonIsAWarning) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.pythons[0].version = "3.13.0";  // TF 2.15 lists 3.9-3.11
  auto f = rules::rule_python(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
}

TEST(RuleTfPresence, PointsToTheEnvironmentAndToPlanWhenNoEnvHasTensorflow) {
  auto f = rules::rule_tf_presence(load_scenario("linux_no_gpu_no_tf"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].fix.size(), 2u);
  EXPECT_NE(f[0].fix[0].find("tfgpu doctor --python"), std::string::npos);
  EXPECT_NE(f[0].fix[1].find("tfgpu plan --tf"), std::string::npos);
  EXPECT_TRUE(rules::rule_tf_presence(load_scenario("linux_pip_and_cuda_good"), test_kb()).empty());
}

TEST(RuleDevicePlacement, OnlyWhereAGpuBuildMeetsAGpu) {
  EXPECT_EQ(rules::rule_device_placement(load_scenario("linux_pip_and_cuda_good"), test_kb()).size(), 1u);
  EXPECT_TRUE(rules::rule_device_placement(load_scenario("win_classic_guide_tf212"), test_kb()).empty());
  EXPECT_TRUE(rules::rule_device_placement(load_scenario("linux_no_gpu_no_tf"), test_kb()).empty());
}

// NumPy next to TF < 2.18 (the KB's pip_constraint numpy<2): 1.x passes, 2.x is a blocker
// with the env's own pip in the fix; TF 2.18 has no such constraint. (The real tier checks
// the premise against real TensorFlow: tests/real/numpy_abi.py.)
TEST(RulePipConstraints, NumpyTwoNextToTfBefore218IsNumpyAbiMismatch) {
  auto with_numpy = [](const char* scenario, const char* version) {
    Snapshot s = load_scenario(scenario);
    for (auto& py : s.pythons)
      if (!py.tensorflow.empty()) py.packages.push_back({"numpy", version, "/site-packages", "numpy METADATA"});
    return s;
  };
  auto f = rules::rule_pip_constraints(with_numpy("linux_driver_too_old", "2.0.2"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "numpy_abi_mismatch");
  EXPECT_EQ(f[0].severity, Severity::kBlocker);
  EXPECT_NE(f[0].fix[0].find("pip install \"numpy<2\""), std::string::npos) << f[0].fix[0];
  EXPECT_TRUE(rules::rule_pip_constraints(with_numpy("linux_driver_too_old", "1.26.4"), test_kb()).empty());
  EXPECT_TRUE(rules::rule_pip_constraints(with_numpy("linux_gtx960_tf218", "2.0.2"), test_kb()).empty());
}

}  // namespace
}  // namespace tfgpu
