// Hardware-layer rules: GPU presence, CPU, compute capability, memory, mixed precision.
#include <gtest/gtest.h>

#include "rules/rule_list.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

using testing::load_scenario;
using testing::test_kb;

TEST(RuleComputeCapability, Gtx960IsBelowTf218AndGetsANewestFittingRelease) {
  auto f = rules::rule_compute_capability(load_scenario("linux_gtx960_tf218"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "compute_capability_unsupported");
  EXPECT_EQ(f[0].severity, Severity::kBlocker);
  EXPECT_NE(f[0].fix[0].find("TensorFlow 2.16 (the newest release known to have kernels"), std::string::npos) << f[0].fix[0];
}

TEST(RuleComputeCapability, OneIgnoredGpuOfTwoIsAWarning) {
  Snapshot s = load_scenario("linux_gtx960_tf218");
  GpuInfo other = s.gpus[0];
  other.name = "NVIDIA GeForce RTX 4090";
  other.pci_id = "10de:2684";
  other.compute_capability = "8.9";
  s.gpus.push_back(other);
  auto f = rules::rule_compute_capability(s, test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kWarning);
}

TEST(RuleComputeCapability, H100OnTf218IsPtxJit) {
  auto f = rules::rule_compute_capability(load_scenario("linux_h100_ptx_jit"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "ptx_jit_slow");
}

TEST(RuleComputeCapability, CcFromTheKbWhenTheProbeHadOnlyThePciId) {
  Snapshot s = load_scenario("linux_gtx960_tf218");
  s.gpus[0].compute_capability = "";
  EXPECT_EQ(rules::rule_compute_capability(s, test_kb()).size(), 1u);
}

TEST(RuleCpu, NoAvxBlocksUnknownDoesNot) {
  EXPECT_EQ(rules::rule_cpu(load_scenario("linux_cpu_without_avx"), test_kb()).size(), 1u);
  Snapshot s = load_scenario("linux_cpu_without_avx");
  s.host.cpu.avx = Tri::kUnknown;
  EXPECT_TRUE(rules::rule_cpu(s, test_kb()).empty());
}

TEST(RuleGpuPresence, WslHasNoPciGpuButTheDriverSeesOne) {
  EXPECT_TRUE(rules::rule_gpu_presence(load_scenario("wsl2_good"), test_kb()).empty());
}

TEST(RuleMemory, SuggestsALimitFromTheCardSize) {
  auto f = rules::rule_memory(load_scenario("linux_pip_and_cuda_good"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  // 24 GiB = 24576 MiB; 90 % rounded down to 256 MiB = 22016.
  EXPECT_NE(f[0].fix.back().find("memory_limit=22016"), std::string::npos) << f[0].fix.back();
}

TEST(RuleMemory, WarnsWhenOthersHoldMemoryAndStaysQuietWithAllowGrowth) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.gpus[0].memory_free_bytes = s.gpus[0].memory_total_bytes / 2;
  EXPECT_EQ(rules::rule_memory(s, test_kb()).at(0).severity, Severity::kWarning);
  s.env["TF_FORCE_GPU_ALLOW_GROWTH"] = "true";
  EXPECT_TRUE(rules::rule_memory(s, test_kb()).empty());
}

TEST(RuleMixedPrecision, TensorCoresFromComputeCapabilitySevenOn) {
  auto f = rules::rule_mixed_precision(load_scenario("linux_pip_and_cuda_good"), test_kb());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].fix[0].find("mixed_bfloat16"), std::string::npos);  // Ada: bfloat16
  EXPECT_TRUE(rules::rule_mixed_precision(load_scenario("linux_gtx960_tf218"), test_kb()).empty());
}

}  // namespace
}  // namespace tfgpu
