// How explain ranks root causes: KB facts turn stated versions into conclusions,
// root causes outrank the symptoms they explain, harmless lines never become findings,
// and `harmless_warning_only` appears only when nothing else does. The logs here are
// written for these tests (one or two lines of each message kind, from the facts sheets).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "explain/explain.h"
#include "kb/kb.h"
#include "support/shipped_kb.h"

namespace tfgpu::explain {
namespace {

using testing::shipped_kb;
using testing::shipped_signatures;

ExplainResult run(std::string_view log, const ExplainOptions& o = {}) {
  return explain_text(log, shipped_signatures(), &shipped_kb(), o);
}

std::string top(std::string_view log) {
  auto r = run(log);
  return r.findings.empty() ? "(none)" : r.findings.front().id;
}

const Finding* find(const ExplainResult& r, std::string_view id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

constexpr const char* kCpuNotice =
    "2024-01-01 12:00:00.000000: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is "
    "optimized to use available CPU instructions in performance-critical operations.\n";
constexpr const char* kTrt = "2024-01-01 12:00:01.000000: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n";
constexpr const char* kNuma =
    "I external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:901] successful NUMA node read from SysFS had "
    "negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero.\n";

TEST(ExplainRank, AnotherCudnnMajorStatedThanTheFileTensorflowWantsIsAMismatch) {
  // cuDNN 5 has no KB row: the file name still says which major TensorFlow wants.
  std::string log = "I installed cuDNN 5 as the guide says.\n"
                    "ImportError: Could not find 'cudnn64_6.dll'. TensorFlow requires that this DLL be installed "
                    "in a directory that is named in your %PATH% environment variable.\n";
  EXPECT_EQ(top(log), "cudnn_version_mismatch");
}

TEST(ExplainRank, AnotherCudnnMajorStatedThanTheReleaseWasBuiltWithIsAMismatch) {
  // No file named (TF >= 2.12 logs none): the stated versions say it. 2.15 opens cuDNN 8.
  EXPECT_EQ(top("TensorFlow 2.15, CUDA 12.2 and cuDNN 9.1 on Ubuntu 22.04; "
                "tf.config.list_physical_devices('GPU') returns []\n"),
            "cudnn_version_mismatch");
  // The release's own major is no mismatch of majors; nor is a GPU that is listed.
  EXPECT_NE(top("TensorFlow 2.15, CUDA 12.2 and cuDNN 8.9 on Ubuntu 22.04; "
                "tf.config.list_physical_devices('GPU') returns []\n"),
            "cudnn_version_mismatch");
  EXPECT_NE(top("TensorFlow 2.15 with cuDNN 9.1 lists [PhysicalDevice(name='/physical_device:GPU:0', "
                "device_type='GPU')] but training is slow\n"),
            "cudnn_version_mismatch");
}

TEST(ExplainRank, AContainerWithoutGpusFlagThatSeesNoGpuIsTheContainerRuntime) {
  std::string log = "I run the training inside a Docker container and TensorFlow does not detect the GPU.\n";
  EXPECT_EQ(top(log), "container_gpu_runtime_missing");
  // Started with --gpus: not the runtime's fault as far as the report shows.
  std::string with_gpus = "docker run --gpus all -it my/image\nTensorFlow does not detect the GPU.\n";
  EXPECT_NE(top(with_gpus), "container_gpu_runtime_missing");
}

TEST(ExplainRank, ACapabilityNoReleaseBuildsForIsUnsupportedWhateverTheRelease) {
  std::string log = "My card only has CUDA compute capability 2.1 and TensorFlow does not use the GPU.\n";
  EXPECT_EQ(top(log), "compute_capability_unsupported");
  // A capability current releases build for is not.
  std::string ok = "My card has compute capability 8.6 and TensorFlow does not use the GPU.\n";
  EXPECT_NE(top(ok), "compute_capability_unsupported");
}

TEST(ExplainRank, SayingTheMachineHasAGpuMakesTheCudartLineAProblem) {
  std::string line = "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
                     "'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n"
                     "I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if you do not "
                     "have a GPU set up on your machine.\n";
  EXPECT_EQ(top(line), "harmless_warning_only");  // TF's own "if you do not have a GPU" is not a claim
  EXPECT_EQ(top("I have an NVIDIA RTX card in this PC.\n" + line), "cudart_missing");
}

TEST(ExplainRank, AHarmlessUnlessAGpuIsWantedLineStillSaysWhatItStopsBelowNothingToFix) {
  // The message users paste most, alone: harmless on a machine without a GPU, so "nothing to
  // fix" stays first (exit 0), but what it stops when the GPU is wanted follows, with the
  // release's own files in the fix and a likelihood below a recognised problem.
  auto r = run("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
               "'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n");
  ASSERT_GE(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].id, "harmless_warning_only");
  EXPECT_EQ(r.findings[1].id, "cudart_missing");
  EXPECT_LT(r.findings[1].score, 0.25);
  ASSERT_FALSE(r.findings[1].evidence.empty());
  EXPECT_EQ(r.findings[1].evidence.front().line, 1);
  // Only messages that never matter (the CPU-instructions notice) add no such finding.
  auto notice = run(kCpuNotice);
  ASSERT_EQ(notice.findings.size(), 1u);
  EXPECT_EQ(notice.findings[0].id, "harmless_warning_only");
}

TEST(ExplainRank, CuptiIsTheProfilersLibraryNotOneTheGpuNeeds) {
  // TF 2.10 with the GPU registered, then the profiler (real run, tests/real: tf210/cuda118-profiler):
  // CUPTI of its CUDA missing, with pip's CUDA wheel folders on LD_LIBRARY_PATH.
  const std::string cupti =
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
      "'libcupti.so.11.2'; dlerror: libcupti.so.11.2: cannot open shared object file: No such file or directory; "
      "LD_LIBRARY_PATH: /venv/lib/python3.11/site-packages/nvidia/cublas/lib\n"
      "E0000 00:00:1796290230.848164   20502 profiler_controller.cc:67] ABORTED: Previous call returned an error.\n";
  auto r = run(cupti);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "harmless_warning_only");  // and no crash from the profiler's ABORTED status
  EXPECT_EQ(find(r, "pip_nvidia_libs_not_found"), nullptr);
  // The reporter is profiling: CUPTI's messages are then theirs to fix, not "nothing to fix".
  auto profiling = run("When using the tf.profiler API I see this warning:\n" + cupti);
  EXPECT_EQ(find(profiling, "harmless_warning_only"), nullptr);
}

TEST(ExplainRank, MemoryGrowthInAConfigIsNoMemoryProblemWhenTheGpuIsUnused) {
  const std::string config = "session config: gpu_options { allow_growth: true }\n";
  // With the GPU in use, setting memory growth points at memory.
  EXPECT_NE(find(run(config + "Training is slow, the GPU is used but memory fills.\n"), "gpu_memory_preallocation"), nullptr);
  // When the complaint is that the GPU is not used at all, it says little about memory.
  auto unused = run(config + "But in fact it is not using the GPU.\n");
  const Finding* f = find(unused, "gpu_memory_preallocation");
  EXPECT_TRUE(f == nullptr || f->score < 0.25);  // below the bar of a recognised problem
}

TEST(ExplainRank, AnUnusedGpuWithNothingDatedIsThePackageFirstUnlessACudaIsNamed) {
  // The development reports' proportions: the CPU-only package, then a CUDA of the wrong
  // version, both guesses.
  auto bare = run("Training runs on the CPU and the GPU is not used. How do I make it train on the GPU?\n");
  ASSERT_FALSE(bare.findings.empty());
  EXPECT_EQ(bare.findings.front().id, "wrong_package");
  EXPECT_LT(bare.findings.front().score, 0.5);
  ASSERT_NE(find(bare, "cuda_version_mismatch"), nullptr);
  // A CUDA toolkit named: someone who set one up more often has the wrong one.
  EXPECT_EQ(top("I installed CUDA 10.1. Training runs on the CPU and the GPU is not used.\n"), "cuda_version_mismatch");
}

TEST(ExplainRank, HiddenWarningsMakeTensorflowsSilenceAboutCudaNoEvidence) {
  // TF 1.x (tf.contrib) with nothing about CUDA in the log: the CPU-only package ...
  const std::string report =
      "strategy = tf.contrib.distribute.MirroredStrategy()\nBut it trains on the CPU, not the GPU.\n";
  EXPECT_EQ(top(report), "wrong_package");
  // ... unless TensorFlow was told to print no warnings: then it would not have said.
  for (const char* set : {"os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'\n", "export TF_CPP_MIN_LOG_LEVEL=3\n",
                          "os.environ.setdefault(\"TF_CPP_MIN_LOG_LEVEL\", \"3\")\n"}) {
    auto r = run(set + report);
    const Finding* f = find(r, "wrong_package");  // at most a guess filling the list
    EXPECT_TRUE(f == nullptr || f->score < 0.25) << set;
    EXPECT_NE(find(r, "cuda_version_mismatch"), nullptr) << set;
  }
  // Level 1 hides only INFO lines; a line commented out sets nothing.
  EXPECT_EQ(top("os.environ['TF_CPP_MIN_LOG_LEVEL'] = '1'\n" + report), "wrong_package");
  EXPECT_EQ(top("# os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n" + report), "wrong_package");
}

TEST(ExplainRank, AnUnsureAnswerWithFewerThanThreeCausesIsFilledWithTheUsualOnes) {
  // TensorFlow failed to open its CUDA runtime: two causes named, neither with confidence.
  const std::string log =
      "2020-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
      "dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n"
      "I have tensorflow-gpu 2.1 installed but the GPU is not used.\n";
  auto r = run(log);
  ASSERT_GE(r.findings.size(), 3u);
  const double first = r.findings.front().score;
  ASSERT_LT(first, 0.7);
  // The filler comes below every named cause, and says it is a guess.
  const Finding* filler = nullptr;
  for (const auto& f : r.findings)
    for (const auto& e : f.evidence)
      if (e.source == "prior") filler = &f;
  ASSERT_NE(filler, nullptr);
  EXPECT_LT(filler->score, 0.25);
  EXPECT_NE(filler, &r.findings.front());
  // A confident answer is not padded.
  auto sure =
      run("tensorflow 2.15 on native Windows 11 (not WSL). tf.config.list_physical_devices('GPU') returns []\n");
  ASSERT_FALSE(sure.findings.empty());
  ASSERT_GE(sure.findings.front().score, 0.7);
  for (const auto& f : sure.findings)
    for (const auto& e : f.evidence) EXPECT_NE(e.source, "prior") << f.id;
}

TEST(ExplainRank, AReportInChineseSaysTheGpuIsUnusedOrOutOfMemory) {
  // "Why can training only use the CPU? TensorFlow tf1.4": the CPU-only package of 1.x.
  EXPECT_EQ(top("为何训练只能使用cpu？tensorflow版本tf1.4，没有日志。\n"), "wrong_package");
  // "Is this not training on the GPU? ... I have a GTX 1060": a GPU left unused.
  auto unused = run("请问这是没有用gpu训练吗？我有一张GTX 1060显卡。\n");
  ASSERT_FALSE(unused.findings.empty());
  EXPECT_NE(find(unused, "cuda_version_mismatch"), nullptr);
  // "GPU memory ran out halfway through training, batch_size is already 1": out of memory,
  // and no cause of an unused GPU padded in.
  auto oom = run("训练到一半显存不足，batch_size已经是1了，显卡是RTX 2060 6GB\n");
  ASSERT_FALSE(oom.findings.empty());
  EXPECT_EQ(oom.findings.front().id, "oom");
  EXPECT_EQ(find(oom, "cuda_version_mismatch"), nullptr);
  // "How do I train on the GPU": a question, no symptom.
  EXPECT_TRUE(run("如何使用gpu训练\n").findings.empty());
}

TEST(ExplainRank, TensorflowsOwnSourcePathsDateALogWithNoReleaseNamed) {
  // Paths under external/local_xla and absl's log prefix are printed by 2.11 and later only
  // (the real logs, tests/real_logs): on native Windows no such release has a CUDA build.
  const std::string windows =
      "C:\\Users\\me\\project> python train.py\n"
      "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
      "I0000 00:00:1712345678.123456    4242 cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use "
      "available CPU instructions in performance-critical operations.\n"
      "tf.config.list_physical_devices('GPU') returns [] although I have an RTX 3060.\n";
  auto w = run(windows);
  ASSERT_FALSE(w.findings.empty());
  EXPECT_EQ(w.findings.front().id, "windows_native_gpu_unsupported_tf_ge_2_11");
  // The same on Linux: from 2.1 the plain package is the CUDA build, so TensorFlow's silence
  // about CUDA does not make the CPU-only package the answer.
  const std::string linux_log = std::string("$ python3 /home/me/train.py\n") + kNuma +
                                "tf.config.list_physical_devices('GPU') returns [] although I have an RTX 3060.\n";
  auto l = run(linux_log);
  ASSERT_FALSE(l.findings.empty());
  EXPECT_NE(l.findings.front().id, "wrong_package");
  EXPECT_EQ(find(l, "windows_native_gpu_unsupported_tf_ge_2_11"), nullptr);
  // A release named says more than the log's era: 2.10 still had Windows GPU builds.
  auto named = run("TensorFlow 2.10.1\n" + windows);
  EXPECT_EQ(find(named, "windows_native_gpu_unsupported_tf_ge_2_11"), nullptr);
}

TEST(ExplainRank, MemoryHeldWhenTensorflowStartedMakesAnOomAnotherProcesss) {
  // TensorFlow's own figures: 1 GiB of a 16 GiB card free at start, then an allocation fails.
  const std::string oom = "ResourceExhaustedError: OOM when allocating tensor of shape [563354,256] and type float\n";
  const std::string held =
      "name: Tesla P100-PCIE-16GB major: 6 minor: 0 memoryClockRate(GHz): 1.3285\n"
      "totalMemory: 15.89GiB freeMemory: 1.02GiB\n";
  EXPECT_EQ(top(held + oom), "gpu_memory_preallocation");
  EXPECT_EQ(top(oom), "oom");  // no figures: a model too big stays first
  // 2.x: the allocator got 900 MB of an 11 GiB card (the free memory less at most 1.5 GiB).
  const std::string held2 =
      "deviceMemorySize: 10.76GiB deviceMemoryBandwidth: 451.17GiB/s\n"
      "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 900 MB memory\n";
  EXPECT_EQ(top(held2 + oom), "gpu_memory_preallocation");
  // A card with most of its memory free, or a small card whose display holds half: an OOM.
  EXPECT_EQ(top("totalMemory: 15.89GiB freeMemory: 15.50GiB\n" + oom), "oom");
  EXPECT_EQ(top("deviceMemorySize: 8.00GiB\nCreated device /job:localhost/replica:0/task:0/device:GPU:0 with 6955 MB "
                "memory\n" +
                oom),
            "oom");
  EXPECT_EQ(top("totalMemory: 1.95GiB freeMemory: 977.81MiB\n" + oom), "oom");
  // Without a failure, the held memory is worth saying, not the likely cause of anything.
  auto quiet = run(held);
  const Finding* f = find(quiet, "gpu_memory_preallocation");
  ASSERT_NE(f, nullptr);
  EXPECT_LT(f->score, 0.5);
}

TEST(ExplainRank, WorksInANotebookFailsAsAScriptIsTheNotebooksMemory) {
  const std::string report =
      "It runs fine in a Jupyter notebook but throws this error when run as a .py file:\n"
      "  File \"app.py\", line 6, in <module>\n    model.fit(x, y)\n";
  EXPECT_EQ(top(report), "gpu_memory_preallocation");
  // A script that cannot even load TensorFlow's libraries runs in another environment.
  auto other = run(report +
                   "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
                   "'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file "
                   "or directory\n");
  ASSERT_FALSE(other.findings.empty());
  EXPECT_NE(other.findings.front().id, "gpu_memory_preallocation");
}

TEST(ExplainRank, CudaSaidNotToBeInstalledIsTheMissingRuntime) {
  // TF 1.x / 2.x before the pip wheels load CUDA from the system: said absent, it is missing.
  EXPECT_EQ(top("I use the tensorflow/tensorflow:1.13.1-gpu-py3 based notebook image; there seems to be no CUDA in "
                "it. tf.test.is_gpu_available() returns False.\n"),
            "cudart_missing");
  EXPECT_EQ(top("TensorFlow 2.4 lists no GPU, since the CUDA libraries seem to be missing.\n"), "cudart_missing");
  // Not about the toolkit: a CUDA-capable card, or CUDA not on the PATH.
  EXPECT_NE(top("My GTX 1060 is CUDA-capable but TensorFlow 2.4 lists no GPU.\n"), "cudart_missing");
}

TEST(ExplainRank, InstallingSaidToFailWithAPythonTheReleaseHasNoWheelFor) {
  // The KB's wheel list for 2.10 (Python 3.7-3.10) decides, with no pip output pasted.
  auto r = run("pip install tensorflow==2.10 fails with Python 3.12\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "python_version_unsupported");
  // A Python the release has wheels for, or one named without its minor: nothing inferred.
  EXPECT_EQ(find(run("I can't install tensorflow 2.15 on Python 3.11\n"), "python_version_unsupported"), nullptr);
  EXPECT_EQ(find(run("I can't install tensorflow 2.15 on Python 3\n"), "python_version_unsupported"), nullptr);
  // Without a failure said, the two versions are only facts.
  EXPECT_EQ(find(run("I use tensorflow 2.10 with Python 3.12\n"), "python_version_unsupported"), nullptr);
}

TEST(ExplainRank, CudaVisibleDevicesThatHideEveryGpuWhenTheGpuIsWanted) {
  const std::string unused = "Training runs on the CPU, I have one GTX 1060.\n";
  for (const char* set : {"os.environ['CUDA_VISIBLE_DEVICES'] = '-1'\n", "export CUDA_VISIBLE_DEVICES=NoDevFiles\n",
                          "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"\"\n"})
    EXPECT_EQ(top(set + unused), "no_device_visible") << set;
  // An index, or a value set by the program: not known to hide anything.
  EXPECT_NE(top("os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n" + unused), "no_device_visible");
  EXPECT_NE(top("os.environ['CUDA_VISIBLE_DEVICES'] = str(args.gpu)\n" + unused), "no_device_visible");
  // Set on purpose to run on the CPU: TF's "no CUDA-capable device" line is then no problem.
  EXPECT_EQ(top("export CUDA_VISIBLE_DEVICES=-1\n"
                "E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no "
                "CUDA-capable device is detected\n"),
            "harmless_warning_only");
}

TEST(ExplainRank, TensorflowIntelInAPackageListIsWindowsFrom2_11) {
  // `pip install tensorflow` on Windows installs tensorflow-intel from 2.11 on (PyPI's
  // win_amd64 wheels): a pip list naming it is native Windows, with no CUDA build.
  const std::string pip_list =
      "Package                      Version\n"
      "---------------------------- -----------\n"
      "keras                        2.15.0\n"
      "tensorflow                   2.15.0\n"
      "tensorflow-intel             2.15.0\n\n"
      "The GPU is not used.\n";
  EXPECT_EQ(top(pip_list), "windows_native_gpu_unsupported_tf_ge_2_11");
  EXPECT_EQ(top("I have tensorflow-intel installed and the GPU is not used.\n"),
            "windows_native_gpu_unsupported_tf_ge_2_11");
}

TEST(ExplainRank, OldAndLaptopCardsNamedResolveToTheirCapability) {
  // Kepler GeForce cards (KB rows from pci.ids and NVIDIA's legacy list): CC 3.0 is below
  // every TensorFlow 2.x build.
  EXPECT_EQ(top("I'm on a GTX 680 with TensorFlow 2.4 and the GPU is ignored.\n"), "compute_capability_unsupported");
  // A laptop part, named with the words reporters add, has its namesake's capability (5.0,
  // which 2.18's build no longer covers).
  EXPECT_EQ(top("GTX 960M laptop, TensorFlow 2.18, GPU not detected\n"), "compute_capability_unsupported");
  // A library that did not load is what stops TensorFlow first; the capability comes next.
  auto r =
      run("Windows 10, tensorflow-gpu 2.2.0, CUDA 10.1, NVIDIA GTX 960M.\n"
          "Could not load dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n");
  ASSERT_GE(r.findings.size(), 2u);
  EXPECT_NE(r.findings.front().id, "compute_capability_unsupported");
  EXPECT_NE(find(r, "compute_capability_unsupported"), nullptr);
}

TEST(ExplainRank, AConvolutionFailingOnTheGpuIsCudnnsMemoryOrVersion) {
  // TF 1.x's failing-node dump of a Conv2D placed on the GPU, nothing else.
  auto node =
      run("[[{{node model_1/conv2d_1/convolution}} = Conv2D[T=DT_FLOAT, data_format=\"NCHW\", "
          "use_cudnn_on_gpu=true, _device=\"/job:localhost/replica:0/task:0/device:GPU:0\"](x, kernel)]]\n");
  ASSERT_GE(node.findings.size(), 2u);
  EXPECT_EQ(node.findings[0].id, "gpu_memory_preallocation");
  EXPECT_EQ(node.findings[1].id, "cudnn_version_mismatch");
  // A model that only uses Conv2D is no failure.
  EXPECT_EQ(find(run("model.add(Conv2D(32, (3, 3), activation='relu'))\n"), "gpu_memory_preallocation"), nullptr);
}

TEST(ExplainRank, ALibraryMissingInRstudioServerButNotInAPlainRSession) {
  // RStudio Server starts R without the shell's LD_LIBRARY_PATH (rsession-ld-library-path).
  EXPECT_EQ(top("rstudio-server: \"libcublas.so.9.0: cannot open shared object file: No such file or directory\", "
                "although I can run keras on GPU from bare R just fine\n"),
            "env_path_not_set");
  EXPECT_NE(top("RStudio shows: libcublas.so.9.0: cannot open shared object file: No such file or directory\n"),
            "env_path_not_set");
}

TEST(ExplainRank, NvidiasTensorflow115BuildIsNotThePlainCpuPackage) {
  // Plain `tensorflow` 1.x is CPU-only; NVIDIA's nvidia-tensorflow 1.15 is a CUDA build.
  const std::string plain = "TensorFlow 1.15 is not using the GPU (an RTX 3070).\n";
  ASSERT_NE(find(run(plain), "wrong_package"), nullptr);
  const Finding* f = find(run("pip install nvidia-tensorflow\n" + plain), "wrong_package");
  EXPECT_TRUE(f == nullptr || f->score < 0.25);  // at most a guess filling the list
}

TEST(ExplainRank, TensorflowGpuSaidNotInstalledIsThePlainPackageUnlessTheReleaseHasGpu) {
  // tensorflow-gpu named only to say it is not installed: the plain package is in use.
  const std::string prose = "Training does not use the GPU (a GTX 1070). I did not have tensorflow-gpu installed.\n";
  EXPECT_EQ(top(prose), "wrong_package");
  EXPECT_EQ(top("It runs on the CPU. Do I need to change `tensorflow` into `tensorflow-gpu`?\n"), "wrong_package");
  // TF 1.15's plain package is CPU-only (KB [[package]] rows): more sure with the release.
  const auto with_release = run("TensorFlow 1.15.\n" + prose), without = run(prose);
  const Finding* old = find(with_release, "wrong_package");
  const Finding* unknown = find(without, "wrong_package");
  ASSERT_NE(old, nullptr);
  ASSERT_NE(unknown, nullptr);
  EXPECT_GT(old->score, unknown->score);
  // From 2.1 the plain package is the GPU build: not having tensorflow-gpu is no cause.
  const auto newer = run("TensorFlow 2.4.\n" + prose);
  const Finding* f = find(newer, "wrong_package");
  EXPECT_TRUE(f == nullptr || f->score < 0.3);
}

TEST(ExplainRank, AnArmWheelRefusedIsAnotherPythonsPipNotA32BitOne) {
  const std::string log =
      "pip3 install ~/tensorflow-2.3.1-cp36-cp36m-linux_aarch64.whl\n"
      "ERROR: tensorflow-2.3.1-cp36-cp36m-linux_aarch64.whl is not a supported wheel on this "
      "platform.\n";
  EXPECT_EQ(top(log), "python_version_unsupported");
  // The same refusal of a Windows x64 wheel keeps the 32-bit interpreter first.
  EXPECT_EQ(top("ERROR: tensorflow_gpu-1.13.1-cp36-cp36m-win_amd64.whl is not a supported wheel on this platform.\n"),
            "python_32bit");
}

TEST(ExplainRank, TwoCudasNamedAndTheMissingFileIsOnesMakesTheOtherTheInstalledOne) {
  // CUDA 9.0 ships libcublas.so.9.0, CUDA 8.0 does not (KB library names).
  const std::string log =
      "tf-nightly-gpu now relies on CUDA 9.0, while our image is built on CUDA 8.0. The import "
      "fails when it tries to find libcublas.so.9.0.\n";
  auto r = run(log);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "cuda_version_mismatch");
  // One CUDA named that ships the file: installed but not found comes first, as before.
  EXPECT_EQ(top("I installed CUDA 9.0. The import fails when it tries to find libcublas.so.9.0.\n"),
            "env_path_not_set");
}

TEST(ExplainRank, ACauseOfAnotherPlatformIsNeverListed) {
  // The same import traceback: on Windows the MSVC runtime is a candidate, on Linux never.
  const std::string tb =
      "Traceback (most recent call last):\n"
      "  File \"{}pywrap_tensorflow.py\", line 58, in <module>\n"
      "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
      "ImportError: DLL load failed\n";
  auto on = [&](std::string_view dir) { return run(fmt::format(fmt::runtime(tb), dir)); };
  const auto windows =
      on("C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python37\\lib\\site-packages\\tensorflow\\python\\");
  const auto linux = on("/usr/local/lib/python3.5/dist-packages/tensorflow/python/");
  EXPECT_NE(find(windows, "msvc_runtime_missing"), nullptr);
  EXPECT_EQ(find(linux, "msvc_runtime_missing"), nullptr);
}

TEST(ExplainRank, ALibraryMissingOnlyInTheIdeIsItsEnvironment) {
  const std::string log =
      "ImportError: libcudnn.so.5: cannot open shared object file: No such file or directory\n"
      "From a terminal the same script runs fine; in PyCharm the error always appears.\n";
  EXPECT_EQ(top(log), "env_path_not_set");
  // No library named (TF >= 2.12 logs failed loads only at a higher level): still the IDE's
  // environment first, as a guess below the "recognised" bar of 0.5.
  const auto unnamed =
      run("The GPU works in the terminal, but in VS Code tf.config.list_physical_devices('GPU') is []\n");
  ASSERT_FALSE(unnamed.findings.empty());
  EXPECT_EQ(unnamed.findings.front().id, "env_path_not_set");
  EXPECT_LT(unnamed.findings.front().score, 0.5);
}

TEST(ExplainRank, TensorflowsImportFailingInAContainerWithoutGpusIsTheContainerRuntime) {
  const std::string log =
      "$ docker run --rm -it -p 5000:5000 some/tf-image\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/local/lib/python3.5/dist-packages/tensorflow/python/pywrap_tensorflow.py\", "
      "line 58, in <module>\n"
      "    from tensorflow.python.pywrap_tensorflow_internal import *\n";
  EXPECT_EQ(top(log), "container_gpu_runtime_missing");
  EXPECT_NE(top("$ docker run --gpus all --rm -it some/tf-image\n" + log.substr(log.find('\n') + 1)),
            "container_gpu_runtime_missing");
}

TEST(ExplainRank, AReleaseBuiltFromSourceIsNotComparedWithTheReleasesCuda) {
  // TF 1.9's release builds use CUDA 9.0; built with bazel against CUDA 9.2 that is no mismatch.
  const std::string log =
      "CUDA 9.2 and cuDNN 7.1 on Ubuntu 18.04; TensorFlow 1.9.0.\n"
      "Target //tensorflow:libtensorflow_cc.so up-to-date:\n  bazel-bin/tensorflow/libtensorflow_cc.so\n"
      "The GPU is not used.\n";
  const auto r = run(log);
  const Finding* f = find(r, "cuda_version_mismatch");
  EXPECT_TRUE(f == nullptr || f->score < 0.5) << (f ? f->score : 0);
  // The same statement without the build: the release's CUDA 9.0 is not 9.2.
  const auto release = run("CUDA 9.2 and cuDNN 7.1 on Ubuntu 18.04; TensorFlow 1.9.0.\nThe GPU is not used.\n");
  ASSERT_NE(find(release, "cuda_version_mismatch"), nullptr);
  EXPECT_GE(find(release, "cuda_version_mismatch")->score, 0.5);
}

TEST(ExplainRank, PtxTheWheelsCannotJitForTheGpuIsUnsupportedNotSlow) {
  // Lines of real TF 2.21 (the real tier's mock driver at compute capability 5.0, with
  // TF_CPP_VMODULE=dso_loader=1): TF lists the GPU and promises a PTX JIT, but the releases
  // that open libcudart.so.12 and libcudnn.so.9 carry PTX only for compute_90 (KB build_info).
  const std::string opened =
      "I0000 00:00:1796251995.228653   17669 dso_loader.cc:133] Successfully opened dynamic library libcudnn.so.9\n"
      "I0000 00:00:1796251995.237122   17666 dso_loader.cc:133] Successfully opened dynamic library libcudart.so.12\n";
  const std::string warning =
      "W0000 00:00:1796251995.314760   17666 gpu_device.cc:2459] TensorFlow was not built with CUDA "
      "kernel binaries compatible with compute capability 5.0. CUDA kernels will be jit-compiled "
      "from PTX, which could take 30 minutes or longer.\n";
  EXPECT_EQ(top(opened + warning), "compute_capability_unsupported");
  EXPECT_EQ(top("TensorFlow 2.21.0\n" + warning), "compute_capability_unsupported");
  // Where the release is not known, the warning keeps its own meaning.
  EXPECT_EQ(top(warning), "ptx_jit_slow");
  // A GPU newer than the PTX (12.0 from compute_90) is JIT-compiled: slow, not unsupported.
  std::string newer = warning;
  newer.replace(newer.find("5.0."), 4, "12.0.");
  EXPECT_EQ(top(opened + newer), "ptx_jit_slow");
}

TEST(ExplainRank, APtxOnlyGpuThatIsNotListedIsNotSlowItIsMissing) {
  // TF 2.15.0's build_info (KB, from the wheel) carries compute_80 PTX and no sm_8x SASS: on
  // an RTX 3060 (8.6) a working install JIT-compiles at start. A GPU that is not listed at all
  // never gets that far, so the slow start is not a cause there.
  const std::string stated = "Ubuntu 22.04, pip install tensorflow==2.15.0, RTX 3060.\n";
  const auto works = run(stated + "The first epoch takes ten minutes to start.\n");
  ASSERT_NE(find(works, "ptx_jit_slow"), nullptr);
  const std::string dlopen =
      "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries. Please make sure "
      "the missing libraries mentioned above are installed properly if you would like to use GPU.\n"
      "Skipping registering GPU devices...\n";
  const auto missing = run(stated + dlopen);
  EXPECT_EQ(find(missing, "ptx_jit_slow"), nullptr);
  EXPECT_EQ(missing.findings.front().id, "cudart_missing");
  EXPECT_EQ(find(run(stated + "tf.config.list_physical_devices('GPU') returns [].\n"), "ptx_jit_slow"), nullptr);
  // Nor where the build has no CUDA on the platform (TF 2.13 on native Windows).
  EXPECT_EQ(
      find(run("Windows 10, tensorflow 2.13, RTX 3070. tf.test.is_built_with_cuda() returns False.\n"), "ptx_jit_slow"),
      nullptr);
  // TensorFlow created the device and did not log its PTX warning, and nobody complains of a
  // slow start: nothing to fix first, the JIT a heads-up below it.
  const auto created =
      run("WSL2 Ubuntu 22.04, tensorflow 2.15.0.\n"
          "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1929] Created device "
          "/job:localhost/replica:0/task:0/device:GPU:0 with 5563 MB memory:  -> device: 0, name: NVIDIA GeForce RTX "
          "3060, pci bus id: 0000:01:00.0, compute capability: 8.6\n");
  ASSERT_FALSE(created.findings.empty());
  EXPECT_EQ(created.findings.front().id, "harmless_warning_only");
  ASSERT_NE(find(created, "ptx_jit_slow"), nullptr);
  EXPECT_LT(find(created, "ptx_jit_slow")->score, 0.5);
}

TEST(ExplainRank, AReleaseInstalledWithItsCudaExtraDatesTheDriverNeed) {
  // TF 2.15.0 is built with CUDA 12.2 (KB), which needs driver >= 525.60.13: a 470 driver is
  // too old, whatever the pip CUDA wheels do.
  const std::string log =
      "RTX 3060 on Ubuntu 22.04 with driver 470.82 (nvidia-smi says CUDA Version: 11.4). I did "
      "pip install tensorflow[and-cuda]==2.15.0 but no GPU is found.\n"
      "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries.\n";
  EXPECT_EQ(top(log), "driver_too_old");
}

TEST(ExplainRank, TheAllocatorsNotAFailureWarningIsHarmlessAndItsFailureIsNot) {
  // bfc_allocator.cc's two "ran out of memory" warnings (the first string is in TF 2.10.1's
  // libtensorflow_framework.so.2): one says itself it is not a failure.
  const std::string retry =
      "W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory trying to "
      "allocate 2.27GiB with freed_by_count=0. The caller indicates that this is not a failure, but this may mean "
      "that there could be performance gains if more memory were available.\n";
  EXPECT_EQ(top(retry), "harmless_warning_only");
  EXPECT_EQ(top("W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory "
                "trying to allocate 2.26GiB.\n"),
            "oom");
}

TEST(ExplainRank, AGpuTensorflowListsIsNoGpuItDoesNotUse) {
  // TensorRT missing and the GPU listed: nothing to fix, and no "usual causes of an unused GPU".
  const auto r =
      run("W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Cannot dlopen some TensorRT "
          "libraries. If you would like to use Nvidia GPU with TensorRT, please make sure the missing libraries "
          "mentioned above are installed properly.\n"
          "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]\n");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings.front().id, "harmless_warning_only");
}

