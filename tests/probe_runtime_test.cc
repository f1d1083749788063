// Runtime layer on a FakeHost: toolkits, cuDNN, pip wheels (cu12 and cu13 layouts),
// conda, LD_LIBRARY_PATH; each version with where it was read from.
#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "probe/probe.h"
#include "probe/runtime_names.h"
#include "support/probe_fixtures.h"

namespace tfgpu {
namespace {

const LibraryFile* find_lib(const Snapshot& s, const std::string& path) {
  for (const auto& f : s.libraries)
    if (f.path == path) return &f;
  return nullptr;
}

Snapshot run_runtime(const FakeHost& host, Snapshot s = {}) {
  probe::ProbeOptions o;
  probe::probe_runtime(host, o, s);
  return s;
}

TEST(RuntimeNames, ComponentsFollowSonamesNotCudaVersions) {
  EXPECT_EQ(probe::library_component("libcudart.so.13"), "cudart");
  EXPECT_EQ(probe::library_component("libcublasLt.so.12"), "cublasLt");
  EXPECT_EQ(probe::library_component("libcublas.so.12.3.4.1"), "cublas");
  EXPECT_EQ(probe::library_component("libcudnn_ops.so.9"), "cudnn_ops");
  EXPECT_EQ(probe::library_component("libcudnn.so.8.9.7"), "cudnn");
  EXPECT_EQ(probe::library_component("libcuda.so.1"), "cuda_driver");
  EXPECT_EQ(probe::library_component("libnvidia-ml.so.1"), "nvml");
  EXPECT_EQ(probe::library_component("cudart64_110.dll"), "cudart");
  EXPECT_EQ(probe::library_component("cudnn_cnn_infer64_8.dll"), "cudnn_cnn_infer");
  // Not tracked: static archives, NVRTC builtins, cuFFTW, unrelated files.
  EXPECT_EQ(probe::library_component("libcudart_static.a"), "");
  EXPECT_EQ(probe::library_component("libnvrtc-builtins.so.13.0"), "");
  EXPECT_EQ(probe::library_component("libcufftw.so.12"), "");
  EXPECT_EQ(probe::library_component("libcudartx.so"), "");
  EXPECT_EQ(probe::version_from_file_name("libcudnn.so.9.19.0"), "9.19.0");
  EXPECT_EQ(probe::version_from_file_name("libcudart.so.13"), "");
  EXPECT_EQ(probe::version_from_file_name("libcudart.so"), "");
}

TEST(RuntimeProbe, ToolkitVersionFromVersionJsonAndCudnnFromHeader) {
  FakeHost host;
  host.add_file("/usr/local/cuda-12.6/version.json",
                R"J({"cuda": {"name": "CUDA SDK", "version": "12.6.20241114"},
                    "cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": "12.6.77"},
                    "libcublas": {"name": "CUDA cuBLAS", "version": "12.6.4.1"}})J");
  host.add_file("/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcudart.so.12.6.77",
                test::elf64_shared_object("libcudart.so.12"));
  host.add_symlink("/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcudart.so.12", "libcudart.so.12.6.77");
  host.add_file("/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcublas.so.12", test::elf64_stub());
  host.add_symlink("/usr/local/cuda-12.6/lib64", "targets/x86_64-linux/lib");
  host.add_file("/usr/local/cuda-12.6/include/cudnn_version.h",
                "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n");
  host.add_file("/usr/local/cuda-12.6/targets/x86_64-linux/lib/libcudnn.so.9", test::elf64_stub());
  host.add_symlink("/usr/local/cuda", "/usr/local/cuda-12.6");

  Snapshot s = run_runtime(host);
  ASSERT_EQ(s.cuda.size(), 1u) << "/usr/local/cuda and cuda-12.6 are one install";
  EXPECT_EQ(s.cuda[0].root, "/usr/local/cuda-12.6");
  EXPECT_EQ(s.cuda[0].kind, "toolkit");
  EXPECT_EQ(s.cuda[0].version, "12.6.77") << "date-stamped cuda.version replaced by cudart's";
  EXPECT_EQ(s.cuda[0].version_source, "/usr/local/cuda-12.6/version.json");
  ASSERT_EQ(s.cudnn.size(), 1u);
  EXPECT_EQ(s.cudnn[0].version, "9.5.1");
  EXPECT_EQ(s.cudnn[0].version_source, "/usr/local/cuda-12.6/include/cudnn_version.h");

