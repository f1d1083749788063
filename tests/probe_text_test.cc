// `tfgpu probe` text rendering against golden files (tests/golden/probe/*.txt).
// Rewrite them with TFGPU_UPDATE_GOLDEN=1 after an intended change, then review the diff.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "report/probe_text.h"

namespace tfgpu {
namespace {

void expect_golden(const std::string& name, const std::string& actual) {
  std::string path = std::string(TFGPU_SOURCE_DIR) + "/tests/golden/probe/" + name;
  if (const char* u = std::getenv("TFGPU_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path << " (run with TFGPU_UPDATE_GOLDEN=1)";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(actual, ss.str()) << "golden " << path << " differs (TFGPU_UPDATE_GOLDEN=1 rewrites it)";
}

Snapshot no_gpu_machine() {
  Snapshot s;
  s.host.os = "linux";
  s.host.distro = "Debian GNU/Linux 12 (bookworm)";
  s.host.kernel = "6.1.0-18-amd64";
  s.host.arch = "x86_64";
  s.host.wsl2 = Tri::kNo;
  s.host.container = "docker";
  s.host.cpu = {.vendor = "GenuineIntel", .model = "Intel(R) Xeon(R) CPU", .avx = Tri::kYes, .avx2 = Tri::kYes,
                .avx512f = Tri::kNo, .fma = Tri::kYes, .source = "/proc/cpuinfo"};
  s.gpu_state = {ProbeStatus::kAbsent, "no NVIDIA display/3D controller (vendor 10de, class 0300/0302) in /sys/bus/pci/devices",
                 "/sys/bus/pci/devices"};
  s.driver.state = {ProbeStatus::kAbsent,
                    "no NVIDIA driver: nvml: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
                    ""};
  s.driver.attempts.push_back(
      {"nvml", {"libnvidia-ml.so.1", "libnvidia-ml.so"}, {"libnvidia-ml.so.1: cannot open shared object file: No such file or directory", "libnvidia-ml.so: cannot open shared object file: No such file or directory"}, "", ""});
  s.runtime_state = {ProbeStatus::kOk, "1 CUDA install(s), 1 cuDNN install(s), 2 library files in 9 dirs", ""};
  s.cuda.push_back({"/usr/local/cuda-13.0", "13.0.96", "/usr/local/cuda-13.0/dist-info/nvidia_cuda_runtime-13.0.96.dist-info/METADATA",
                    "toolkit", "", {"/usr/local/cuda-13.0/lib"}});
  s.cudnn.push_back({"/usr/local/cuda-13.0", "9.19.0", "/usr/local/cuda-13.0/include/cudnn_version.h", "toolkit", "", "",
                     {"/usr/local/cuda-13.0/lib"}});
  LibraryFile rt;
  rt.path = "/usr/local/cuda-13.0/lib/libcudart.so.13";
  rt.name = "libcudart.so.13";
  rt.component = "cudart";
  rt.version = "13.0.96";
  rt.version_source = "/usr/local/cuda-13.0/dist-info/nvidia_cuda_runtime-13.0.96.dist-info/METADATA";
  rt.format = "elf";
  rt.elf.soname = "libcudart.so.13";
  rt.origin = "cuda:/usr/local/cuda-13.0";
  s.libraries.push_back(rt);
  LibraryFile dnn = rt;
  dnn.path = "/usr/local/cuda-13.0/lib/libcudnn.so";
  dnn.name = "libcudnn.so";
  dnn.component = "cudnn";
  dnn.version = "";
  dnn.symlink_target = "libcudnn.so.9";
  s.libraries.push_back(dnn);
  s.loader.ld_so_conf_dirs = {"/usr/local/lib", "/usr/local/cuda-13.0/lib"};
  s.loader.ld_cache_state = {ProbeStatus::kOk, "40 of 300 entries are CUDA/cuDNN/NVIDIA libraries (new format)", "/etc/ld.so.cache"};
  s.python_state = {ProbeStatus::kOk, "2 environment(s), 1 TensorFlow install(s)", ""};
  PythonEnv sys;
  sys.executable = "/usr/bin/python3";
  sys.version = "3.11.2";
  sys.bits = 64;
  sys.kind = "system";
  sys.source = "PATH";
  s.pythons.push_back(sys);
  PythonEnv venv;
  venv.executable = "/tmp/tfvenv/bin/python3";
  venv.version = "3.11.7";
  venv.bits = 64;
  venv.kind = "venv";
  venv.name = "tfvenv";
  venv.active = true;
  venv.source = "VIRTUAL_ENV";
  venv.packages = {{"keras", "3.11.3", "/tmp/tfvenv/lib/python3.11/site-packages", "m"},
                   {"tensorflow", "2.20.0", "/tmp/tfvenv/lib/python3.11/site-packages", "m"}};
  TensorflowInstall tf;
  tf.package = "tensorflow";
  tf.version = "2.20.0";
  tf.location = "/tmp/tfvenv/lib/python3.11/site-packages/tensorflow";
  tf.build_info = {{"cuda_version", "12.5.1"}, {"cudnn_version", "9"}, {"is_cuda_build", "True"}};
  tf.build_info_state = {ProbeStatus::kOk, "", "/tmp/tfvenv/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py"};
  venv.tensorflow.push_back(tf);
  s.pythons.push_back(venv);
  s.notes.push_back("/usr/local/cuda -> /usr/local/cuda-13.0");
  return s;
}

TEST(ProbeText, NoGpuMachineShowsFourLayersInOrderWithSources) {
  std::string text = render_probe_text(no_gpu_machine());
  auto h = text.find("1. Hardware"), d = text.find("2. Driver"), r = text.find("3. Runtime"), f = text.find("4. Framework");
  ASSERT_NE(h, std::string::npos);
  EXPECT_LT(h, d);
  EXPECT_LT(d, r);
  EXPECT_LT(r, f);
  expect_golden("no_gpu.txt", text);
}

TEST(ProbeText, LibraryListingShowsEveryFile) {
  expect_golden("no_gpu_libraries.txt", render_probe_text(no_gpu_machine(), ProbeTextDetail::kAllLibraries));
}

TEST(ProbeText, GpuMachineShowsDriverAndDevices) {
  Snapshot s;
  s.host.os = "linux";
  s.host.kernel = "5.15.146.1-microsoft-standard-WSL2";
  s.host.arch = "x86_64";
  s.host.wsl2 = Tri::kYes;
  s.gpu_state = {ProbeStatus::kOk, "WSL2: GPUs as reported by the Windows driver", "nvml"};
  GpuInfo g;
  g.index = 0;
  g.name = "NVIDIA GeForce RTX 3060";
  g.pci_id = "10de:2504";
  g.pci_bus_id = "0000:01:00.0";
  g.compute_capability = "8.6";
  g.memory_total_bytes = 12884901888ull;
  g.source = "nvml";
  s.gpus.push_back(g);
  s.driver.state = {ProbeStatus::kOk, "", "nvml:/usr/lib/wsl/lib/libnvidia-ml.so.1"};
  s.driver.version = "537.42";
  s.driver.cuda_version = "12.2";
  s.driver.device_count = 1;
  s.driver.attempts.push_back({"nvml", {"libnvidia-ml.so.1"}, {}, "/usr/lib/wsl/lib/libnvidia-ml.so.1", "NVML_SUCCESS (0)"});
  s.runtime_state = {ProbeStatus::kAbsent, "no CUDA runtime or cuDNN found in 4 dirs searched", ""};
  s.python_state = {ProbeStatus::kAbsent, "no Python interpreter on PATH, in pyenv, conda or VIRTUAL_ENV", ""};
  expect_golden("wsl2_gpu.txt", render_probe_text(s));
}

}  // namespace
}  // namespace tfgpu