TEST(ExplainRank, AToolkitAndACudnnOfTheRightMajorStatedLeaveTheSearchPath) {
  // TF 2.16.1 opens CUDA 12 files and libcudnn.so.8 (KB): with CUDA 12.3 and cuDNN 8.9.7 both
  // stated, cuDNN is not what is missing; without the cuDNN statement it is the first guess.
  const std::string said = "tensorflow 2.16.1, Ubuntu 22.04, RTX 4090. I installed CUDA 12.3";
  const std::string rest =
      " system-wide, then pip install tensorflow. tf.config.list_physical_devices('GPU') returns [].\n";
  const auto both = run(said + " and cuDNN 8.9.7" + rest);
  ASSERT_FALSE(both.findings.empty());
  EXPECT_EQ(both.findings.front().id, "env_path_not_set");
  EXPECT_EQ(find(both, "cudnn_missing"), nullptr);
  EXPECT_EQ(top(said + rest), "cudnn_missing");
}

TEST(ExplainRank, AMissingLibraryTheReporterFindsOnDiskIsTheSearchPath) {
  const std::string log =
      "ImportError: libcudart.so.7.5: cannot open shared object file: No such file or directory\n"
      "although libcudart.so.7.5 can be found in /usr/local/cuda-7.5/lib64\n";
  EXPECT_EQ(top(log), "env_path_not_set");
  // Said to be absent, it is not "on disk".
  const auto absent =
      run("ImportError: libcudart.so.7.5: cannot open shared object file: No such file or directory\n"
          "libcudart.so.7.5 is not present in /usr/local/cuda/lib64\n");
  EXPECT_NE(absent.findings.front().id, "env_path_not_set");
}

