// Runtime layer on a FakeHost: toolkits, cuDNN, pip wheels (cu12 and cu13 layouts),
// conda, LD_LIBRARY_PATH; each version with where it was read from.
#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "probe/probe.h"
#include "loader/ld_so.h"
#include "loader/tensorflow_loads.h"
#include "probe/runtime_names.h"
#include "support/elf_builder.h"
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
  EXPECT_EQ(blas->error, "/usr/local/cuda-12.0/lib64/libcublas.so.12: neither ELF nor PE");
  EXPECT_EQ(blas->headers, "invalid");
}

TEST(RuntimeProbe, HeadersOfALargeLibraryAreReadByRangesWhateverItsSize) {
  FakeHost host;
  test::ElfBuilder b;
  b.soname = "libcublasLt.so.13";
  b.needed = {"libcublas.so.13"};
  b.runpath = "$ORIGIN";
  b.hole = 12u << 20;  // over the old 8 MiB quick-probe limit; the dynamic section after it
  host.add_file("/usr/local/cuda-13.0/lib/libcublasLt.so.13", test::with_hole(b.build(), b));
  Snapshot s = run_runtime(host);
  const LibraryFile* f = find_lib(s, "/usr/local/cuda-13.0/lib/libcublasLt.so.13");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->headers, "read");
  EXPECT_EQ(f->error, "");
  EXPECT_EQ(f->elf.soname, "libcublasLt.so.13");
  EXPECT_EQ(f->elf.needed, std::vector<std::string>{"libcublas.so.13"});
  EXPECT_EQ(f->elf.runpath, std::vector<std::string>{"$ORIGIN"});
  EXPECT_LT(host.bytes_read(), 256u << 10);
}

TEST(RuntimeProbe, ALibraryWhoseReadFailsHasUnknownHeadersNotAnInvalidFile) {
  FakeHost host;
  host.add_file("/usr/local/cuda-13.0/lib/libcudart.so.13", test::elf64_shared_object("libcudart.so.13"));
  host.fail_reads("/usr/local/cuda-13.0/lib/libcudart.so.13");
  Snapshot s = run_runtime(host);
  const LibraryFile* f = find_lib(s, "/usr/local/cuda-13.0/lib/libcudart.so.13");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->headers, "unknown");
  EXPECT_NE(f->error.find("Input/output error"), std::string::npos);
  // The loader model: "cannot tell", never "invalid file".
  loader::LinuxProcess p;
  p.objects.push_back({"/usr/bin/python3", {64, "x86-64"}, -1, {}});
  p.ld_library_path = "/usr/local/cuda-13.0/lib";
  s.loader.ld_cache_state.status = ProbeStatus::kOk;
  auto ld = loader::LdSo::create(s, p);
  ASSERT_TRUE(ld);
  loader::LoadResult r = ld->dlopen("libcudart.so.13");
  EXPECT_EQ(r.outcome, loader::Outcome::kUnknown);
  ASSERT_FALSE(r.root.trail.empty());
  EXPECT_EQ(r.root.trail.back().why, loader::Why::kUnknown);
  EXPECT_NE(r.root.trail.back().detail.find("headers not read"), std::string::npos);
}

