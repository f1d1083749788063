// Driver layer end to end: the real `tfgpu __probe-driver` child against the mock
// libnvidia-ml.so.1 / libcuda.so.1 built by tests/mocks_nvml: one GPU, two GPUs, an old
// driver (legacy symbols only), an init failure, a crash and a hang; tfgpu never dies.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <gtest/gtest.h>

#include "host/host.h"
#include "probe/probe.h"
#include "probe/probe_child.h"

namespace tfgpu {
namespace {

using namespace std::chrono_literals;

class ProbeDriverMock : public ::testing::Test {
 protected:
  static std::string mocks() { return std::string(TFGPU_TEST_BINARY_DIR) + "/mocks_nvml"; }

  Snapshot probe(const std::string& nvml_mode, const std::string& nvml_variant = "current",
                 const std::string& cuda_mode = "ok", std::chrono::milliseconds timeout = 5000ms,
                 std::map<std::string, std::string> extra_env = {}) {
    host_ = make_system_host();
    probe::ProbeOptions o;
    o.self_exe = TFGPU_EXE;
    o.nvml_path = mocks() + "/" + nvml_variant + "/libnvidia-ml.so.1";
    o.cuda_path = mocks() + "/cuda/libcuda.so.1";
    o.child_env = {{"TFGPU_MOCK_NVML", nvml_mode}, {"TFGPU_MOCK_CUDA", cuda_mode}};
    o.child_env.insert(extra_env.begin(), extra_env.end());
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

// Hostile libraries (tests/support/mock_hostile.h): the deadline holds whatever the library
// does to its descriptors, signals or process group, and nothing it started outlives it.
class ProbeDriverHostile : public ProbeDriverMock {
 protected:
  Snapshot probe_hostile(const std::string& mode, std::chrono::milliseconds timeout = 600ms) {
    pidfile_ = std::string(TFGPU_TEST_BINARY_DIR) + "/hostile_" + mode + "_" + std::to_string(::getpid()) + ".pid";
    std::remove(pidfile_.c_str());
    auto t0 = std::chrono::steady_clock::now();
    Snapshot s = probe("one_gpu", "current", "ok", timeout, {{"TFGPU_MOCK_HOSTILE", mode}, {"TFGPU_MOCK_PIDFILE", pidfile_}});
    // Two children (NVML, then libcuda), each at most the timeout plus the kill: a bound
    // that only a hang breaks, not a measurement.
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 2 * timeout + 3s) << "the deadline did not hold";
    return s;
  }
  // The grandchild's pid (written by it), or 0.
  pid_t grandchild() const {
    std::ifstream f(pidfile_);
    long pid = 0;
    f >> pid;
    return static_cast<pid_t>(pid);
  }
  static bool gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }
  std::string pidfile_;
};

TEST_F(ProbeDriverHostile, ClosedDescriptorsAndBlockedSignalsStillTimeOut) {
  Snapshot s = probe_hostile("close_fds_block");
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "timed out after 600 ms in nvmlInit_v2");
  EXPECT_EQ(s.driver.attempts[1].init_result, "timed out after 600 ms in cuDriverGetVersion");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed) << s.driver.state.reason;
}

TEST_F(ProbeDriverHostile, StoppedChildTimesOut) {
  Snapshot s = probe_hostile("sigstop");
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "timed out after 600 ms in nvmlInit_v2");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed);
}

TEST_F(ProbeDriverHostile, SetsidGrandchildHoldingThePipesDoesNotDelayTheAnswerAndIsKilled) {
  // The library answers at once but leaves a grandchild in its own session holding our
  // pipes: the answer is taken when the child exits, and the grandchild is killed.
  Snapshot s = probe_hostile("setsid_grandchild", 4000ms);
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kOk) << s.driver.state.reason;
  EXPECT_EQ(s.driver.attempts[0].init_result, "NVML_SUCCESS (0)");
  pid_t g = grandchild();
  ASSERT_GT(g, 0) << "the mock's grandchild did not start";
  EXPECT_TRUE(gone(g)) << "grandchild " << g << " outlived the probe";
}

TEST_F(ProbeDriverHostile, SetsidGrandchildOfAHangingLibraryIsKilledWithIt) {
  Snapshot s = probe_hostile("setsid_grandchild_block");
  EXPECT_EQ(s.driver.attempts[0].init_result, "timed out after 600 ms in nvmlInit_v2");
  pid_t g = grandchild();
  ASSERT_GT(g, 0);
  EXPECT_TRUE(gone(g)) << "grandchild " << g << " outlived the deadline";
}

TEST_F(ProbeDriverHostile, LibraryExitingInInitIsAFailureNotNoDriver) {
  Snapshot s = probe_hostile("exit_in_init");
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result.rfind("failed: the probe child (exited with 0) printed no answer in nvmlInit_v2", 0), 0u)
      << s.driver.attempts[0].init_result;
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed) << s.driver.state.reason;
  EXPECT_EQ(s.driver.state.reason.rfind("NVIDIA driver not usable", 0), 0u) << s.driver.state.reason;
}

TEST_F(ProbeDriverHostile, LibraryExitingInItsConstructorIsAFailureNotNoDriver) {
  Snapshot s = probe_hostile("exit_in_constructor");
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_NE(s.driver.attempts[0].init_result.find("printed no answer in dlopen"), std::string::npos)
      << s.driver.attempts[0].init_result;
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed) << s.driver.state.reason;
}

// The answer written without a child (ProbeOptions::skip_certainly_absent) is the real
// child's answer, word for word: on this machine, with an LD_LIBRARY_PATH of an empty
// directory, both ways. (Where the driver is installed neither skips: equal as well.)
TEST(ProbeDriverSkip, AnswerWithoutChildIsTheRealChildsAnswer) {
  auto host = make_system_host();
  char dir_template[] = "/tmp/tfgpu-empty-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  for (auto library : {probe::VendorLibrary::kNvml, probe::VendorLibrary::kCudaDriver}) {
    probe::ProbeOptions o;
    o.self_exe = TFGPU_EXE;
    o.child_env = {{"LD_LIBRARY_PATH", dir_template}};
    o.skip_certainly_absent = false;
    probe::ChildAnswer real = probe::run_vendor_child(*host, o, library, "");
    o.skip_certainly_absent = true;
    probe::ChildAnswer written = probe::run_vendor_child(*host, o, library, "");
    SCOPED_TRACE(probe::vendor_library_name(library));
    EXPECT_EQ(written.ok, real.ok);
    EXPECT_EQ(written.attempt.library, real.attempt.library);
    EXPECT_EQ(written.attempt.tried, real.attempt.tried);
    EXPECT_EQ(written.attempt.errors, real.attempt.errors);
    EXPECT_EQ(written.attempt.opened, real.attempt.opened);
    EXPECT_EQ(written.attempt.init_result, real.attempt.init_result);
    EXPECT_EQ(written.summary, real.summary);
  }
  ::rmdir(dir_template);
}

}  // namespace
}  // namespace tfgpu