TEST(ExplainRank, EveryCudaTheReportNamesOlderThanItsGpuIsAMismatch) {
  // Ampere (8.6) and CUDA 10.1 / 11.0, neither of which builds for it (KB sass_max): the
  // rule itself names the cause, above the usual guesses (0.2).
  auto r = run("GPU Nvidia RTX 3070 8GB.\nThe tool only runs with CUDA 10.1; I tried installing CUDA 11.0 but "
               "nothing works.\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "cuda_version_mismatch");
  EXPECT_GE(r.findings[0].score, 0.5);
  // One named CUDA that knows the GPU: no such finding from the rule.
  auto ok = run("GPU Nvidia RTX 3070 8GB.\nI have CUDA 10.1 and CUDA 11.2, nothing works.\n");
  ASSERT_FALSE(ok.findings.empty());
  EXPECT_LT(ok.findings[0].score, 0.5);
}

TEST(ExplainRank, AComposeServiceGetsNoGpuWhateverADockerRunTestShowed) {
  // `docker run --gpus all ... nvidia-smi` works, but the service started by Compose has no
  // nvidia-smi: the compose file reserves no GPU.
  const std::string log = "docker run --gpus all nvidia/cuda:10.1-base nvidia-smi\n"
                          "| NVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: 11.0 |\n"
                          "Inside the notebook container: /bin/bash: nvidia-smi: command not found\n";
  EXPECT_NE(top(log), "container_gpu_runtime_missing");  // nothing says how that container started
  EXPECT_EQ(top(log + "Versions: Docker 19.03.12, docker-compose 1.17.1\n"), "container_gpu_runtime_missing");
}

TEST(ExplainRank, TheReportSayingTheMsvcRuntimeIsPresentLowersIt) {
  std::string log = "ImportError: DLL load failed: The specified module could not be found.\n"
                    "Someone suggested a missing MSVCP140.DLL.\n";
  auto base = run(log);
  auto said = run(log + "But msvcp140.dll is present in System32, and I installed the Visual C++ Redistributable.\n");
  const Finding* a = find(base, "msvc_runtime_missing");
  const Finding* b = find(said, "msvc_runtime_missing");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_LT(b->score, a->score);
}

// One line of evidence each, read by a general mechanism (not one report's wording).
TEST(ExplainRank, GeneralMechanismsNameTheCause) {
  struct Row {
    const char* mechanism;
    std::string log;
    const char* expected;
  };
  const Row rows[] = {
      {"tensorflow-gpu 1.x imports, yet the GPU is unused and CUDA never mentioned: the CPU package shadows it",
       "I did pip install tensorflow-gpu==1.12.0 and it imports fine, but it runs only on the CPU.\n", "wrong_package"},
      {"an 80-column console wraps pip's refusal in the middle of a word",
       "I use Python 2.7.15.\ntensorflow_gpu-1.12.0-cp36-cp36m-win_amd64.whl is not a supported wheel on this p\n"
       "latform.\n",
       "python_version_unsupported"},
      {"the removed tensorflow-gpu 2.12 source stub",
       "Collecting tensorflow-gpu\n  Downloading tensorflow-gpu-2.12.0.tar.gz (2.6 kB)\n"
       "  error: subprocess-exited-with-error\nerror: metadata-generation-failed\n",
       "wrong_package"},
      {"the GPU's memory, all of it and taking it, in one sentence in any order",
       "All the GPU memory is occupied at the beginning of training with tensorflow 1.13.1.\n",
       "gpu_memory_preallocation"},
      {"memory drained by one process, so a second one gets none",
       "GPU 0 memory is drained by the learner, so the actors cannot be placed on it.\n", "gpu_memory_preallocation"},
      {"tfjs-node's release stands for the libtensorflow it downloads (KB), and so for its CUDA",
       "TensorFlow.js version: tfjs-node-gpu 2.0.1\nI installed CUDA 11.0 on Ubuntu 20.04 and the GPU is not used.\n",
       "cuda_version_mismatch"},
      {"TF 1.x's wording when cuDNN's RNN cannot be created",
       "tensorflow.python.framework.errors_impl.UnknownError: Fail to find the dnn implementation.\n",
       "cudnn_version_mismatch"},

      {"prose about TensorFlow taking all GPU memory",
       "Keras allocates all the GPU memory for one tiny model, so I cannot run two trainings.\n", "gpu_memory_preallocation"},
      {"a Linux driver installed inside WSL",
       "I installed the NVIDIA driver inside WSL by mistake and now the GPU is not found.\n", "wsl_libcuda"},
      {"the C library's archive names the release and the platform",
       "The download fails: No such object: tensorflow/libtensorflow/libtensorflow-gpu-windows-x86_64-2.12.0.zip\n",
       "windows_native_gpu_unsupported_tf_ge_2_11"},
      {"an import traceback through _pywrap_tensorflow_internal on Windows",
       "Windows 10, Python 3.8, pip install tensorflow\nTraceback (most recent call last):\n"
       "  File \"C:\\venv\\lib\\site-packages\\tensorflow\\python\\pywrap_tensorflow.py\", line 58, in <module>\n"
       "    from tensorflow.python.pywrap_tensorflow_internal import *\n",
       "msvc_runtime_missing"},
      {"TensorFlow's profiler does not know the GPU's architecture",
       "E tensorflow/core/profiler/utils/hardware_type_utils.cc:33] Invalid GPU compute capability.\n",
       "compute_capability_unsupported"},
      {"the report states the GPU's capability and the minimum the build needs",
       "GPU compute capability 6.1. The current version needs a minimum compute capability of 7.0.\n",
       "compute_capability_unsupported"},
      {"a failed install on macOS is the install, not the platform's missing CUDA build",
       "System information: macOS Big Sur (11.1); Python 3.9.1\n"
       "ERROR: No matching distribution found for tensorflow\n",
       "python_version_unsupported"},
      {"pip shows both tensorflow and tensorflow-gpu 1.x",
       "python -c \"import tensorflow as tf; print(tf.test.is_gpu_available())\"\nFalse\n$ pip show tensorflow-gpu\n"
       "Name: tensorflow-gpu\nVersion: 1.15.4\n$ pip show tensorflow\nName: tensorflow\nVersion: 1.15.4\n",
       "wrong_package"},
      {"a CUDA named as what is needed is not a CUDA installed",
       "The docs should mention that CUDA 11.3 is needed on an RTX card:\n"
       "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
       "'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n",
       "cudart_missing"},
      {"asking for the library path with the [and-cuda] wheels of the regressed release",
       "TensorFlow version: v2.16.1-0-g5bc9d26649c 2.16.1\nOS: Debian 12\n"
       "After pip install tensorflow[and-cuda], how should LD_LIBRARY_PATH be set?\n",
       "pip_nvidia_libs_not_found"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.mechanism);
    EXPECT_EQ(top(row.log), row.expected);
  }
}

TEST(ExplainRank, OnlyHarmlessLinesGiveHarmlessWarningOnly) {
  auto r = run(std::string(kCpuNotice) + kTrt + kNuma);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].id, "harmless_warning_only");
  EXPECT_EQ(r.findings[0].severity, Severity::kInfo);
  ASSERT_EQ(r.noise.size(), 3u);
  EXPECT_EQ(r.noise[0].line, 1);
  EXPECT_EQ(r.noise[0].signature, "cpu_feature_guard_notice");
  EXPECT_EQ(r.noise[1].signature, "tensorrt_missing");
  EXPECT_FALSE(r.noise[2].why.empty());
}

