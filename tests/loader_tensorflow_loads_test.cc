// What TensorFlow loads, simulated over hand-made snapshots of pip and Windows installs.
// The library names here are test data standing in for the KB's rows.
#include <gtest/gtest.h>

#include "loader/tensorflow_loads.h"

namespace tfgpu::loader {
namespace {

const std::string kSp = "/venv/lib/python3.11/site-packages";

LibraryFile elf(std::string path, std::string soname = "", std::vector<std::string> rpath = {},
                std::vector<std::string> runpath = {}, std::vector<std::string> needed = {}) {
  LibraryFile f;
  f.path = std::move(path);
  f.name = f.path.substr(f.path.rfind('/') + 1);
  f.format = "elf";
  f.elf = {64, "x86-64", std::move(soname), std::move(needed), std::move(rpath), std::move(runpath)};
  return f;
}

struct PipInstall {
  Snapshot snap;
  PythonEnv py;
  TensorflowInstall tf;
};

// A pip install: TF's objects carry $ORIGIN entries to site-packages/nvidia/*/lib
// (as DT_RPATH or DT_RUNPATH), a pip cuDNN there, and a system cuDNN in /opt/cuda.
PipInstall pip_install(bool runpath) {
  PipInstall i;
  i.snap.origin = "test";
  i.snap.host.os = "linux";
  i.snap.host.arch = "x86_64";
  i.snap.loader.default_dirs = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"};
  i.snap.loader.ld_cache_state.status = ProbeStatus::kOk;
  std::vector<std::string> fw_entries = {"$ORIGIN/../nvidia/cudnn/lib", "$ORIGIN/../nvidia/cublas/lib"};
  std::vector<std::string> py_entries = {"$ORIGIN/../../nvidia/cudnn/lib", "$ORIGIN/../../nvidia/cublas/lib"};
  std::vector<std::string> none;
  i.snap.libraries = {
      elf(kSp + "/tensorflow/python/_pywrap_tensorflow_internal.so", "", runpath ? none : py_entries,
          runpath ? py_entries : none, {"libtensorflow_framework.so.2"}),
      elf(kSp + "/tensorflow/libtensorflow_framework.so.2", "libtensorflow_framework.so.2", runpath ? none : fw_entries,
          runpath ? fw_entries : none),
      elf(kSp + "/nvidia/cudnn/lib/libcudnn.so.8", "libcudnn.so.8"),
      elf(kSp + "/nvidia/cublas/lib/libcublas.so.11", "libcublas.so.11", {"$ORIGIN"}, {}, {"libcublasLt.so.11"}),
      elf(kSp + "/nvidia/cublas/lib/libcublasLt.so.11", "libcublasLt.so.11"),
      elf("/opt/cuda/lib64/libcudnn.so.8", "libcudnn.so.8"),
  };
  i.snap.env["LD_LIBRARY_PATH"] = "/opt/cuda/lib64";
  i.py.executable = "/venv/bin/python3";
  i.py.bits = 64;
  i.tf.package = "tensorflow";
  i.tf.version = "2.12.0";
  i.tf.location = kSp + "/tensorflow";
  return i;
}

std::vector<WantedLibrary> wanted() {
  return {{"cublas", "libcublas.so.11", true, "kb"}, {"cudnn", "libcudnn.so.8", true, "kb"}};
}

TEST(TensorflowLoads, TheProcessCallsDlopenFromTheFrameworkWithItsRpathDirsExpanded) {
  PipInstall i = pip_install(/*runpath=*/false);
  auto p = tensorflow_process(i.snap, i.py, i.tf);
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->platform, Platform::kLinux);
  const auto& objs = p->linux_process.objects;
  ASSERT_EQ(objs.size(), 3u);
  EXPECT_EQ(objs[p->linux_process.caller].path, kSp + "/tensorflow/libtensorflow_framework.so.2");
  EXPECT_EQ(objs[1].loaded_by, -1);  // _pywrap was dlopened (imported) by Python
  EXPECT_EQ(objs[2].loaded_by, 1);
  // framework's DT_RPATH first, then _pywrap's (same dirs, spelled differently).
  EXPECT_EQ(p->rpath_dirs, (std::vector<std::string>{kSp + "/nvidia/cudnn/lib", kSp + "/nvidia/cublas/lib"}));
  EXPECT_EQ(p->linux_process.ld_library_path, "/opt/cuda/lib64");
}

TEST(TensorflowLoads, WithRpathThePipCudnnBeatsLdLibraryPath) {
  PipInstall i = pip_install(/*runpath=*/false);
  auto p = tensorflow_process(i.snap, i.py, i.tf);
  TfLoadReport r = simulate_tensorflow_loads(i.snap, *p, wanted());
  ASSERT_EQ(r.loads.size(), 2u);
  EXPECT_TRUE(r.all_must_load_found);
  EXPECT_EQ(r.loads[0].result.newly_loaded(),
            (std::vector<std::string>{kSp + "/tensorflow/../nvidia/cublas/lib/libcublas.so.11",
                                      kSp + "/tensorflow/../nvidia/cublas/lib/libcublasLt.so.11"}));
  EXPECT_EQ(r.loads[1].result.root.path, kSp + "/tensorflow/../nvidia/cudnn/lib/libcudnn.so.8");
}

TEST(TensorflowLoads, WithRunpathLdLibraryPathsOlderCudnnWins) {
  PipInstall i = pip_install(/*runpath=*/true);
  auto p = tensorflow_process(i.snap, i.py, i.tf);
  TfLoadReport r = simulate_tensorflow_loads(i.snap, *p, wanted());
  const Resolution& cudnn = r.loads[1].result.root;
  EXPECT_EQ(cudnn.path, "/opt/cuda/lib64/libcudnn.so.8");
  EXPECT_EQ(cudnn.trail.back().source, "LD_LIBRARY_PATH");
  // libcublasLt is found through libcublas's own DT_RPATH $ORIGIN, not TF's RUNPATH.
  EXPECT_EQ(r.loads[0].result.closure.at(0).resolution.trail.back().source,
            "DT_RPATH of " + kSp + "/tensorflow/../nvidia/cublas/lib/libcublas.so.11");
}

TEST(TensorflowLoads, AMissingMustLoadLibraryMeansNoGpu) {
  PipInstall i = pip_install(/*runpath=*/false);
  auto p = tensorflow_process(i.snap, i.py, i.tf);
  auto libs = wanted();
  libs.push_back({"cufft", "libcufft.so.10", true, "kb"});
  TfLoadReport r = simulate_tensorflow_loads(i.snap, *p, libs);
  EXPECT_FALSE(r.all_must_load_found);
  EXPECT_EQ(r.loads[2].result.outcome, Outcome::kNotFound);
  EXPECT_EQ(r.loads[2].result.error, "libcufft.so.10: cannot open shared object file: No such file or directory");
}

TEST(TensorflowLoads, WithoutTfsObjectsInTheSnapshotTheRpathIsReportedUnknown) {
  PipInstall i = pip_install(false);
  i.snap.libraries.erase(i.snap.libraries.begin(), i.snap.libraries.begin() + 2);
  auto p = tensorflow_process(i.snap, i.py, i.tf);
  ASSERT_TRUE(p.has_value());
  EXPECT_TRUE(p->rpath_dirs.empty());
  EXPECT_EQ(p->linux_process.caller, 0);
  bool noted = false;
  for (const auto& n : p->notes) noted |= n.find("are not in the snapshot") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(TensorflowLoads, AnInstallWithoutLocationIsAnInputError) {
  PipInstall i = pip_install(false);
  i.tf.location.clear();
  auto p = tensorflow_process(i.snap, i.py, i.tf);
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().kind, ErrorKind::kInput);
}

TEST(TensorflowLoads, BuildInfoNamesAreMergedAndAWrongCudartNameIsOnlyNoted) {
  TensorflowInstall tf;
  tf.build_info = {{"cudart_dll_name", "cudart64_112.dll"},
                   {"cudnn_dll_name", "cudnn64_8.dll"},
                   {"nvcuda_dll_name", "nvcuda.dll"},
                   {"msvcp_dll_names", "msvcp140.dll,msvcp140_1.dll"},
                   {"is_cuda_build", "True"}};
  std::vector<WantedLibrary> kb = {{"driver", "nvcuda.dll", false, ""},
                                   {"cudart", "cudart64_110.dll", true, ""},
                                   {"cudnn", "cudnn64_8.dll", true, ""}};
  TfLibraryList l = tensorflow_libraries(tf, Platform::kWindows, kb);
  ASSERT_EQ(l.libraries.size(), 5u);
  EXPECT_EQ(l.libraries[0].named_by, "kb");
  EXPECT_EQ(l.libraries[3].file, "msvcp140.dll");
  EXPECT_EQ(l.libraries[3].named_by, "build_info");
  EXPECT_FALSE(l.libraries[3].must_load);
  EXPECT_EQ(l.libraries[4].file, "msvcp140_1.dll");
  ASSERT_EQ(l.notes.size(), 1u);
  EXPECT_EQ(l.notes[0], "build_info names cudart64_112.dll for cudart, but TensorFlow opens cudart64_110.dll "
                        "(knowledge base); cudart64_112.dll is not looked for");
  // On Linux build_info names no files.
  EXPECT_EQ(tensorflow_libraries(tf, Platform::kLinux, kb).libraries.size(), 3u);
}

TEST(TensorflowLoads, ACpuOnlyBuildIsNoted) {
  TensorflowInstall tf;
  tf.build_info = {{"is_cuda_build", "False"}};
  TfLibraryList l = tensorflow_libraries(tf, Platform::kLinux, {});
  EXPECT_TRUE(l.libraries.empty());
  ASSERT_FALSE(l.notes.empty());
  EXPECT_NE(l.notes[0].find("CPU-only"), std::string::npos);
}

TEST(TensorflowLoads, OnWindowsTheDllsAreSearchedFromPythonsDirectoryThenPath) {
  Snapshot s;
  s.host.os = "windows";
  s.loader.system_dir = "C:\\Windows\\System32";
  s.loader.windows_dir = "C:\\Windows";
  s.env["Path"] = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin";
  LibraryFile cudart;
  cudart.path = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin\\cudart64_110.dll";
  cudart.name = "cudart64_110.dll";
  cudart.format = "pe";
  cudart.pe.bits = 64;
  cudart.pe.machine = "x64";
  s.libraries = {cudart};
  PythonEnv py;
  py.executable = "C:\\Python310\\python.exe";
  py.bits = 64;
  TensorflowInstall tf;
  tf.location = "C:\\Python310\\Lib\\site-packages\\tensorflow";
  auto p = tensorflow_process(s, py, tf);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->platform, Platform::kWindows);
  EXPECT_EQ(p->windows_process.app_dir, "C:\\Python310");
  TfLoadReport r = simulate_tensorflow_loads(
      s, *p, {{"cudart", "cudart64_110.dll", true, "kb"}, {"cudnn", "cudnn64_8.dll", true, "kb"}});
  EXPECT_EQ(r.loads[0].result.root.path, cudart.path);
  EXPECT_EQ(r.loads[0].result.root.trail.front().source, "application dir");
  EXPECT_EQ(r.loads[1].result.error, "cudnn64_8.dll not found (126)");
  EXPECT_FALSE(r.all_must_load_found);
}