// A pip TensorFlow: its own objects are recorded (component and origin "tensorflow") with
// SONAME / NEEDED / RUNPATH and the DSO loader symbol read from DT_GNU_HASH; the install
// names the object whose dlopen opens the CUDA libraries.
TEST(RuntimeProbe, TensorflowOwnObjectsAreRecordedWithTheirDlopenCaller) {
  FakeHost host;
  const std::string site = "/v/lib/python3.11/site-packages", tfdir = site + "/tensorflow";
  const std::string sym = loader::tensorflow_dso_loader_symbols().front();
  test::ElfBuilder fw;
  fw.soname = "libtensorflow_framework.so.2";
  fw.runpath = "$ORIGIN/../nvidia/cuda_runtime/lib";
  fw.symbols = {sym};
  test::ElfBuilder cc;
  cc.soname = "libtensorflow_cc.so.2";
  cc.needed = {"libtensorflow_framework.so.2"};
  cc.runpath = "$ORIGIN/../nvidia/cudnn/lib";
  cc.symbols = {sym};
  test::ElfBuilder pywrap;
  pywrap.soname = "_pywrap_tensorflow_internal.so";
  pywrap.needed = {"libtensorflow_cc.so.2", "libtensorflow_framework.so.2"};
  pywrap.symbols = {"PyInit__pywrap_tensorflow_internal"};
  host.add_file(tfdir + "/libtensorflow_framework.so.2", fw.build());
  host.add_file(tfdir + "/libtensorflow_cc.so.2", cc.build());
  host.add_file(tfdir + "/python/_pywrap_tensorflow_internal.so", pywrap.build());
  host.add_file(tfdir + "/python/pywrap_tensorflow.py", "# not a shared object\n");
  Snapshot s;
  PythonEnv env;
  env.executable = "/v/bin/python3";
  env.site_packages = {site};
  TensorflowInstall tf;
  tf.package = "tensorflow";
  tf.version = "2.16.1";
  tf.location = tfdir;
  env.tensorflow = {tf};
  s.pythons = {env};
  s = run_runtime(host, s);
  const LibraryFile* f = find_lib(s, tfdir + "/libtensorflow_framework.so.2");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->component, "tensorflow");
  EXPECT_EQ(f->origin, "tensorflow");
  EXPECT_EQ(f->elf.soname, "libtensorflow_framework.so.2");
  EXPECT_EQ(f->elf.runpath, std::vector<std::string>{"$ORIGIN/../nvidia/cuda_runtime/lib"});
  EXPECT_EQ(f->elf.symbols.at(sym), true);
  const LibraryFile* p = find_lib(s, tfdir + "/python/_pywrap_tensorflow_internal.so");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->elf.needed, (std::vector<std::string>{"libtensorflow_cc.so.2", "libtensorflow_framework.so.2"}));
  EXPECT_EQ(p->elf.symbols.at(sym), false);
  EXPECT_EQ(find_lib(s, tfdir + "/python/pywrap_tensorflow.py"), nullptr);
  ASSERT_EQ(s.pythons[0].tensorflow.size(), 1u);
  EXPECT_EQ(s.pythons[0].tensorflow[0].dlopen_caller, tfdir + "/libtensorflow_framework.so.2");
  EXPECT_FALSE(s.pythons[0].tensorflow[0].dlopen_caller_source.empty());
}

// /usr/local/cuda -> cuda-13.0 and cuda-13.0/lib64 -> lib: the probe scans lib64 (as the
// toolkit root's first lib dir), ld.so.cache names lib/. One file, so the cache hit is chosen.
TEST(RuntimeProbe, ACacheEntryThroughADirectoryLinkNamesTheFileTheProbeRecorded) {
  FakeHost host;
  host.add_file("/usr/local/cuda-13.0/lib/libcudart.so.13", test::elf64_shared_object("libcudart.so.13"));
  host.add_symlink("/usr/local/cuda-13.0/lib64", "lib");
  host.add_symlink("/usr/local/cuda", "/usr/local/cuda-13.0");
  host.set_env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64");
  Snapshot s;
  s.loader.ld_cache = {{"libcudart.so.13", "/usr/local/cuda-13.0/lib/libcudart.so.13", "x86-64"}};
  s.loader.ld_cache_state.status = ProbeStatus::kOk;
  s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda/lib64";
  s = run_runtime(host, s);
  EXPECT_EQ(s.loader.dir_links.at("/usr/local/cuda"), "/usr/local/cuda-13.0");
  EXPECT_EQ(s.loader.dir_links.at("/usr/local/cuda-13.0/lib64"), "lib");
  ASSERT_EQ(find_lib(s, "/usr/local/cuda-13.0/lib/libcudart.so.13"), nullptr);  // recorded once, as lib64/
  ASSERT_NE(find_lib(s, "/usr/local/cuda-13.0/lib64/libcudart.so.13"), nullptr);
  loader::LinuxProcess p;
  p.objects.push_back({"/usr/bin/python3", {64, "x86-64"}, -1, {}});
  auto ld = loader::LdSo::create(s, p);
  ASSERT_TRUE(ld);
  loader::LoadResult r = ld->dlopen("libcudart.so.13");
  EXPECT_EQ(r.outcome, loader::Outcome::kFound);
  ASSERT_FALSE(r.root.trail.empty());
  EXPECT_EQ(r.root.trail.back().source, "ld.so.cache");
  EXPECT_EQ(r.root.trail.back().why, loader::Why::kChosen);
  // And through LD_LIBRARY_PATH spelled with both links.
  p.ld_library_path = "/usr/local/cuda/lib64";
  auto ld2 = loader::LdSo::create(s, p);
  ASSERT_TRUE(ld2);
  loader::LoadResult r2 = ld2->dlopen("libcudart.so.13");
  EXPECT_EQ(r2.outcome, loader::Outcome::kFound);
  EXPECT_EQ(r2.root.trail.back().source, "LD_LIBRARY_PATH");
  EXPECT_EQ(r2.root.trail.back().why, loader::Why::kChosen);
}

}  // namespace
}  // namespace tfgpu
