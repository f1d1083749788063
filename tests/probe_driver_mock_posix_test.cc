// Driver layer end to end: the real `tfgpu __probe-driver` child against the mock
// libnvidia-ml.so.1 / libcuda.so.1 built by tests/mocks_nvml: one GPU, two GPUs, an old
// driver (legacy symbols only), an init failure, a crash and a hang; tfgpu never dies.
#include <gtest/gtest.h>

#include "host/host.h"
#include "probe/probe.h"

namespace tfgpu {
namespace {

using namespace std::chrono_literals;

class ProbeDriverMock : public ::testing::Test {
 protected:
  static std::string mocks() { return std::string(TFGPU_TEST_BINARY_DIR) + "/mocks_nvml"; }

  Snapshot probe(const std::string& nvml_mode, const std::string& nvml_variant = "current",
                 const std::string& cuda_mode = "ok", std::chrono::milliseconds timeout = 5000ms) {
    host_ = make_system_host();
    probe::ProbeOptions o;
    o.self_exe = TFGPU_EXE;
    o.nvml_path = mocks() + "/" + nvml_variant + "/libnvidia-ml.so.1";
    o.cuda_path = mocks() + "/cuda/libcuda.so.1";
    o.child_env = {{"TFGPU_MOCK_NVML", nvml_mode}, {"TFGPU_MOCK_CUDA", cuda_mode}};
    o.child_timeout = timeout;
    Snapshot s;
    s.host.wsl2 = Tri::kNo;
    probe::probe_driver(*host_, o, s);
    return s;
  }
  std::unique_ptr<Host> host_;
};

TEST_F(ProbeDriverMock, OneGpu) {
  Snapshot s = probe("one_gpu");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kOk) << s.driver.state.reason;
  EXPECT_EQ(s.driver.version, "535.104.05");
  EXPECT_EQ(s.driver.cuda_version, "12.2");
  EXPECT_EQ(s.driver.device_count, 1);
  ASSERT_EQ(s.driver.attempts.size(), 1u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "NVML_SUCCESS (0)") << "nvmlInit_v2, not the plain nvmlInit";
  EXPECT_NE(s.driver.attempts[0].opened.find("mocks_nvml/current/libnvidia-ml.so.1"), std::string::npos);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].name, "NVIDIA GeForce RTX 3060");
  EXPECT_EQ(s.gpus[0].pci_id, "10de:2504");
  EXPECT_EQ(s.gpus[0].pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(s.gpus[0].compute_capability, "8.6");
  EXPECT_EQ(s.gpus[0].memory_total_bytes, 12884901888u);
  EXPECT_EQ(s.gpus[0].uuid, "GPU-11111111-2222-3333-4444-555555555555");
}

TEST_F(ProbeDriverMock, TwoGpus) {
  Snapshot s = probe("two_gpus");
  EXPECT_EQ(s.driver.device_count, 2);
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(s.gpus[1].index, 1);
  EXPECT_EQ(s.gpus[1].name, "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(s.gpus[1].compute_capability, "8.0");
  EXPECT_EQ(s.gpus[1].pci_bus_id, "0000:41:00.0");
}

TEST_F(ProbeDriverMock, OldDriverWithOnlyLegacySymbols) {
  Snapshot s = probe("old_driver", "legacy");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kOk) << s.driver.state.reason;
  EXPECT_EQ(s.driver.version, "470.82.01");
  EXPECT_EQ(s.driver.cuda_version, "11.4");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].compute_capability, "3.7");
  EXPECT_EQ(s.gpus[0].pci_id, "10de:102d");
  EXPECT_EQ(s.gpus[0].name, "Tesla K80");
  EXPECT_EQ(s.driver.attempts[0].init_result, "NVML_SUCCESS (0)") << "bound through the unversioned nvmlInit";
}

TEST_F(ProbeDriverMock, InitFailureFallsBackToCuDriverGetVersion) {
  Snapshot s = probe("init_fail");
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded");
  EXPECT_EQ(s.driver.attempts[1].library, "cuda");
  EXPECT_EQ(s.driver.cuda_version, "12.2");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kOk);
  EXPECT_NE(s.driver.state.reason.find("NVML unusable"), std::string::npos);
}

TEST_F(ProbeDriverMock, CrashingLibraryIsReportedAndTfgpuLives) {
  Snapshot s = probe("crash", "current", "crash");
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "crashed: signal 11 in nvmlInit_v2");
  EXPECT_EQ(s.driver.attempts[1].init_result, "crashed: signal 11 in cuDriverGetVersion");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed);
}

TEST_F(ProbeDriverMock, HangingLibraryIsKilledAfterTheTimeout) {
  Snapshot s = probe("hang", "current", "no_device", 700ms);
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "timed out after 700 ms in nvmlInit_v2");
  EXPECT_EQ(s.driver.attempts[1].init_result, "CUDA_ERROR_NO_DEVICE (100)");
  EXPECT_EQ(s.driver.cuda_version, "12.2") << "cuDriverGetVersion works without a device";
}

TEST_F(ProbeDriverMock, MissingLibraryRecordsTheVerbatimDlerror) {
  host_ = make_system_host();
  probe::ProbeOptions o;
  o.self_exe = TFGPU_EXE;
  o.nvml_path = mocks() + "/nonexistent/libnvidia-ml.so.1";
  o.cuda_path = mocks() + "/nonexistent/libcuda.so.1";
  Snapshot s;
  probe::probe_driver(*host_, o, s);
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  ASSERT_EQ(s.driver.attempts[0].errors.size(), 1u);
  EXPECT_NE(s.driver.attempts[0].errors[0].find("cannot open shared object file"), std::string::npos);
  EXPECT_EQ(s.driver.attempts[0].opened, "");
}

}  // namespace
}  // namespace tfgpu