// TF 2.16.1's layout, as read from the wheel (docs/loader-model.md): _pywrap needs
// libtensorflow_cc.so.2 then libtensorflow_framework.so.2; both define the DSO loader;
// only cc's RUNPATH names nvidia/cudnn/lib, the framework's names nvidia/cuda_runtime/lib.
Snapshot tf2161_like(bool framework_defines_loader) {
  Snapshot s;
  s.origin = "test";
  s.host.os = "linux";
  s.host.arch = "x86_64";
  s.loader.ld_cache_state.status = ProbeStatus::kOk;
  const std::string sym = tensorflow_dso_loader_symbols().front();
  LibraryFile pywrap = elf(kSp + "/tensorflow/python/_pywrap_tensorflow_internal.so", "_pywrap_tensorflow_internal.so",
                           {}, {"$ORIGIN/../../nvidia/nccl/lib"}, {"libtensorflow_cc.so.2", "libtensorflow_framework.so.2"});
  LibraryFile cc = elf(kSp + "/tensorflow/libtensorflow_cc.so.2", "libtensorflow_cc.so.2", {},
                       {"$ORIGIN/../nvidia/cudnn/lib", "$ORIGIN/../nvidia/cuda_runtime/lib"}, {"libtensorflow_framework.so.2"});
  LibraryFile fw = elf(kSp + "/tensorflow/libtensorflow_framework.so.2", "libtensorflow_framework.so.2", {},
                       {"$ORIGIN/../nvidia/cuda_runtime/lib"});
  for (LibraryFile* f : {&pywrap, &cc, &fw}) f->component = "tensorflow";
  pywrap.elf.symbols = {{sym, false}};
  cc.elf.symbols = {{sym, true}};
  fw.elf.symbols = {{sym, framework_defines_loader}};
  s.libraries = {pywrap, cc, fw, elf(kSp + "/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9"),
                 elf(kSp + "/nvidia/cuda_runtime/lib/libcudart.so.12", "libcudart.so.12")};
  return s;
}