// Issue 14: logs in which TensorFlow crashed were answered "only harmless messages".
TEST(ExplainRank, ACrashIsNeverOnlyHarmlessMessages) {
  const std::string harmless = std::string(kCpuNotice) + kTrt + kNuma;
  for (const char* crash : {"Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n",
                            "Segmentation fault (core dumped)\n",
                            "2024-01-01 12:00:02.000000: F tensorflow/core/kernels/conv_ops.cc:1000] Check failed: status.ok()\n",
                            "RuntimeError: something went wrong\n"}) {
    auto r = run(harmless + crash);
    EXPECT_EQ(find(r, "harmless_warning_only"), nullptr) << crash;
  }
}

TEST(ExplainRank, AnyPythonErrorLineOrAbortIsACrash) {
  const std::string harmless = std::string(kCpuNotice) + kTrt + kNuma;
  for (const char* crash : {"ValueError: Shapes (None, 1) and (None, 10) are incompatible\n", "Aborted\n",
                            "Illegal instruction\n", "terminate called after throwing an instance of 'std::bad_alloc'\n"}) {
    auto r = run(harmless + crash);
    EXPECT_EQ(find(r, "harmless_warning_only"), nullptr) << crash;
  }
}

TEST(ExplainRank, PtxasThatDoesNotKnowTheGpuIsPtxasTooOld) {
  EXPECT_EQ(top("W tensorflow/stream_executor/gpu/asm_compiler.cc:235] Your CUDA software stack is old. We fallback to "
                "the NVIDIA driver for some compilation. The ptxas error was: ptxas fatal   : Value 'sm_89' is not "
                "defined for option 'gpu-name'\n"),
            "ptxas_too_old");
}

