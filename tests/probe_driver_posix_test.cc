// Driver layer, parent side: the handling of child answers on a FakeHost (JSON, crash,
// hang, garbage). The real child against mock libraries: probe_driver_mock_posix_test.cc.
#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "probe/probe.h"

namespace tfgpu {
namespace {

using namespace std::chrono_literals;

ProcessResult exited(std::string out, int code = 0) {
  ProcessResult r;
  r.exited = true;
  r.exit_code = code;
  r.out = std::move(out);
  return r;
}

TEST(ProbeDriverParent, NvmlAnswerFillsDriverAndMergesGpusByBusId) {
  FakeHost host;
  host.set_os_release({"Linux", "6.1.0", "x86_64"});
  std::vector<std::vector<std::string>> argvs;
  host.set_process_handler([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    argvs.push_back(spec.argv);
    return exited(R"J({"library":"nvml","ok":true,"tried":["libnvidia-ml.so.1"],"errors":[],
      "opened":"libnvidia-ml.so.1","path":"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
      "init_result":"NVML_SUCCESS (0)","driver_version":"535.104.05","cuda_version":"12.2","device_count":1,
      "gpus":[{"index":0,"name":"NVIDIA GeForce RTX 3060","pci_id":"10de:2504","pci_bus_id":"0000:01:00.0",
               "compute_capability":"8.6","memory_total_bytes":12884901888,"memory_free_bytes":1,"uuid":"GPU-1"}]})J");
  });
  Snapshot s;
  GpuInfo bus;
  bus.pci_id = "10de:2504";
  bus.pci_bus_id = "0000:01:00.0";
  bus.source = "sysfs";
  s.gpus.push_back(bus);
  probe::ProbeOptions o;
  o.self_exe = "/opt/tfgpu";
  probe::probe_driver(host, o, s);
  ASSERT_EQ(argvs.size(), 1u) << "NVML gave the CUDA version: no libcuda child";
  EXPECT_EQ(argvs[0], (std::vector<std::string>{"/opt/tfgpu", "__probe-driver", "--library", "nvml"}));
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kOk);
  EXPECT_EQ(s.driver.state.source, "nvml:/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
  EXPECT_EQ(s.driver.version, "535.104.05");
  EXPECT_EQ(s.driver.cuda_version, "12.2");
  EXPECT_EQ(s.driver.device_count, 1);
  ASSERT_EQ(s.gpus.size(), 1u) << "same bus id: one GPU, not two";
  EXPECT_EQ(s.gpus[0].index, 0);
  EXPECT_EQ(s.gpus[0].name, "NVIDIA GeForce RTX 3060");
  EXPECT_EQ(s.gpus[0].memory_total_bytes, 12884901888u);
  EXPECT_EQ(s.gpus[0].source, "sysfs+nvml");
}

TEST(ProbeDriverParent, CrashAndHangAreRecordedWithTheCallInProgress) {
  FakeHost host;
  host.set_process_handler([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    ProcessResult r;
    if (spec.argv[3] == "nvml") {
      r.signal = 11;
      r.err = "tfgpu-stage: dlopen\ntfgpu-stage: nvmlInit_v2\n";
    } else {
      r.timed_out = true;
      r.err = "tfgpu-stage: dlopen\ntfgpu-stage: cuDriverGetVersion\n";
    }
    return r;
  });
  Snapshot s;
  probe::ProbeOptions o;
  o.child_timeout = 1500ms;
  probe::probe_driver(host, o, s);
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].init_result, "crashed: signal 11 in nvmlInit_v2");
  EXPECT_EQ(s.driver.attempts[1].init_result, "timed out after 1500 ms in cuDriverGetVersion");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed) << "a library that crashes is not 'no driver'";
}

TEST(ProbeDriverParent, NothingLoadsMeansAbsentWithTheLoaderErrors) {
  FakeHost host;
  host.set_os_release({"Linux", "6.1.0", "x86_64"});
  host.set_process_handler([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    std::string lib = spec.argv[3];
    std::string name = lib == "nvml" ? "libnvidia-ml.so.1" : "libcuda.so.1";
    return exited(R"({"library":")" + lib + R"(","ok":false,"tried":[")" + name + R"("],"errors":[")" + name +
                  R"(: cannot open shared object file: No such file or directory"],"opened":"","path":""})");
  });
  Snapshot s;
  probe::probe_driver(host, {}, s);
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kAbsent);
  EXPECT_NE(s.driver.state.reason.find("libnvidia-ml.so.1: cannot open shared object file"), std::string::npos);
  EXPECT_NE(s.driver.state.reason.find("libcuda.so.1: cannot open shared object file"), std::string::npos);
  EXPECT_NE(s.driver.state.reason.find("no /proc/driver/nvidia/version"), std::string::npos);
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].tried, std::vector<std::string>{"libnvidia-ml.so.1"});
}

TEST(ProbeDriverParent, GarbageFromTheChildIsAFailureNotACrash) {
  FakeHost host;
  host.set_process_handler([&](const ProcessSpec&) -> Result<ProcessResult> { return exited("{not json", 0); });
  Snapshot s;
  probe::probe_driver(host, {}, s);
  ASSERT_FALSE(s.driver.attempts.empty());
  EXPECT_NE(s.driver.attempts[0].init_result.find("printed no answer"), std::string::npos);
}

TEST(ProbeDriverParent, KernelModuleWithoutUsableLibraryIsFailed) {
  FakeHost host;
  host.set_os_release({"Linux", "6.1.0", "x86_64"});
  host.add_file("/proc/driver/nvidia/version",
                "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
                "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
  host.set_process_handler([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    return exited(R"({"library":")" + spec.argv[3] +
                  R"J(","ok":false,"tried":["x"],"errors":[],"opened":"x","path":"/x","init_result":"NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)"})J");
  });
  Snapshot s;
  probe::probe_driver(host, {}, s);
  EXPECT_EQ(s.driver.kernel_module_version, "535.104.05");
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kFailed);
  EXPECT_NE(s.driver.state.reason.find("kernel module 535.104.05"), std::string::npos);
}

TEST(ProbeDriverParent, Wsl2GpusComeFromTheDriver) {
  FakeHost host;
  host.set_os_release({"Linux", "5.15.146.1-microsoft-standard-WSL2", "x86_64"});
  host.set_process_handler([&](const ProcessSpec&) -> Result<ProcessResult> {
    return exited(R"J({"library":"nvml","ok":true,"opened":"libnvidia-ml.so.1","path":"/usr/lib/wsl/lib/libnvidia-ml.so.1",
      "driver_version":"537.42","cuda_version":"12.2","device_count":1,"gpus":[{"index":0,"name":"NVIDIA GeForce RTX 3060","compute_capability":"8.6"}]})J");
  });
  Snapshot s;
  probe::probe_host(host, s);
  probe::probe_hardware(host, {}, s);
  probe::probe_driver(host, {}, s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kOk);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].source, "nvml");
  EXPECT_EQ(s.driver.version, "537.42") << "the Windows driver's version";
}

}  // namespace
}  // namespace tfgpu
