// Host facts, environment and the hardware layer on a FakeHost.
#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "kb/kb.h"
#include "probe/kb_namer.h"
#include "probe/probe.h"

namespace tfgpu {
namespace {

FakeHost linux_host(const std::string& kernel = "6.1.0-18-amd64") {
  FakeHost host;
  host.set_os_release({"Linux", kernel, "x86_64"});
  host.add_file("/etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nID=debian\n");
  host.add_file("/proc/cpuinfo",
                "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz\n"
                "flags\t\t: fpu vme sse sse2 avx fma avx2\n\nprocessor\t: 1\nflags\t\t: avx512f\n");
  return host;
}

TEST(ProbeHost, ReadsDistroKernelAndCpuFlagsOfTheFirstProcessor) {
  FakeHost host = linux_host();
  Snapshot s;
  probe::probe_host(host, s);
  EXPECT_EQ(s.host.os, "linux");
  EXPECT_EQ(s.host.distro, "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(s.host.kernel, "6.1.0-18-amd64");
  EXPECT_EQ(s.host.arch, "x86_64");
  EXPECT_EQ(s.host.wsl2, Tri::kNo);
  EXPECT_EQ(s.host.container, "");
  EXPECT_EQ(s.host.cpu.model, "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz");
  EXPECT_EQ(s.host.cpu.vendor, "GenuineIntel");
  EXPECT_EQ(s.host.cpu.avx, Tri::kYes);
  EXPECT_EQ(s.host.cpu.avx2, Tri::kYes);
  EXPECT_EQ(s.host.cpu.fma, Tri::kYes);
  EXPECT_EQ(s.host.cpu.avx512f, Tri::kNo) << "flags of the second processor block are not mixed in";
  EXPECT_EQ(s.host.cpu.source, "/proc/cpuinfo");
}

TEST(ProbeHost, Wsl2FromKernelRelease) {
  FakeHost host = linux_host("5.15.146.1-microsoft-standard-WSL2");
  Snapshot s;
  probe::probe_host(host, s);
  EXPECT_EQ(s.host.wsl2, Tri::kYes);
}

TEST(ProbeHost, Wsl2FromProcVersionAndWslLibDir) {
  FakeHost host = linux_host("5.10.0-custom");
  host.add_file("/proc/version", "Linux version 5.10.0-custom (gcc) #1 SMP Microsoft\n");
  host.add_dir("/usr/lib/wsl/lib");
  Snapshot s;
  probe::probe_host(host, s);
  EXPECT_EQ(s.host.wsl2, Tri::kYes);
}

TEST(ProbeHost, ContainerKinds) {
  {
    FakeHost host = linux_host();
    host.add_file("/.dockerenv", "");
    Snapshot s;
    probe::probe_host(host, s);
    EXPECT_EQ(s.host.container, "docker");
  }
  {
    FakeHost host = linux_host();
    host.add_file("/run/.containerenv", "");
    Snapshot s;
    probe::probe_host(host, s);
    EXPECT_EQ(s.host.container, "podman");
  }
  {
    FakeHost host = linux_host();
    host.add_file("/proc/1/cgroup", "0::/kubepods/besteffort/pod123/abc\n");
    Snapshot s;
    probe::probe_host(host, s);
    EXPECT_EQ(s.host.container, "kubernetes");
  }
}

TEST(ProbeEnv, KeepsOnlyTheVariablesThatMatter) {
  FakeHost host;
  host.set_env("PATH", "/usr/bin");
  host.set_env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64");
  host.set_env("CUDA_PATH_V11_8", "C:\\cuda");
  host.set_env("TF_CPP_MIN_LOG_LEVEL", "0");
  host.set_env("CUDA_VISIBLE_DEVICES", "");
  host.set_env("AWS_SECRET_ACCESS_KEY", "secret");
  host.set_env("HOME", "/home/u");
  Snapshot s;
  probe::probe_env(host, s);
  EXPECT_EQ(s.env.size(), 5u);
  EXPECT_EQ(s.env.at("CUDA_VISIBLE_DEVICES"), "") << "set-but-empty hides every GPU: it must be kept";
  EXPECT_EQ(s.env.count("AWS_SECRET_ACCESS_KEY"), 0u);
  EXPECT_EQ(s.env.count("HOME"), 0u);
}

TEST(ProbeEnv, AnAllowlistNotEveryTfVariableAndNeverACredentialValue) {
  FakeHost host;
  host.set_env("TF_VAR_db_password", "hunter2");              // Terraform's, not TensorFlow's
  host.set_env("TF_TOKEN_app_terraform_io", "abc");            // Terraform Cloud token
  host.set_env("TF_FORCE_GPU_ALLOW_GROWTH", "true");
  host.set_env("TF_GPU_ALLOCATOR", "cuda_malloc_async");
  host.set_env("TF_CPP_VMODULE", "ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz");  // allowed name, token value
  host.set_env("CUDA_API_KEY", "hunter3");                     // allowed prefix, credential name
  host.set_env("XLA_FLAGS", "--xla_gpu_cuda_data_dir=/usr/local/cuda --key=AKIAIOSFODNN7EXAMPLE");
  host.set_env("NVIDIA_VISIBLE_DEVICES", "all");
  Snapshot s;
  probe::probe_env(host, s);
  EXPECT_EQ(s.env.count("TF_VAR_db_password"), 0u);
  EXPECT_EQ(s.env.count("TF_TOKEN_app_terraform_io"), 0u);
  EXPECT_EQ(s.env.at("TF_FORCE_GPU_ALLOW_GROWTH"), "true");
  EXPECT_EQ(s.env.at("TF_GPU_ALLOCATOR"), "cuda_malloc_async");
  EXPECT_EQ(s.env.at("TF_CPP_VMODULE"), "<redacted>");
  EXPECT_EQ(s.env.at("CUDA_API_KEY"), "<redacted>");
  EXPECT_EQ(s.env.at("XLA_FLAGS"), "--xla_gpu_cuda_data_dir=/usr/local/cuda --key=<redacted>");
  EXPECT_EQ(s.env.at("NVIDIA_VISIBLE_DEVICES"), "all");
}

void add_pci(FakeHost& host, const std::string& bdf, const char* vendor, const char* device, const char* cls) {
  std::string dir = "/sys/devices/pci0000:00/" + bdf;
  host.add_file(dir + "/vendor", std::string(vendor) + "\n");
  host.add_file(dir + "/device", std::string(device) + "\n");
  host.add_file(dir + "/class", std::string(cls) + "\n");
  host.add_symlink("/sys/bus/pci/devices/" + bdf, dir);
}

TEST(ProbeHardware, NvidiaDisplayDevicesNamedFromTheKbWithoutADriver) {
  FakeHost host = linux_host();
  add_pci(host, "0000:00:02.0", "0x8086", "0x3e92", "0x030000");  // Intel iGPU
  add_pci(host, "0000:01:00.0", "0x10de", "0x2504", "0x030000");  // RTX 3060 VGA
  add_pci(host, "0000:01:00.1", "0x10de", "0x228e", "0x040300");  // its HDMI audio
  add_pci(host, "0000:41:00.0", "0x10de", "0x20b0", "0x030200");  // A100 3D controller
  probe::ProbeOptions o;
  int asked = 0;
  o.name_gpu = [&](uint16_t vendor, uint16_t device) -> std::optional<probe::GpuFacts> {
    ++asked;
    EXPECT_EQ(vendor, 0x10de);
    if (device == 0x2504) return probe::GpuFacts{"GeForce RTX 3060 Lite Hash Rate", "8.6"};
    return std::nullopt;
  };
  Snapshot s;
  probe::probe_host(host, s);
  probe::probe_hardware(host, o, s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kOk);
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(s.gpus[0].pci_id, "10de:2504");
  EXPECT_EQ(s.gpus[0].pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(s.gpus[0].name, "GeForce RTX 3060 Lite Hash Rate");
  EXPECT_EQ(s.gpus[0].compute_capability, "8.6");
  EXPECT_EQ(s.gpus[0].source, "sysfs+kb:pci");
  EXPECT_EQ(s.gpus[1].pci_id, "10de:20b0");
  EXPECT_EQ(s.gpus[1].name, "") << "unknown to the KB: left unnamed, not guessed";
  EXPECT_EQ(s.gpus[1].source, "sysfs");
}

TEST(ProbeHardware, EmbeddedKbNamesAGpuFromItsPciId) {
  auto kb = kb::load_embedded();
  ASSERT_TRUE(kb.has_value()) << kb.error().message;
  const kb::Gpu* row = kb->find_gpu(0x10de, 0x2504);
  ASSERT_NE(row, nullptr) << "kb/gpus.toml lists 10de:2504";
  FakeHost host = linux_host();
  add_pci(host, "0000:01:00.0", "0x10de", "0x2504", "0x030000");
  probe::ProbeOptions o;
  o.name_gpu = probe::gpu_namer_from(*kb);
  Snapshot s;
  probe::probe_host(host, s);
  probe::probe_hardware(host, o, s);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].name, row->name);
  EXPECT_EQ(s.gpus[0].compute_capability, row->cc.str());
  EXPECT_EQ(s.gpus[0].source, "sysfs+kb:pci");
}

TEST(ProbeHardware, NoNvidiaDeviceIsAbsentWithTheReason) {
  FakeHost host = linux_host();
  add_pci(host, "0000:00:02.0", "0x8086", "0x3e92", "0x030000");
  add_pci(host, "0000:01:00.1", "0x10de", "0x228e", "0x040300");
  Snapshot s;
  probe::probe_host(host, s);
  probe::probe_hardware(host, {}, s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kAbsent);
  EXPECT_NE(s.gpu_state.reason.find("no NVIDIA display/3D controller"), std::string::npos);
  EXPECT_NE(s.gpu_state.reason.find("1 other NVIDIA function"), std::string::npos);
}

TEST(ProbeHardware, MalformedSysfsValuesAreSkipped) {
  FakeHost host = linux_host();
  add_pci(host, "0000:01:00.0", "0x10de", "zz", "0x030000");
  add_pci(host, "0000:02:00.0", "", "", "");
  Snapshot s;
  probe::probe_host(host, s);
  probe::probe_hardware(host, {}, s);
  EXPECT_TRUE(s.gpus.empty());
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kAbsent);
}

TEST(ProbeHardware, Wsl2LeavesGpusToTheDriver) {
  FakeHost host = linux_host("5.15.146.1-microsoft-standard-WSL2");
  Snapshot s;
  probe::probe_host(host, s);
  probe::probe_hardware(host, {}, s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kNotProbed);
  EXPECT_NE(s.gpu_state.reason.find("WSL2"), std::string::npos);
}

}  // namespace
}  // namespace tfgpu