TEST(ExplainRank, NumpyOneModuleUnderNumpyTwoIsNumpyAbiMismatch) {
  EXPECT_EQ(top("A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.1 as it may crash.\n"
                "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
                "AttributeError: _ARRAY_API not found\n"),
            "numpy_abi_mismatch");
}

TEST(ExplainRank, CuInitUnknownAfterSuspendIsStaleUvm) {
  const char* cuinit = "E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: "
                       "CUDA_ERROR_UNKNOWN: unknown error\n";
  EXPECT_EQ(top(std::string("Ubuntu 22.04 laptop, the GPU is gone after suspend, fine after a reboot\n") + cuinit),
            "uvm_stale_after_suspend");
  EXPECT_NE(top(std::string("Ubuntu 22.04\n") + cuinit), "uvm_stale_after_suspend");
}

TEST(ExplainRank, KernelVersionMatchingTheDsoRefutesADriverLibraryMismatch) {
  const char* cuinit = "E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: "
                       "CUDA_ERROR_UNKNOWN: unknown error\n";
  auto plain = run(cuinit);
  auto refuted = run(std::string(cuinit) +
                     "I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:200] kernel version seems to "
                     "match DSO: 535.104.5\n");
  const Finding* a = find(plain, "driver_library_mismatch");
  const Finding* b = find(refuted, "driver_library_mismatch");
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(b == nullptr || b->score < a->score * 0.6);
}

TEST(ExplainRank, MissingNvmlLibraryIsNvmlMissing) {
  EXPECT_EQ(top("tf.config.list_physical_devices('GPU') returns []\nNVML Shared Library Not Found\n"), "nvml_missing");
}

