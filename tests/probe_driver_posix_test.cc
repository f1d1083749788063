// Driver layer, parent side: the handling of child answers on a FakeHost (JSON, crash,
// hang, garbage). The real child against mock libraries: probe_driver_mock_posix_test.cc.
#include <functional>

#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "probe/probe.h"

namespace tfgpu {
namespace {

using namespace std::chrono_literals;
using namespace std::string_literals;

ProcessResult exited(std::string out, int code = 0) {
  ProcessResult r;
  r.exited = true;
  r.exit_code = code;
  r.out = std::move(out);
  return r;
}

// A machine with the driver's user-space libraries where ld.so finds them: the probe
// starts its children only for a library that exists somewhere the loader looks.
void install_driver_libraries(FakeHost& host, const std::string& dir = "/usr/lib/x86_64-linux-gnu") {
  host.add_file(dir + "/libnvidia-ml.so.1", "");
  host.add_file(dir + "/libcuda.so.1", "");
}

TEST(ProbeDriverParent, NvmlAnswerFillsDriverAndMergesGpusByBusId) {
  FakeHost host;
  install_driver_libraries(host);
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
  install_driver_libraries(host);
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
  install_driver_libraries(host, "/opt/elsewhere");  // where ld.so does not look: the children run
  host.set_process_handler([&](const ProcessSpec& spec) -> Result<ProcessResult> {
    std::string lib = spec.argv[3];
    std::string name = lib == "nvml" ? "libnvidia-ml.so.1" : "libcuda.so.1";
    return exited(R"({"library":")" + lib + R"(","ok":false,"tried":[")" + name + R"("],"errors":[")" + name +
                  R"(: cannot open shared object file: No such file or directory"],"opened":"","path":""})");
  });
  Snapshot s;
  probe::ProbeOptions o;
  o.skip_certainly_absent = false;
  probe::probe_driver(host, o, s);
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kAbsent);
  EXPECT_NE(s.driver.state.reason.find("libnvidia-ml.so.1: cannot open shared object file"), std::string::npos);
  EXPECT_NE(s.driver.state.reason.find("libcuda.so.1: cannot open shared object file"), std::string::npos);
  EXPECT_NE(s.driver.state.reason.find("no /proc/driver/nvidia/version"), std::string::npos);
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].tried, std::vector<std::string>{"libnvidia-ml.so.1"});
}

#if defined(__x86_64__) && defined(__GLIBC__)
// Nothing named like the driver's libraries where ld.so looks: no child starts, and the
// attempts say what glibc's dlopen says (the real child's own words: the test below).
TEST(ProbeDriverParent, LibrariesNowhereTheLoaderLooksStartNoChild) {
  FakeHost host;
  host.set_os_release({"Linux", "6.1.0", "x86_64"});
  install_driver_libraries(host, "/opt/elsewhere");
  host.set_env("LD_LIBRARY_PATH", "/opt/cuda/lib64");
  host.add_file("/etc/ld.so.cache", "glibc-ld.so.cache1.1\0libz.so.1\0/lib/libz.so.1\0"s);
  int children = 0;
  host.set_process_handler([&](const ProcessSpec&) -> Result<ProcessResult> {
    ++children;
    return exited("{}");
  });
  Snapshot s;
  probe::probe_driver(host, {}, s);
  EXPECT_EQ(children, 0);
  EXPECT_EQ(s.driver.state.status, ProbeStatus::kAbsent);
  ASSERT_EQ(s.driver.attempts.size(), 2u);
  EXPECT_EQ(s.driver.attempts[0].library, "nvml");
  EXPECT_EQ(s.driver.attempts[0].tried, (std::vector<std::string>{"libnvidia-ml.so.1", "libnvidia-ml.so"}));
  EXPECT_EQ(s.driver.attempts[0].errors[0], "libnvidia-ml.so.1: cannot open shared object file: No such file or directory");
  EXPECT_EQ(s.driver.attempts[1].library, "cuda");
  EXPECT_EQ(s.driver.attempts[1].tried, std::vector<std::string>{"libcuda.so.1"});
}

// Any place dlopen could find one of the names, or any doubt about where it looks,
// starts that library's child. (Relative and empty LD_LIBRARY_PATH elements never reach
// the child: keep_child_loader_off_current_dir drops them.)
TEST(ProbeDriverParent, AnyDoubtStartsTheChild) {
  struct Case {
    const char* what;
    std::function<void(FakeHost&)> set_up;
  };
  const std::vector<Case> cases = {
      {"in an LD_LIBRARY_PATH directory", [](FakeHost& h) { h.set_env("LD_LIBRARY_PATH", "/opt/drv"); h.add_file("/opt/drv/libnvidia-ml.so.1", ""); }},
      {"the unversioned name in a system directory", [](FakeHost& h) { h.add_file("/usr/lib64/libnvidia-ml.so", ""); }},
      {"a dangling link with the name", [](FakeHost& h) { h.add_symlink("/lib/x86_64-linux-gnu/libcuda.so.1", "/gone/libcuda.so.1"); }},
      {"named in ld.so.cache", [](FakeHost& h) { h.add_file("/etc/ld.so.cache", "x\0libcuda.so.1\0/usr/lib/wsl/lib/libcuda.so.1"s); }},
      {"in the second LD_LIBRARY_PATH directory", [](FakeHost& h) { h.set_env("LD_LIBRARY_PATH", "/opt/a::/opt/b"); h.add_file("/opt/b/libcuda.so.1", ""); }},
      {"a glibc-hwcaps subdirectory", [](FakeHost& h) { h.set_env("LD_LIBRARY_PATH", "/opt/a"); h.add_dir("/opt/a/glibc-hwcaps"); }},
      {"a legacy platform subdirectory", [](FakeHost& h) { h.add_dir("/usr/lib/x86_64-linux-gnu/haswell"); }},
      {"LD_PRELOAD", [](FakeHost& h) { h.set_env("LD_PRELOAD", "/opt/x/libshim.so"); }},
      {"/etc/ld.so.preload", [](FakeHost& h) { h.add_file("/etc/ld.so.preload", "/opt/x/libshim.so\n"); }},
  };
  for (const auto& c : cases) {
    FakeHost host;
    host.set_os_release({"Linux", "6.1.0", "x86_64"});
    c.set_up(host);
    int children = 0;
    host.set_process_handler([&](const ProcessSpec& spec) -> Result<ProcessResult> {
      ++children;
      return exited(R"({"library":")" + spec.argv[3] + R"(","ok":false,"tried":["x"],"errors":["x: not found"],"opened":"","path":""})");
    });
    Snapshot s;
    probe::probe_driver(host, {}, s);
    EXPECT_GE(children, 1) << c.what;
  }
}
#endif

TEST(ProbeDriverParent, GarbageFromTheChildIsAFailureNotACrash) {
  FakeHost host;
  install_driver_libraries(host);
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
  install_driver_libraries(host, "/usr/lib/wsl/lib");
  host.add_file("/etc/ld.so.cache", "glibc-ld.so.cache1.1\0libnvidia-ml.so.1\0/usr/lib/wsl/lib/libnvidia-ml.so.1\0"s);
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