TEST(TensorflowLoads, TheFrameworkThatDefinesTheDsoLoaderIsTheDlopenCaller) {
  Snapshot s = tf2161_like(/*framework_defines_loader=*/true);
  TensorflowInstall tf{"tensorflow", "2.16.1", kSp + "/tensorflow"};
  DlopenCaller c = tensorflow_dlopen_caller(s, tf);
  EXPECT_EQ(c.path, kSp + "/tensorflow/libtensorflow_framework.so.2");
  EXPECT_NE(c.reason.find("loaded first"), std::string::npos) << c.reason;
  PythonEnv py;
  py.executable = "/venv/bin/python3";
  auto p = tensorflow_process(s, py, tf);
  ASSERT_TRUE(p) << p.error().message;
  // _pywrap, then its TF DT_NEEDED breadth first: cc, framework; the caller is the framework.
  ASSERT_EQ(p->linux_process.objects.size(), 4u);
  EXPECT_EQ(p->linux_process.objects[2].path, kSp + "/tensorflow/libtensorflow_cc.so.2");
  EXPECT_EQ(p->linux_process.objects[p->linux_process.caller].path, kSp + "/tensorflow/libtensorflow_framework.so.2");
  EXPECT_EQ(p->rpath_dirs, std::vector<std::string>{kSp + "/nvidia/cuda_runtime/lib"});
  // So cuDNN in nvidia/cudnn/lib (named by cc's RUNPATH only) is not found, as tensorflow#63362 reports.
  auto r = simulate_tensorflow_loads(s, *p, {{"cudart", "libcudart.so.12", true, "kb"}, {"cudnn", "libcudnn.so.9", true, "kb"}});
  ASSERT_EQ(r.loads.size(), 2u);
  EXPECT_EQ(r.loads[0].result.outcome, Outcome::kFound);
  EXPECT_EQ(r.loads[1].result.outcome, Outcome::kNotFound);
}