TEST(ExplainRank, HarmlessLinesNeverOutrankARealError) {
  auto r = run(std::string(kCpuNotice) + kTrt + kNuma +
               "E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 3.2G from device: "
               "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "oom");
  EXPECT_EQ(find(r, "harmless_warning_only"), nullptr);
  EXPECT_EQ(r.noise.size(), 3u);  // still listed, separately
  ASSERT_FALSE(r.findings[0].evidence.empty());
  EXPECT_EQ(r.findings[0].evidence[0].line, 4);
}

TEST(ExplainRank, CudartDlerrorOnAMachineWithoutGpuIsHarmless) {
  auto r = run(
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
      "'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
      "I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set "
      "up on your machine.\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "harmless_warning_only");
}

TEST(ExplainRank, SameDlerrorWhenTheGpuIsWantedIsCudartMissing) {
  EXPECT_EQ(top("My RTX 3060 is not detected.\n"
                "W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
                "cannot open shared object file\n"),
            "cudart_missing");
}

TEST(ExplainRank, InstalledCudaWithTheRequestedFileMeansThePathIsNotSet) {
  auto r = run("CUDA 11.2 installed with conda install cudatoolkit=11.2\n"
               "W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
               "cannot open shared object file\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "env_path_not_set");
  // The KB fact behind it is cited.
  bool kb_evidence = false;
  for (const auto& e : r.findings[0].evidence) kb_evidence = kb_evidence || e.source.rfind("kb:", 0) == 0;
  EXPECT_TRUE(kb_evidence);
}

TEST(ExplainRank, InstalledCudaWithAnotherFileNameIsAVersionMismatch) {
  EXPECT_EQ(top("TensorFlow 2.4.0, CUDA 11.1 installed\n"
                "I dso_loader.cc:49] Successfully opened dynamic library libcudart.so.11.0\n"
                "W dso_loader.cc:60] Could not load dynamic library 'libcusolver.so.10'; dlerror: libcusolver.so.10: "
                "cannot open shared object file\n"),
            "cuda_version_mismatch");
}

TEST(ExplainRank, TensorflowNewerThan210OnNativeWindowsIsThePlatform) {
  auto r = run("OS: Windows 11\nTensorFlow version: 2.15.0\n>>> tf.config.list_physical_devices('GPU')\n[]\n" +
               std::string(kCpuNotice));
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "windows_native_gpu_unsupported_tf_ge_2_11");
  EXPECT_EQ(r.facts.os.value, "windows");
}

TEST(ExplainRank, Tensorflow210OnWindowsIsNotThePlatformProblem) {
  auto r = run("OS: Windows 10\nTensorFlow version: 2.10.1\nGPU model and memory: GTX 1080 8 GB\n"
               "W dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "cudart_missing");
  EXPECT_EQ(find(r, "windows_native_gpu_unsupported_tf_ge_2_11"), nullptr);
  // The fix is the Windows one.
  EXPECT_NE(r.findings[0].fix.front().find("CUDA toolkit"), std::string::npos);
}

TEST(ExplainRank, Wsl2IsLinuxEvenWhenWindowsIsMentioned) {
  auto r = run("Windows 11, Ubuntu 22.04 in WSL2\nTensorFlow version: 2.15.0\n"
               "W dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open "
               "shared object file\n");
  EXPECT_EQ(r.facts.os.value, "linux");
  EXPECT_EQ(r.facts.wsl.value, "yes");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "wsl_libcuda");
  EXPECT_EQ(find(r, "windows_native_gpu_unsupported_tf_ge_2_11"), nullptr);
}

TEST(ExplainRank, OldDriverExplainsTheEmptyGpuList) {
  auto r = run("TensorFlow version: 2.15.0\n"
               "| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n"
               "print(tf.config.list_physical_devices('GPU')) gives an empty list\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "driver_too_old");
}

TEST(ExplainRank, HiddenDevicesExplainNoDevice) {
  // With the GPU wanted (listed as missing). Without that, the setting may be on purpose
  // (a real report, qa-199: set to run on the CPU; the maintainer: nothing to fix), and
  // CudaVisibleDevicesThatHideEveryGpuWhenTheGpuIsWanted keeps that harmless.
  EXPECT_EQ(
      top("export CUDA_VISIBLE_DEVICES=-1\n"
          "E cuda_driver.cc:268] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
          "tf.config.list_physical_devices('GPU') returns []\n"),
      "no_device_visible");
}

TEST(ExplainRank, ContainerWithoutGpuAccessOutranksMissingDriver) {
  EXPECT_EQ(top("docker run -it tensorflow/tensorflow:latest-gpu python\n"
                "E cuda_driver.cc:351] failed call to cuInit: UNKNOWN ERROR (303)\n"
                "I cuda_diagnostics.cc:156] kernel driver does not appear to be running on this host (abc): "
                "/proc/driver/nvidia/version does not exist\n"),
            "container_gpu_runtime_missing");
}

TEST(ExplainRank, PythonTooNewForTheRequestedRelease) {
  EXPECT_EQ(top("Python 3.12.1, tensorflow 2.15.0 on Ubuntu\n"
                "ERROR: Could not find a version that satisfies the requirement tensorflow==2.15.0 (from versions: 2.16.1)\n"
                "ERROR: No matching distribution found for tensorflow==2.15.0\n"),
            "python_version_unsupported");
}

TEST(ExplainRank, CudnnMismatchWithoutEnvironmentConflict) {
  auto r = run("E cuda_dnn.cc:362] Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "cudnn_version_mismatch");
  EXPECT_EQ(r.facts.cudnn_loaded.value, "8.0.5");
  EXPECT_EQ(r.facts.cudnn_compiled.value, "8.1.0");
}

TEST(ExplainRank, CudnnMismatchInACondaEnvOnAMachineWithSystemCudaIsTheConflict) {
  EXPECT_EQ(top("conda activate tf\nexport LD_LIBRARY_PATH=/usr/local/cuda/lib64\n"
                "E cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.1.1 but source was compiled with: 8.6.0.\n"),
            "conda_cuda_conflict");
}

TEST(ExplainRank, CpuFlagsWithoutAvxAndACrash) {
  EXPECT_EQ(top("flags\t\t: fpu vme sse sse2 ssse3 sse4_1 sse4_2 popcnt\nIllegal instruction (core dumped)\n"),
            "cpu_no_avx");
}

TEST(ExplainRank, CpuNoticeRefutesMissingAvx) {
  auto r = run("Illegal instruction (core dumped)\n"
               "I cpu_feature_guard.cc:142] Your CPU supports instructions that this TensorFlow binary was not "
               "compiled to use: AVX2 FMA\n");
  const Finding* f = find(r, "cpu_no_avx");
  ASSERT_NE(f, nullptr);
  EXPECT_LT(f->score, 0.5);
}

TEST(ExplainRank, WorkingGpuRefutesMissingLibraries) {
  auto r = run("The GPU is not used?\n"
               "I gpu_device.cc:1115] Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with "
               "6955 MB memory) -> physical GPU (device: 0, name: GeForce RTX 2070)\n"
               "E cuda_dnn.cc:334] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "gpu_memory_preallocation");
  const Finding* c = find(r, "cudart_missing");
  EXPECT_TRUE(c == nullptr || c->score < 0.2);
}

TEST(ExplainRank, WithoutAKnowledgeBaseSignaturesStillRank) {
  auto r = explain_text("Failed to initialize NVML: Driver/library version mismatch\n", shipped_signatures(), nullptr);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "driver_library_mismatch");
}

TEST(ExplainRank, EmptyInputHasNoFindings) {
  auto r = run("");
  EXPECT_TRUE(r.findings.empty());
  EXPECT_TRUE(r.noise.empty());
  EXPECT_EQ(r.stats.lines, 0u);
}

TEST(ExplainRank, DoctorRulesSeeThePartialSnapshotAndAddEvidence) {
  ExplainOptions o;
  Snapshot seen;
  o.rules = [&](const Snapshot& s, const kb::KnowledgeBase&) {
    seen = s;
    Finding f;
    f.id = "driver_too_old";
    f.severity = Severity::kBlocker;
    f.evidence.push_back({"driver 390.1 is older than CUDA 11 needs", "rule:driver", 0});
    return std::vector<Finding>{f};
  };
  auto r = run("TensorFlow version: 2.10.0\nPython 3.9.7\nDriver Version: 390.1\n", o);
  EXPECT_EQ(seen.origin, "log");
  ASSERT_EQ(seen.pythons.size(), 1u);
  ASSERT_EQ(seen.pythons[0].tensorflow.size(), 1u);
  EXPECT_EQ(seen.pythons[0].tensorflow[0].version, "2.10.0");
  EXPECT_EQ(seen.driver.version, "390.1");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "driver_too_old");
}

TEST(ExplainRank, FindingsAreOrderedByScore) {
  auto r = run("Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file\n"
               "W gpu_device.cc:1850] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned "
               "above are installed properly if you would like to use GPU.\n");
  ASSERT_GE(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].id, "cudnn_missing");
  for (size_t i = 1; i < r.findings.size(); ++i) EXPECT_GE(r.findings[i - 1].score, r.findings[i].score);
}


TEST(ExplainRank, AnInstallFailureOutranksThePlatformOfTheReleaseNotInstalled) {
  EXPECT_EQ(top("Windows 11, Python 3.12.2\npip install tensorflow==2.13.0\n"
                "ERROR: No matching distribution found for tensorflow==2.13.0\n"),
            "python_version_unsupported");
}

TEST(ExplainRank, SeveralCudaPathsWithAMismatchMeanTheWrongOneIsFoundFirst) {
  EXPECT_EQ(top("TensorFlow 2.5 with CUDA 10.1, GPU not detected\n"
                "export LD_LIBRARY_PATH=/usr/local/cuda-10.1/lib64:/usr/local/cuda-11.2/lib64\n"
                "Could not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared "
                "object file\n"),
            "multiple_cuda_on_path");
}

TEST(ExplainRank, NativeRuntimeFailureDoesNotMakeALinuxReportWindows) {
  auto r = run("Ubuntu 16.04, tensorflow-gpu 1.12\n"
               "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n"
               "Failed to load the native TensorFlow runtime.\n");
  EXPECT_EQ(r.facts.os.value, "linux");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "cuda_version_mismatch");
}

// Issue 14, second round: mechanisms found on the development part of the corpus.

// The interpreter's own banner outranks the reporter calling it 64-bit.
TEST(ExplainRank, A32BitBannerIsNotRefutedByProse) {
  auto r = run(
      "My Python is 64-bit.\n"
      "ERROR: No matching distribution found for tensorflow==2.2.0\n"
      "sys.version: 3.7.3 (v3.7.3:ef4ec6ed12, Mar 25 2019, 21:26:53) [MSC v.1916 32 bit (Intel)]\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "python_32bit");
}

// Only releases before 2.1 load cudart64_100.dll, and then only the GPU package does: the
// dlerror is not the harmless one of a CPU-only machine. cudart64_110.dll alone still is.
TEST(ExplainRank, APre21RuntimeNameMeansTheGpuPackage) {
  EXPECT_EQ(top("W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
                "'cudart64_100.dll'; dlerror: cudart64_100.dll not found\n"),
            "cudart_missing");
  EXPECT_EQ(top("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
                "'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n"),
            "harmless_warning_only");
}

// On Colab a TensorFlow the user installs over the runtime's is built for another CUDA.
TEST(ExplainRank, ColabWithAUserInstalledTensorFlowIsACudaMismatch) {
  EXPECT_EQ(top("On Google Colab I run !pip install tf-nightly-gpu and then import tensorflow crashes the runtime.\n"),
            "cuda_version_mismatch");
  // A release stated with the CUDA toolkit it was built with is the runtime's own TensorFlow.
  auto own = run("On Google Colab the GPU is not detected any more.\nTensorFlow version: 2.9\nCUDA toolkit 11.2\n");
  const Finding* cvm = find(own, "cuda_version_mismatch");
  EXPECT_TRUE(cvm == nullptr || cvm->score < 0.45);
  // Another CUDA stated with it: not the runtime's build.
  EXPECT_EQ(top("On Google Colab the GPU is not detected any more.\nTensorFlow version: 2.9\nCUDA toolkit 10.0\n"),
            "cuda_version_mismatch");
}

// A gigabyte-sized refused allocation is TF's up-front reservation; a small one, a full GPU.
TEST(ExplainRank, RefusedDeviceAllocationSizeDecidesReservationOrFullGpu) {
  EXPECT_EQ(top("E tensorflow/stream_executor/cuda/cuda_driver.cc:924] failed to allocate 5.93G (6365773824 bytes) "
                "from device: CUDA_ERROR_OUT_OF_MEMORY\n"),
            "gpu_memory_preallocation");
  EXPECT_EQ(top("E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 190.31M (199557120 bytes) "
                "from device: CUDA_ERROR_OUT_OF_MEMORY\n"),
            "oom");
}

// nvidia-smi's "CUDA Version" quoted in a sentence is the driver's, not a toolkit; the
// version tf.__version__ prints on the same line is read.
TEST(ExplainRank, SmiCudaInProseIsTheDriversAndTfVersionIsRead) {
  auto r = run("tf.__version__ = '2.15.0'; nvidia-smi shows CUDA Version: 12.2\n");
  EXPECT_EQ(r.facts.tf_version.value, "2.15.0");
  EXPECT_EQ(r.facts.driver_cuda_version.value, "12.2");
  EXPECT_TRUE(r.facts.cuda_version.empty());
}

// ">>> tf.__version__" answered on the next line by the interpreter; prose is not a version.
TEST(ExplainRank, TfVersionAnsweredOnTheNextLineIsRead) {
  EXPECT_EQ(run(">>> import tensorflow as tf\n>>> tf.__version__\n'2.16.1'\n").facts.tf_version.value, "2.16.1");
  EXPECT_TRUE(run(">>> tf.__version__\nI think it is 2.4 or so\n").facts.tf_version.empty());
}

// A report about a GPU that is not used, with nothing specific: the usual causes are
// listed as guesses below the problem bar, never as "nothing to fix".
TEST(ExplainRank, NothingSpecificListsTheUsualCausesAsGuesses) {
  auto r = run("Training runs but the GPU barely reacts; tensorflow does not use the GPU.\n");
  ASSERT_GE(r.findings.size(), 2u);
  for (const auto& f : r.findings) EXPECT_NE(f.id, "harmless_warning_only");
  EXPECT_NE(find(r, "cuda_version_mismatch"), nullptr);
}

// A CUDA DLL copied into System32 shadows the toolkit's.
TEST(ExplainRank, ACudaDllInSystem32IsACopyThatShadows) {
  EXPECT_EQ(top("I copied cudnn64_8.dll into C:\\Windows\\System32 and now the model returns nothing\n"),
            "multiple_cuda_on_path");
}

// No release named, and the CUDA named is one whose runtime no TensorFlow release opens.
TEST(ExplainRank, ACudaNoReleaseLoadsIsAMismatchWithoutATfVersion) {
  auto bad = run("I installed CUDA 9.2 and cuDNN 7.1 but tensorflow-gpu does not use my GTX 1080\n");
  ASSERT_FALSE(bad.findings.empty());
  EXPECT_EQ(bad.findings.front().id, "cuda_version_mismatch");
  EXPECT_GE(bad.findings.front().score, 0.5);  // recognised, not the usual-causes guess
  // CUDA 9.0 is what tensorflow_gpu 1.5-1.12 open: no such conclusion from the version alone.
  auto r = run("I installed CUDA 9.0 and cuDNN 7.1 but tensorflow-gpu does not use my GTX 1080\n");
  for (const auto& f : r.findings)
    if (f.id == "cuda_version_mismatch")
      for (const auto& e : f.evidence) EXPECT_EQ(e.fact.find("which no TensorFlow release opens"), std::string::npos);
  // Nor for a TensorFlow built from source (for whatever CUDA it was configured with).
  auto src = run("I compiled TensorFlow from source with CUDA 9.2 and the GPU is not used\n");
  for (const auto& f : src.findings)
    for (const auto& e : f.evidence) EXPECT_EQ(e.fact.find("which no TensorFlow release opens"), std::string::npos);
}

// TF 1.x releases are in the KB: a stated 1.x release and CUDA are compared by file name.
TEST(ExplainRank, Tf1xReleaseAndCudaStatedApartIsAMismatch) {
  auto r = run("tensorflow-gpu 1.8.0, CUDA 9.2, cuDNN 7.1. TensorFlow does not find the GPU.\n");
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "cuda_version_mismatch");
  EXPECT_GE(r.findings.front().score, 0.7);
  bool names_file = false;
  for (const auto& e : r.findings.front().evidence) names_file = names_file || e.fact.find("libcudart.so.9.0") != std::string::npos;
  EXPECT_TRUE(names_file);
}

// A TensorFlow 1.x log (device names without "device:", up to 1.3) that knows no GPU and
// never mentions CUDA: the 1.x GPU build links CUDA at import, so this is the CPU package.
TEST(ExplainRank, Tf1xLogWithNoKnownDeviceAndNoCudaIsTheCpuPackage) {
  EXPECT_EQ(top("I tensorflow/core/common_runtime/direct_session.cc:45] Direct session inter op parallelism threads: 8\n"
                "Device mapping: no known devices.\n"
                "I tensorflow/core/common_runtime/simple_placer.cc:289] conv1/weights: /job:localhost/replica:0/task:0/cpu:0\n"),
            "wrong_package");
}

// The release and the cuDNN stated, of the same major: TF 1.5-1.7 load only the cuDNN 7.0.x
// they were compiled with; from 1.8 a higher 7.x minor loads, an older minor never does.
TEST(ExplainRank, ReleaseAndCudnnMinorStatedApart) {
  EXPECT_EQ(top("tensorflow-gpu 1.6.0, CUDA 9.0, cuDNN 7.1.2 on Ubuntu 16.04: the session fails on the GPU\n"),
            "cudnn_version_mismatch");
  auto higher = run("tensorflow-gpu 1.8.0, CUDA 9.0, cuDNN 7.1.2 on Ubuntu 16.04: the session fails on the GPU\n");
  for (const auto& f : higher.findings) EXPECT_NE(f.id, "cudnn_version_mismatch");
  EXPECT_EQ(top("TensorFlow 2.5.0, CUDA 11.2, cuDNN 8.0.5 on Ubuntu 20.04: the GPU is not used\n"), "cudnn_version_mismatch");
}

// A failure on macOS that is not about a GPU (NumPy, here) is not "no CUDA build for macOS".
TEST(ExplainRank, MacosWithoutAGpuInTheReportIsNotThePlatform) {
  EXPECT_EQ(top("On OS X with NumPy 1.8, import tensorflow fails:\n"
                "RuntimeError: module compiled against API version a but this version of numpy is 9\n"),
            "numpy_abi_mismatch");
}

// pip finds no TensorFlow, but the release named has a wheel for exactly this Python on
// native Windows: the interpreter is 32-bit, not a Python without wheels.
TEST(ExplainRank, NoDistributionForAPythonTheNamedReleaseHasIs32BitOnWindows) {
  EXPECT_EQ(top("Windows 10 Home; TensorFlow version 2.3; Python 3.8\n"
                "ERROR: Could not find a version that satisfies the requirement tensorflow (from versions: none)\n"
                "ERROR: No matching distribution found for tensorflow\n"),
            "python_32bit");
}

TEST(ExplainRank, ToolkitOfTheReleasesCudaAndTheGpuSkippedLeavesCudnn) {
  // TF 2.16.1 opens libcudart.so.12 (any CUDA 12 toolkit ships it) and libcudnn.so.8, which
  // no toolkit ships: with the toolkit stated, cuDNN is what is left.
  const std::string log =
      "TensorFlow 2.16.1 cannot use the GPU on Ubuntu 22.04.\n"
      "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU libraries. Please make sure "
      "the missing libraries mentioned above are installed properly if you would like to use GPU.\n"
      "Cuda compilation tools, release 12.3, V12.3.107\n";
  ExplainResult r = run(log);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "cudnn_missing");
  EXPECT_NE(find(r, "cudnn_version_mismatch"), nullptr);
  // The 2.16 regression is about the pip CUDA wheels: named, it comes first again.
  EXPECT_EQ(top(log + "pip install tensorflow[and-cuda]==2.16.1\n"), "pip_nvidia_libs_not_found");
  // A toolkit of another CUDA is a mismatch, not cuDNN.
  EXPECT_NE(top("TensorFlow 2.3.1 cannot use the GPU on Ubuntu.\nCannot dlopen some GPU libraries.\n"
                "Cuda compilation tools, release 9.2, V9.2.148\n"),
            "cudnn_missing");
  // Nor when the reporter names the CUDA as what TensorFlow needs.
  EXPECT_NE(top("TensorFlow 2.3.1 does not list the GPU; it needs CUDA 10.1 as far as I can tell.\n"
                "Cannot dlopen some GPU libraries.\n"),
            "cudnn_missing");
}