  const LibraryFile* rt = find_lib(s, "/usr/local/cuda-12.6/lib64/libcudart.so.12.6.77");
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->version, "12.6.77");
  EXPECT_EQ(rt->version_source, "file name");
  EXPECT_EQ(rt->origin, "cuda:/usr/local/cuda-12.6");
  EXPECT_EQ(rt->format, "elf");
  EXPECT_EQ(rt->elf.soname, "libcudart.so.12");
  const LibraryFile* link = find_lib(s, "/usr/local/cuda-12.6/lib64/libcudart.so.12");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->symlink_target, "libcudart.so.12.6.77");
  const LibraryFile* blas = find_lib(s, "/usr/local/cuda-12.6/lib64/libcublas.so.12");
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->version, "12.6.4.1");
  EXPECT_EQ(blas->version_source, "/usr/local/cuda-12.6/version.json");
  EXPECT_EQ(s.runtime_state.status, ProbeStatus::kOk);
}

TEST(RuntimeProbe, WheelAssembledToolkitReadsDistInfo) {
  // The layout of this project's CI machine: /usr/local/cuda-13.0 built from pip wheels.
  FakeHost host;
  const std::string root = "/usr/local/cuda-13.0";
  host.add_file(root + "/dist-info/nvidia_cuda_runtime-13.0.96.dist-info/METADATA",
                "Metadata-Version: 2.1\nName: nvidia-cuda-runtime\nVersion: 13.0.96\n");
  host.add_file(root + "/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info/METADATA",
                "Metadata-Version: 2.1\nName: nvidia-cudnn-cu13\nVersion: 9.19.0.56\n");
  host.add_file(root + "/lib/libcudart.so.13", test::elf64_stub());
  host.add_file(root + "/lib/libcudnn.so.9", test::elf64_stub());
  host.add_file(root + "/include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
  Snapshot s = run_runtime(host);
  ASSERT_EQ(s.cuda.size(), 1u);
  EXPECT_EQ(s.cuda[0].version, "13.0.96");
  EXPECT_EQ(s.cuda[0].version_source, root + "/dist-info/nvidia_cuda_runtime-13.0.96.dist-info/METADATA");
  ASSERT_EQ(s.cudnn.size(), 1u);
  EXPECT_EQ(s.cudnn[0].version, "9.19.0");
  EXPECT_EQ(s.cudnn[0].version_source, root + "/include/cudnn_version.h");
  const LibraryFile* rt = find_lib(s, root + "/lib/libcudart.so.13");
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->version, "13.0.96");
}

TEST(RuntimeProbe, PipWheelsCu12PerComponentAndCu13SharedDir) {
  FakeHost host;
  Snapshot s;
  PythonEnv env;
  env.executable = "/v/bin/python3";
  env.kind = "venv";
  const std::string site = "/v/lib/python3.11/site-packages";
  env.site_packages = {site};
  env.packages = {{"nvidia-cuda-runtime-cu12", "12.3.101", site, site + "/x/METADATA"},
                  {"nvidia-cudnn-cu12", "8.9.7.29", site, site + "/y/METADATA"}};
  host.add_file(site + "/nvidia/cuda_runtime/lib/libcudart.so.12", test::elf64_stub());
  host.add_file(site + "/nvidia/cudnn/lib/libcudnn.so.8", test::elf64_stub());
  s.pythons.push_back(env);

  PythonEnv env13 = env;
  const std::string site13 = "/w/lib/python3.12/site-packages";
  env13.site_packages = {site13};
  env13.packages = {{"nvidia-cuda-runtime", "13.0.96", site13, site13 + "/r/METADATA"},
                    {"nvidia-cudnn-cu13", "9.19.0.56", site13, site13 + "/c/METADATA"}};
  host.add_file(site13 + "/nvidia/cu13/lib/libcudart.so.13", test::elf64_stub());
  host.add_file(site13 + "/nvidia/cudnn/lib/libcudnn.so.9", test::elf64_stub());
  s.pythons.push_back(env13);

  s = run_runtime(host, s);
  ASSERT_EQ(s.cuda.size(), 2u);
  EXPECT_EQ(s.cuda[0].kind, "pip");
  EXPECT_EQ(s.cuda[0].root, site + "/nvidia/cuda_runtime");
  EXPECT_EQ(s.cuda[0].version, "12.3.101");
  EXPECT_EQ(s.cuda[0].version_source, site + "/x/METADATA");
  EXPECT_EQ(s.cuda[0].package, "nvidia-cuda-runtime-cu12");
  EXPECT_EQ(s.cuda[1].root, site13 + "/nvidia/cu13");
  EXPECT_EQ(s.cuda[1].version, "13.0.96");
  ASSERT_EQ(s.cudnn.size(), 2u);
  EXPECT_EQ(s.cudnn[0].version, "8.9.7.29");
  EXPECT_EQ(s.cudnn[0].cuda_major, "12");
  EXPECT_EQ(s.cudnn[1].package, "nvidia-cudnn-cu13");
  EXPECT_EQ(s.cudnn[1].cuda_major, "13");
  const LibraryFile* f = find_lib(s, site + "/nvidia/cudnn/lib/libcudnn.so.8");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->origin, "pip:nvidia-cudnn-cu12");
}