TEST(TensorflowLoads, WithoutTheLoaderInTheFrameworkTheFirstDefinerInLoadOrderIsTheCaller) {
  Snapshot s = tf2161_like(/*framework_defines_loader=*/false);
  TensorflowInstall tf{"tensorflow", "2.16.1", kSp + "/tensorflow"};
  DlopenCaller c = tensorflow_dlopen_caller(s, tf);
  EXPECT_EQ(c.path, kSp + "/tensorflow/libtensorflow_cc.so.2");
  PythonEnv py;
  py.executable = "/venv/bin/python3";
  tf.dlopen_caller = c.path;
  auto p = tensorflow_process(s, py, tf);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->linux_process.objects[p->linux_process.caller].path, kSp + "/tensorflow/libtensorflow_cc.so.2");
  auto r = simulate_tensorflow_loads(s, *p, {{"cudnn", "libcudnn.so.9", true, "kb"}});
  ASSERT_EQ(r.loads.size(), 1u);
  EXPECT_EQ(r.loads[0].result.outcome, Outcome::kFound);
  EXPECT_EQ(r.loads[0].result.root.path, kSp + "/tensorflow/../nvidia/cudnn/lib/libcudnn.so.9");
}

TEST(TensorflowLoads, SymbolFactsMissingLeaveTheCallerUnknownAndTheFrameworkAssumed) {
  Snapshot s = tf2161_like(true);
  for (auto& f : s.libraries) f.elf.symbols.clear();  // a snapshot from before the lookup
  TensorflowInstall tf{"tensorflow", "2.16.1", kSp + "/tensorflow"};
  EXPECT_EQ(tensorflow_dlopen_caller(s, tf).path, "");
  PythonEnv py;
  py.executable = "/venv/bin/python3";
  auto p = tensorflow_process(s, py, tf);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->linux_process.objects[p->linux_process.caller].path, kSp + "/tensorflow/libtensorflow_framework.so.2");
  bool noted = false;
  for (const auto& n : p->notes) noted |= n.find("assumed") != std::string::npos;
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace tfgpu::loader