TEST(ExplainRank, NoUsualCauseIsGuessedWhenTensorflowCreatedTheGpuDevice) {
  ExplainResult r = run(
      "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1418] Created TensorFlow device "
      "(/job:localhost/replica:0/task:0/device:GPU:0 with 14793 MB memory) -> physical GPU (device: 0, name: Tesla T4, "
      "pci bus id: 0000:00:04.0, compute capability: 7.5)\n");
  for (const char* id : {"cuda_version_mismatch", "wrong_package", "cudart_missing"}) EXPECT_EQ(find(r, id), nullptr) << id;
}

TEST(ExplainRank, ADeviceListingWithoutAGpuOrAnEmptyGpuDeviceNameIsTheGpuNotListed) {
  const std::string cpu_only =
      ">>> print(device_lib.list_local_devices())\n[name: \"/device:CPU:0\"\ndevice_type: \"CPU\"\n"
      "memory_limit: 268435456\n]\n";
  EXPECT_TRUE(run(cpu_only).facts.flag("gpu_missing"));
  EXPECT_FALSE(run(cpu_only + "name: \"/device:GPU:0\"\ndevice_type: \"GPU\"\n").facts.flag("gpu_missing"));
  EXPECT_FALSE(run(">>> tf.test.gpu_device_name()\n''\n").facts.gpu_list_empty.empty());
  EXPECT_TRUE(run(">>> x = ''\n''\n").facts.gpu_list_empty.empty());  // an empty string from something else
}

TEST(ExplainRank, DllLoadFailedWithAReleaseThatImportsCudaDllsIsACudaDllNotFound) {
  // tensorflow-gpu 1.1-1.3 for Windows import cublas64_80.dll ... cudnn64_N.dll with no
  // check naming the missing one: a CUDA / cuDNN stated as installed is not on PATH.
  const std::string dll = "ImportError: DLL load failed: The specified module could not be found.\n";
  ExplainResult r = run("Windows 10, CUDA/cuDNN version: 8.0/5.1\n" + dll);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "env_path_not_set");
  const Finding* avx = find(r, "cpu_no_avx");
  EXPECT_TRUE(avx == nullptr || avx->score < 0.2);  // 1.0-1.2 do not use AVX
  // Nothing installed stated, the release named: cuDNN or the toolkit is missing.
  EXPECT_EQ(top("Windows 10, tensorflow-gpu 1.3.0\n" + dll), "cudart_missing");
  // From 1.4 self_check.py names a missing CUDA / cuDNN DLL: a bare one is something else.
  ExplainResult later = run("Windows 10, tensorflow-gpu 1.5.0\n" + dll);
  EXPECT_EQ(find(later, "env_path_not_set"), nullptr);
  EXPECT_EQ(find(later, "cudart_missing"), nullptr);
  EXPECT_EQ(top("Windows 10, tensorflow 2.10.0, CUDA 11.2\n" + dll), "msvc_runtime_missing");
}

TEST(ExplainRank, AReleaseWithoutAvxIsNotACpuWithoutAvx) {
  const std::string crash = "Illegal instruction (core dumped)\n";
  ExplainResult old = run("tensorflow 1.4.0\n" + crash);
  ExplainResult now = run("tensorflow 1.6.0\n" + crash);
  const Finding* a = find(old, "cpu_no_avx");
  const Finding* b = find(now, "cpu_no_avx");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(a == nullptr || a->score < b->score * 0.5);
}

// macOS's dyld names the CUDA file a GPU build (TF 1.0-1.1) links: a GPU build, so the
// runtime is what is missing, not macOS's GPU support; a library that is not CUDA's is none.
TEST(ExplainRank, DyldLibraryNotLoadedIsAMissingCudaRuntime) {
  const std::string dyld =
      "ImportError: dlopen(/Library/Frameworks/Python.framework/Versions/3.5/lib/python3.5/site-packages/tensorflow/"
      "python/_pywrap_tensorflow.so, 10): Library not loaded: @rpath/libcudart.8.0.dylib\n  Reason: image not found\n"
      "macOS 10.12\n";
  EXPECT_EQ(top(dyld), "cudart_missing");
  EXPECT_EQ(top("Library not loaded: @rpath/libcudnn.5.dylib\nReason: image not found\n"), "cudnn_missing");
  EXPECT_EQ(find(run("Library not loaded: /usr/local/opt/libomp/lib/libomp.dylib\n"), "cudart_missing"), nullptr);
}

