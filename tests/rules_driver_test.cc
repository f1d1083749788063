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

// A healthy TF venv moved to `tf_version`, with the probe's NVML attempt failing the
// way dlopen fails when the driver's libnvidia-ml.so.1 is not installed, while
// libcuda.so.1 loads and cuInit succeeds.
Snapshot without_nvml(std::string tf_version) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.pythons[0].tensorflow[0].version = std::move(tf_version);
  s.driver.attempts = {
      {"nvml", {"libnvidia-ml.so.1", "libnvidia-ml.so"},
       {"libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
        "libnvidia-ml.so: cannot open shared object file: No such file or directory"},
       "", ""},
      {"cuda", {"libcuda.so.1"}, {}, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "CUDA_SUCCESS (0)"}};
  s.driver.state = {ProbeStatus::kOk, "NVML unusable; CUDA version from cuDriverGetVersion", "cuda:libcuda.so.1"};
  std::erase_if(s.libraries, [](const LibraryFile& f) { return f.name == "libnvidia-ml.so.1"; });
  return s;
}

bool mentions(const Finding& f, std::string_view text) {
  if (f.title.find(text) != std::string::npos) return true;
  for (const auto& e : f.evidence)
    if (e.fact.find(text) != std::string::npos) return true;
  for (const auto& x : f.fix)
    if (x.find(text) != std::string::npos) return true;
  return false;
}

TEST(RuleNvml, Tf221WithoutLibnvidiaMlListsNoGpu) {
  auto f = rules::rule_nvml(without_nvml("2.21.0"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "nvml_missing");
  EXPECT_EQ(f[0].severity, Severity::kBlocker);
  EXPECT_NE(f[0].title.find("libnvidia-ml.so.1 cannot be loaded"), std::string::npos) << f[0].title;
  EXPECT_TRUE(mentions(f[0], "cannot open shared object file"));  // the probe's dlerror, verbatim
  EXPECT_TRUE(mentions(f[0], "nvmlInit_v2"));                     // why TF needs it
  EXPECT_TRUE(mentions(f[0], "libnvidia-ml1"));                   // Debian's package
  EXPECT_TRUE(mentions(f[0], "libnvidia-compute-550"));           // Ubuntu's, for driver 550.54.14
}

TEST(RuleNvml, Tf220DoesNotInitialiseNvmlSoNothingToSay) {
  EXPECT_TRUE(rules::rule_nvml(without_nvml("2.20.0"), test_kb()).empty());
  EXPECT_TRUE(rules::rule_nvml(without_nvml("2.16.1"), test_kb()).empty());
}

TEST(RuleNvml, WorkingNvmlIsFine) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.pythons[0].tensorflow[0].version = "2.21.0";
  EXPECT_TRUE(rules::rule_nvml(s, test_kb()).empty());
}

TEST(RuleNvml, NoCudaDriverEitherIsTheDriverRulesBusiness) {
  Snapshot s = without_nvml("2.21.0");
  s.driver.attempts[1] = {"cuda", {"libcuda.so.1"}, {"libcuda.so.1: cannot open shared object file: No such file or directory"}, "", ""};
  s.driver.state = {ProbeStatus::kAbsent, "no NVIDIA driver", ""};
  EXPECT_TRUE(rules::rule_nvml(s, test_kb()).empty());
}

TEST(RuleNvml, NvmlInitFailingAlsoStopsTf221) {
  Snapshot s = without_nvml("2.21.0");
  s.driver.attempts[0] = {"nvml", {"libnvidia-ml.so.1"}, {}, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
                          "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)"};
  auto f = rules::rule_nvml(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].title.find("nvmlInit_v2 fails: NVML_ERROR_LIB_RM_VERSION_MISMATCH"), std::string::npos) << f[0].title;
  // A crash or a timeout in the probe's child says nothing certain about TF's own call.
  s.driver.attempts[0].init_result = "crashed: signal 11";
  EXPECT_TRUE(rules::rule_nvml(s, test_kb()).empty());
}

TEST(RuleNvml, WithoutAProbeAttemptTheLoaderModelDecides) {
  Snapshot s = without_nvml("2.21.0");
  s.driver.attempts.clear();
  auto f = rules::rule_nvml(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].title.find("not found by the loader"), std::string::npos) << f[0].title;
  // The same snapshot with the driver's file recorded: found, nothing to say.
  Snapshot ok = load_scenario("linux_pip_and_cuda_good");
  ok.pythons[0].tensorflow[0].version = "2.21.0";
  ok.driver.attempts.clear();
  EXPECT_TRUE(rules::rule_nvml(ok, test_kb()).empty());
}

TEST(RuleNvml, Wsl2FixPointsAtTheWindowsDriversFolder) {
  Snapshot s = without_nvml("2.21.0");
  s.host.wsl2 = Tri::kYes;
  auto f = rules::rule_nvml(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(mentions(f[0], "/usr/lib/wsl/lib"));
  EXPECT_FALSE(mentions(f[0], "libnvidia-ml1"));
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
