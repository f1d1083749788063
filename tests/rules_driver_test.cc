// Driver-layer rules: presence, mismatch, version, device visibility, container, WSL2.
#include <gtest/gtest.h>

#include "rules/rule_list.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

using testing::load_scenario;
using testing::test_kb;

TEST(RuleDriverVersion, BelowTheCuda12FamilyMinimumIsTooOld) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.driver.version = "525.60.12";
  auto f = rules::rule_driver_version(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "driver_too_old");
  EXPECT_NE(f[0].title.find("525.60.13"), std::string::npos) << f[0].title;
  s.driver.version = "525.60.13";
  EXPECT_TRUE(rules::rule_driver_version(s, test_kb()).empty());
}

TEST(RuleDriverVersion, OffersTheNewestTfTheOldDriverRuns) {
  auto f = rules::rule_driver_version(load_scenario("linux_driver_too_old"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  ASSERT_GE(f[0].fix.size(), 2u);
  EXPECT_NE(f[0].fix[1].find("TensorFlow 2.14 (CUDA 11.8)"), std::string::npos) << f[0].fix[1];
}

TEST(RuleDriverVersion, Wsl2ComparesTheWindowsDriverNumber) {
  auto f = rules::rule_driver_version(load_scenario("wsl2_windows_driver_too_old"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].title.find("527.41"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].fix[0].find("WINDOWS"), std::string::npos);
  EXPECT_TRUE(rules::rule_driver_version(load_scenario("wsl2_good"), test_kb()).empty());
}

TEST(RuleDriverPresence, GpuWithoutDriverNeedsOneNewEnoughForTf) {
  auto f = rules::rule_driver_presence(load_scenario("linux_no_driver"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].fix[0].find("525.60.13 or newer"), std::string::npos) << f[0].fix[0];
}

TEST(RuleDriverPresence, NoGpuNoDriverIsTheGpuRulesBusiness) {
  EXPECT_TRUE(rules::rule_driver_presence(load_scenario("linux_no_gpu_no_tf"), test_kb()).empty());
  EXPECT_EQ(rules::rule_gpu_presence(load_scenario("linux_no_gpu_no_tf"), test_kb()).size(), 1u);
}

// NVML says the driver is not loaded and /proc/driver/nvidia/version is missing: the
// kernel module is not loaded, a blocker, even though cuDriverGetVersion answered.
TEST(RuleDriverPresence, NvmlDriverNotLoadedWithoutTheKernelModuleIsABlocker) {
  Snapshot s = load_scenario("linux_kernel_driver_not_loaded");
  ASSERT_EQ(s.driver.state.status, ProbeStatus::kOk);  // as the probe records it: NVML unusable, CUDA answered
  auto f = rules::rule_driver_presence(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "driver_missing");
  EXPECT_EQ(f[0].severity, Severity::kBlocker);
  EXPECT_NE(f[0].title.find("kernel driver is not loaded"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].evidence[0].fact.find("NVML_ERROR_DRIVER_NOT_LOADED"), std::string::npos) << f[0].evidence[0].fact;
  EXPECT_NE(f[0].fix[0].find("modprobe nvidia"), std::string::npos) << f[0].fix[0];
  // With the module loaded, NVML's answer is some other trouble: not this finding.
  s.driver.kernel_module_version = "550.54.14";
  EXPECT_TRUE(rules::rule_driver_presence(s, test_kb()).empty());
  // WSL2 has no kernel module to read.
  Snapshot wsl = load_scenario("linux_kernel_driver_not_loaded");
  wsl.host.wsl2 = Tri::kYes;
  EXPECT_TRUE(rules::rule_driver_presence(wsl, test_kb()).empty());
}

TEST(RuleDriverMismatch, RmVersionMismatchAndDifferingVersions) {
  EXPECT_EQ(rules::rule_driver_mismatch(load_scenario("linux_driver_library_mismatch"), test_kb()).size(), 1u);
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  EXPECT_TRUE(rules::rule_driver_mismatch(s, test_kb()).empty());
  s.driver.kernel_module_version = "535.1";
  EXPECT_EQ(rules::rule_driver_mismatch(s, test_kb()).size(), 1u);
}

TEST(RuleDeviceVisibility, EmptyMinusOneAndInvalidFirstIndexHideEveryGpu) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  for (const char* v : {"", "-1", "none", "3"}) {
    s.env["CUDA_VISIBLE_DEVICES"] = v;
    EXPECT_EQ(rules::rule_device_visibility(s, test_kb()).size(), 1u) << "'" << v << "'";
  }
  for (const char* v : {"0", "0,1", "GPU-5f1c8a3e"}) {
    s.env["CUDA_VISIBLE_DEVICES"] = v;
    EXPECT_TRUE(rules::rule_device_visibility(s, test_kb()).empty()) << v;
  }
}

TEST(RuleContainer, NoDriverInsideADockerContainer) {
  auto f = rules::rule_container(load_scenario("linux_container_without_gpus"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f.back().fix.back().find("--gpus all"), std::string::npos);
  EXPECT_TRUE(rules::rule_driver_presence(load_scenario("linux_container_without_gpus"), test_kb()).empty());
}

TEST(RuleWsl, LinuxDriverInsideWslIsABlockerWhenItWins) {
  auto f = rules::rule_wsl(load_scenario("wsl2_linux_driver_inside"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kBlocker);
  EXPECT_TRUE(rules::rule_wsl(load_scenario("wsl2_good"), test_kb()).empty());
}

TEST(RuleWsl, WslLibcudaPresentButNotFound) {
  auto f = rules::rule_wsl(load_scenario("wsl2_libcuda_not_found"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].fix[0].find("ld.wsl.conf"), std::string::npos);
}

}  // namespace
}  // namespace tfgpu