// The reporter names another version of the file TF could not load: a version mismatch.
TEST(ExplainRank, AnotherVersionOfTheMissingFileIsAMismatch) {
  EXPECT_EQ(top("Library not loaded: @rpath/libcudart.8.0.dylib but I have libcudart.7.5.dylib\n"),
            "cuda_version_mismatch");
  EXPECT_EQ(top("TF wants libcudart.so.10.0 but I have libcudart.so.10.1 installed\n"), "cuda_version_mismatch");
  EXPECT_EQ(top("it is looking for cudnn64_8.dll but I only have cudnn64_7.dll\n"), "cudnn_version_mismatch");
  // The same file there: a search-path problem, not a version.
  ExplainResult same = run("TF wants libcudart.so.10.0 but I have libcudart.so.10.0 in /opt/cuda/lib64\n");
  EXPECT_NE(same.findings.empty() ? "" : same.findings.front().id, "cuda_version_mismatch");
  // The file behind the name TF opens is the same version, not another one.
  ExplainResult behind =
      run("Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
          "shared object file\nbut I have libcudnn.so.8.9.7 in /opt/cudnn/lib\n");
  const Finding* mismatch = find(behind, "cudnn_version_mismatch");
  EXPECT_TRUE(mismatch == nullptr || mismatch->score < 0.8) << mismatch->score;
  // "I have no <file>" names no installed file.
  EXPECT_NE(top("It cannot find libcudart.so.10.0 and I have no libcudart.so.10.1 either\n"), "cuda_version_mismatch");
}

// The Windows installer's toolkit folder on PATH names the CUDA installed, as a Linux
// /usr/local/cuda-X.Y path does: another one than the DLL TensorFlow asks for is a mismatch.
TEST(ExplainRank, TheWindowsToolkitFolderOnPathNamesTheInstalledCuda) {
  const std::string dll =
      "2020-09-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
      "dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n";
  EXPECT_EQ(top("tensorflow-gpu 2.3 on Windows 10. PATH has C:\\Program Files\\NVIDIA GPU Computing "
                "Toolkit\\CUDA\\v11.0\\bin\n" +
                dll),
            "cuda_version_mismatch");
  // Without the folder nothing says which CUDA is there.
  EXPECT_NE(top("tensorflow-gpu 2.3 on Windows 10.\n" + dll), "cuda_version_mismatch");
  // TensorFlow 1.x's import check naming the folder it needs states no toolkit.
  auto f =
      run("ImportError: Could not find 'cudart64_90.dll'. Download and install CUDA 9.0 from this URL: "
          "https://developer.nvidia.com/cuda-90-download-archive C:\\Program Files\\NVIDIA GPU Computing "
          "Toolkit\\CUDA\\v9.0\\bin\n");
  EXPECT_TRUE(f.facts.cuda_version.empty()) << f.facts.cuda_version.value;
}

// Windows' `where` finding the DLL on no PATH folder is the loader's view too.
TEST(ExplainRank, WhereFindingNoCudaDllIsTheMissingLibrary) {
  EXPECT_EQ(top("C:\\> where cudart64_110.dll\nINFO: Could not find files for the given pattern(s).\n"
                "tensorflow 2.10 does not see my GPU\n"),
            "cudart_missing");
  EXPECT_EQ(top("C:\\> where cudnn64_8.dll\nINFO: Could not find files for the given pattern(s).\n"
                "tensorflow 2.10 does not see my GPU\n"),
            "cudnn_missing");
  // With another CUDA stated as installed, the file's version says more.
  EXPECT_EQ(top("CUDA 12.1 installed\nC:\\> where cudart64_110.dll\n"
                "INFO: Could not find files for the given pattern(s).\ntensorflow 2.10 does not see my GPU\n"),
            "cuda_version_mismatch");
}

// TensorFlow prints "Possibly insufficient driver version" on every cuDNN start that fails
// with CUDNN_STATUS_NOT_INITIALIZED, whatever the driver: it names the driver for the KB to
// judge, it does not show it too old.
TEST(ExplainRank, PossiblyInsufficientDriverIsJudgedAgainstTheReleasesCuda) {
  const std::string handle =
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:336] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:340] Possibly insufficient driver version: ";
  // TF 2.5 is built with CUDA 11.2, which runs on 450.80.02 and later (minor-version compatibility).
  EXPECT_NE(top("tensorflow 2.5\n" + handle + "450.80.2\n"), "driver_too_old");
  // Below what CUDA 11.2 needs: too old.
  EXPECT_EQ(top("tensorflow 2.5\n" + handle + "418.87.0\n"), "driver_too_old");
  // The runtime's own "insufficient" is not refuted by a stated version.
  EXPECT_EQ(top("tensorflow 2.5\n" + handle +
                "450.80.2\nInternalError: CUDA driver version is insufficient for CUDA runtime version\n"),
            "driver_too_old");
}

// TF 2.x prints the device's memory when cuDNN cannot start: none left is the up-front
// reservation; plenty left rules memory out.
TEST(ExplainRank, TheMemoryPrintedWhenCudnnFailsSaysWhetherMemoryIsWhy) {
  const std::string handle =
      "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:535] Could not create cudnn handle: "
      "CUDNN_STATUS_INTERNAL_ERROR\nE external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:539] Memory usage: ";
  auto none = run(handle + "1245184 bytes free, 8589410304 bytes total.\n");
  ASSERT_FALSE(none.findings.empty());
  EXPECT_EQ(none.findings.front().id, "gpu_memory_preallocation");
  EXPECT_GE(none.findings.front().score, 0.8);
  const Finding* plenty =
      find(run(handle + "7245184000 bytes free, 8589410304 bytes total.\n"), "gpu_memory_preallocation");
  ASSERT_NE(plenty, nullptr);
  EXPECT_LT(plenty->score, 0.4);
  // Not a figure: nothing read.
  EXPECT_EQ(run(handle + "unknown\n").facts.flags.count("gpu_memory_free_at_cudnn_failure_mib"), 0u);
}

// Two TensorFlow distributions at different releases install one module twice over.
TEST(ExplainRank, TwoTensorflowDistributionsAtDifferentReleasesAreTheWrongPackage) {
  EXPECT_EQ(top("tensorflow        2.10.0\ntensorflow-gpu    2.10.0\ntensorflow-intel  2.11.0\n"
                "GPU is not detected on Windows\n"),
            "wrong_package");
  // The same release twice (tensorflow and tensorflow-intel on Windows from 2.11) is how pip installs it.
  const Finding* same = find(run("tensorflow        2.15.0\ntensorflow-intel  2.15.0\n"), "wrong_package");
  EXPECT_TRUE(same == nullptr || same->score < 0.7);
}

// A CUDA file the reporter says TensorFlow cannot find is what TensorFlow's own line would
// say, a little less sure; TensorFlow's line about the same file, when there, is what counts.
TEST(ExplainRank, ALibrarySaidMissingInProseIsTheMissingLibrary) {
  EXPECT_EQ(top("it can't find cudart64_100.dll\n"), "cudart_missing");
  EXPECT_EQ(top("cudnn64_8.dll not found\n"), "cudnn_missing");
  EXPECT_EQ(top("libcublas.so.9.0 is missing\n"), "cuda_version_mismatch");
  // A title quoting the file above TensorFlow's own line, on a machine that wants no GPU:
  // the line is harmless there, and the title adds nothing to it.
  auto titled =
      run("Title: cudart64_110.dll not found\n"
          "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
          "'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n");
  ASSERT_FALSE(titled.facts.failed_libraries.empty());
  EXPECT_FALSE(titled.facts.failed_libraries[0].in_prose);
  EXPECT_EQ(titled.facts.failed_libraries[0].line, 2);
  EXPECT_EQ(titled.findings.front().id, "harmless_warning_only");
}

// The interpreter's "False" to tf.test.is_built_with_cuda() on the next line: a build
// without CUDA, as when it shares the question's line.
TEST(ExplainRank, IsBuiltWithCudaAnsweredFalseOnTheNextLineIsABuildWithoutCuda) {
  EXPECT_EQ(top(">>> tf.test.is_built_with_cuda()\nFalse\nUbuntu 20.04, tensorflow 2.4\n"), "wrong_package");
  EXPECT_EQ(run(">>> tf.test.is_built_with_cuda()\nTrue\n").facts.flags.count("tf_built_without_cuda"), 0u);
  // An answer that is not the next line says nothing.
  EXPECT_EQ(run(">>> tf.test.is_built_with_cuda()\n\nFalse\n").facts.flags.count("tf_built_without_cuda"), 0u);
}

// Nothing recognised in a report that names the CUDA / cuDNN installed: it is about the
// GPU, so the usual causes are listed as guesses, below "a problem was recognised".
TEST(ExplainRank, ANamedToolkitWithNothingRecognisedGetsTheUsualGuesses) {
  auto r = run("I have installed CUDA 9.0.176 and cuDNN v7.1.2 for CUDA 9.0 but still get an error at the end\n");
  ASSERT_GE(r.findings.size(), 3u);
  for (const auto& f : r.findings) EXPECT_LT(f.score, 0.3) << f.id;
  // Not with nothing named.
  EXPECT_TRUE(run("the program prints an error at the end\n").findings.empty());
}

// lspci names the chip before the marketing name; the chip pins the capability where the
// name does not (a GT 640 was built on GK107 and on GK208).
TEST(ExplainRank, TheChipLspciNamesResolvesTheCapability) {
  const std::string lspci =
      "$ lspci | grep -i nvidia\n01:00.0 VGA compatible controller: NVIDIA Corporation GK107 [GeForce GT 640] (rev "
      "a1)\n";
  auto r = run(lspci + "tensorflow 2.4 does not list the GPU\n");
  EXPECT_EQ(r.facts.flags.at("gpu_chip").value, "GK107");
  EXPECT_EQ(r.findings.front().id, "compute_capability_unsupported");
  // A chip the KB does not know says nothing.
  EXPECT_NE(top("01:00.0 VGA compatible controller: NVIDIA Corporation XX999 [Some Card]\n"
                "tensorflow 2.4 does not list the GPU\n"),
            "compute_capability_unsupported");
}

}  // namespace
}  // namespace tfgpu::explain