TEST(RuntimeProbe, LdLibraryPathAndCondaDirsAreScanned) {
  FakeHost host;
  host.set_env("LD_LIBRARY_PATH", "/opt/mylibs::/nonexistent");
  host.add_file("/opt/mylibs/libcudnn.so.8.6.0", test::elf64_stub());
  host.add_file("/opt/mylibs/libfoo.so.1", test::elf64_stub());
  host.add_file("/c/envs/tf/lib/libcudart.so.11.0", test::elf64_stub());
  host.add_file("/c/envs/tf/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json", "{}");
  Snapshot s;
  PythonEnv env;
  env.kind = "conda";
  env.prefix = "/c/envs/tf";
  s.pythons.push_back(env);
  s = run_runtime(host, s);
  const LibraryFile* f = find_lib(s, "/opt/mylibs/libcudnn.so.8.6.0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->origin, "LD_LIBRARY_PATH");
  EXPECT_EQ(f->version, "8.6.0");
  EXPECT_EQ(find_lib(s, "/opt/mylibs/libfoo.so.1"), nullptr);
  ASSERT_EQ(s.cuda.size(), 1u);
  EXPECT_EQ(s.cuda[0].kind, "conda");
  EXPECT_EQ(s.cuda[0].package, "cudatoolkit");
  EXPECT_EQ(s.cuda[0].version, "11.8.0");
  EXPECT_EQ(s.cuda[0].version_source, "/c/envs/tf/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json");
}

TEST(RuntimeProbe, LoaderDirLinksIntoAToolkitAreNotASecondInstall) {
  FakeHost host;
  host.add_file("/usr/local/cuda-13.0/lib/libcudart.so.13", test::elf64_stub());
  host.add_file("/usr/local/cuda-13.0/dist-info/nvidia_cuda_runtime-13.0.96.dist-info/METADATA",
                "Metadata-Version: 2.1\nName: nvidia-cuda-runtime\nVersion: 13.0.96\n");
  host.add_symlink("/usr/local/lib/libcudart.so.13", "/usr/local/cuda-13.0/lib/libcudart.so.13");
  Snapshot s;
  s.loader.ld_so_conf_dirs = {"/usr/local/lib"};
  s = run_runtime(host, s);
  ASSERT_EQ(s.cuda.size(), 1u);
  EXPECT_EQ(s.cuda[0].root, "/usr/local/cuda-13.0");
  const LibraryFile* link = find_lib(s, "/usr/local/lib/libcudart.so.13");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->origin, "system");
  EXPECT_EQ(link->symlink_target, "/usr/local/cuda-13.0/lib/libcudart.so.13");
  EXPECT_EQ(link->version, "13.0.96");
}

TEST(RuntimeProbe, NothingInstalledIsAbsentWithAReason) {
  FakeHost host;
  Snapshot s = run_runtime(host);
  EXPECT_EQ(s.runtime_state.status, ProbeStatus::kAbsent);
  EXPECT_NE(s.runtime_state.reason.find("no CUDA runtime"), std::string::npos);
  EXPECT_TRUE(s.cuda.empty());
}

TEST(RuntimeProbe, HostileLibraryBytesAreRecordedAsErrors) {
  FakeHost host;
  host.add_file("/usr/local/cuda-12.0/lib64/libcudart.so.12", std::string("\x7f" "ELF\x02\x01\x01", 7));  // truncated
  host.add_file("/usr/local/cuda-12.0/lib64/libcublas.so.12", "not a library at all");
  Snapshot s = run_runtime(host);
  const LibraryFile* rt = find_lib(s, "/usr/local/cuda-12.0/lib64/libcudart.so.12");
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->format, "elf");
  EXPECT_FALSE(rt->error.empty());
  const LibraryFile* blas = find_lib(s, "/usr/local/cuda-12.0/lib64/libcublas.so.12");
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->format, "unknown");
  EXPECT_EQ(blas->error, "neither ELF nor PE");
}

}  // namespace
}  // namespace tfgpu
