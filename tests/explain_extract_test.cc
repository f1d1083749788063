// The hand-written extractors: versions stated in prose, template fields, nvidia-smi,
// library names, CPU flags, wheels; and what they must not take for a version.
#include <gtest/gtest.h>

#include "explain/extract.h"
#include "explain/scanner.h"
#include "support/shipped_kb.h"

namespace tfgpu::explain {
namespace {

LogFacts facts_of(std::string_view text) { return scan_text(testing::shipped_signatures(), text).facts; }

TEST(ExplainExtract, TensorflowVersionFromTemplateAndProse) {
  EXPECT_EQ(facts_of("Tensorflow Version: v2.12.0-rc1-12-g0db597d0d75 2.12.0\n").tf_version.value, "2.12.0");
  EXPECT_EQ(facts_of("TensorFlow version (use command below): 2.7.0\n").tf_version.value, "2.7.0");
  EXPECT_EQ(facts_of("TensorFlow version: tf 2.8\n").tf_version.value, "2.8");
  EXPECT_EQ(facts_of("pip install tensorflow-gpu==2.10.0\n").tf_version.value, "2.10.0");
  EXPECT_EQ(facts_of("TF 2.16.1 Fails to work with GPUs\n").tf_version.value, "2.16.1");
  EXPECT_EQ(facts_of("tensorflow_gpu-1.13.1-cp35-cp35m-win_amd64.whl\n").tf_version.value, "1.13.1");
  EXPECT_EQ(facts_of("TensorFlow installed from (source or binary): source (R1.10)\n").tf_version.value, "1.10");
  // The install command of TensorFlow's own docs, with its extra.
  EXPECT_EQ(facts_of("pip install tensorflow[and-cuda]==2.15.0\n").tf_version.value, "2.15.0");
  EXPECT_EQ(facts_of("python3 -m pip install 'tensorflow[and-cuda]==2.16.1'\n").tf_version.value, "2.16.1");
  // ... whose extra is no CUDA toolkit of that version.
  for (const char* line : {"pip install tensorflow[and-cuda]==2.15.0\n", "pip install tensorflow[and-cuda] (2.17)\n",
                           "installed tensorflow[and-cuda] 2.18.0 on ubuntu\n"}) {
    auto f = facts_of(line);
    EXPECT_TRUE(f.cuda_version.empty()) << line << f.cuda_version.value;
    EXPECT_FALSE(f.tf_version.empty()) << line;
  }
  EXPECT_EQ(facts_of("pip install tensorflow[and-cuda]==2.15.0 with CUDA 12.2\n").cuda_version.value, "12.2");
}

TEST(ExplainExtract, NvccsReleaseInProseEvenBesideNvidiaSmisCuda) {
  auto f = facts_of("nvcc --version says release 11.8 but nvidia-smi shows CUDA Version: 12.4\n");
  EXPECT_EQ(f.cuda_version.value, "11.8");
  EXPECT_EQ(f.driver_cuda_version.value, "12.4");
  EXPECT_EQ(facts_of("nvcc -V: 12.1\n").cuda_version.value, "12.1");
  EXPECT_TRUE(facts_of("nvcc is not found\n").cuda_version.empty());
}

TEST(ExplainExtract, TheDriversCudaVersionInXlasWordsIsNoToolkit) {
  auto f = facts_of(
      "W external/local_xla/xla/service/gpu/nvptx_compiler.cc:765] The NVIDIA driver's CUDA version is "
      "12.2 which is older than the ptxas CUDA version (12.5.40).\n");
  EXPECT_EQ(f.driver_cuda_version.value, "12.2");
  EXPECT_TRUE(f.cuda_version.empty()) << f.cuda_version.value;
}

TEST(ExplainExtract, CudaAndCudnnGluedToTheirVersionAndInNvidiasWheelNames) {
  auto glued = facts_of("my setup: TF2.15, CUDA12.2, cuDNN8.9, Ubuntu22.04, GPU: RTX3090\n");
  EXPECT_EQ(glued.tf_version.value, "2.15");
  EXPECT_EQ(glued.cuda_version.value, "12.2");
  EXPECT_EQ(glued.cudnn_version.value, "8.9");
  // pip's wheel names: the component, the CUDA major it is built for, then its version.
  auto wheels = facts_of("nvidia-cudnn-cu12==9.3.0.75\nnvidia-cuda-runtime-cu12   12.3.101\n");
  EXPECT_EQ(wheels.cudnn_version.value, "9.3.0.75");
  EXPECT_EQ(wheels.cuda_version.value, "12.3.101");
  EXPECT_EQ(facts_of("Successfully installed nvidia-cudnn-cu11-8.6.0.163\n").cudnn_version.value, "8.6.0.163");
  // Not versions: library file names and API names after the keyword.
  for (const char* line : {"Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found\n",
                           "Could not load dynamic library 'cudart64_110.dll'\n", "cudaMalloc2.0 failed\n",
                           "Requirement already satisfied: nvidia-cudnn-cu12 in ./venv/lib/python3.10/site-packages\n",
                           "Collecting nvidia-cuda-nvrtc-cu12==12.3.107\n"}) {
    auto f = facts_of(line);
    EXPECT_TRUE(f.cuda_version.empty()) << line << f.cuda_version.value;
    EXPECT_TRUE(f.cudnn_version.empty()) << line << f.cudnn_version.value;
  }
}

TEST(ExplainExtract, VersionsOfProseWrappedBetweenKeywordAndNumber) {
  auto f = facts_of("I set everything up on Ubuntu with the newest pip and Python\n3.9.7, but nothing works.\n"
                    "The machine has CUDA\n11.2 and TensorFlow\n2.6.0 installed.\n");
  EXPECT_EQ(f.python_version.value, "3.9.7");
  EXPECT_EQ(f.python_version.line, 1);
  EXPECT_EQ(f.cuda_version.value, "11.2");
  EXPECT_EQ(f.tf_version.value, "2.6.0");
  // Only a line that ends with the keyword carries it; a number that starts an unrelated
  // line after a blank one is not a version of anything.
  auto g = facts_of("We run Python\n\n3 epochs later it crashed\n");
  EXPECT_TRUE(g.python_version.empty());
  auto h = facts_of("it prints the driver\n470 times\n");
  EXPECT_TRUE(h.driver_version.empty());
}

TEST(ExplainExtract, CudnnFromNvidiasArchiveNameAndABareMajor) {
  // NVIDIA's archive names: CUDA's version first, cuDNN's own after "-v".
  auto f = facts_of("unzipped cudnn-10.0-windows10-x64-v7.6.5.32.zip into the CUDA folder\n");
  EXPECT_EQ(f.cudnn_version.value, "7.6.5.32");
  EXPECT_EQ(facts_of("I have cuDNN 6 installed.\n").cudnn_version.value, "6");
  EXPECT_EQ(facts_of("cudnn v7 is on the PATH\n").cudnn_version.value, "7");
  EXPECT_EQ(facts_of("cuDNN 8.1 and cuDNN 7\n").cudnn_version.value, "8.1");  // a dotted version first
  EXPECT_TRUE(facts_of("cudnn 64bit build\n").cudnn_version.empty());
}

TEST(ExplainExtract, ProseFailureIsSaidOfTheFileInItsClause) {
  // One sentence names what is installed and what is missing: only the missing one failed.
  auto f = facts_of("I installed cuDNN 7.6.5, whose library is cudnn64_7.dll, but the program cannot find "
                    "cudnn64_8.dll.\n");
  ASSERT_EQ(f.failed_libraries.size(), 1u);
  EXPECT_EQ(f.failed_libraries[0].name, "cudnn64_8.dll");
  // A list of missing files in one clause: every one of them.
  auto g = facts_of("it can't find cudart64_100.dll, cublas64_100.dll and cudnn64_7.dll\n");
  EXPECT_EQ(g.failed_libraries.size(), 3u);
  // The failure in another sentence than the file: the file is still the one meant.
  auto h = facts_of("TensorFlow wants libcudart.so.10.0. It is missing.\n");
  ASSERT_EQ(h.failed_libraries.size(), 1u);
  EXPECT_EQ(h.failed_libraries[0].name, "libcudart.so.10.0");
  // ld.so's own words, cut before "cannot open shared object file" (an issue title).
  auto i = facts_of("Title: error while loading shared libraries: libcusolver.so.9.2\n");
  ASSERT_EQ(i.failed_libraries.size(), 1u);
  EXPECT_EQ(i.failed_libraries[0].name, "libcusolver.so.9.2");
  // Said to be on disk: present, not failed.
  auto j = facts_of("although libcudart.so.7.5 can be found in /usr/local/cuda-7.5/lib64\n");
  EXPECT_TRUE(j.failed_libraries.empty());
  ASSERT_EQ(j.present_libraries.size(), 1u);
  EXPECT_EQ(j.present_libraries[0].name, "libcudart.so.7.5");
  // Put there by the reporter: on disk too; not when they say they did not.
  auto k = facts_of("I copied cudnn64_8.dll into C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin\n");
  ASSERT_EQ(k.present_libraries.size(), 1u);
  EXPECT_EQ(k.present_libraries[0].name, "cudnn64_8.dll");
  EXPECT_TRUE(facts_of("I did not copy cudnn64_8.dll anywhere, and never put cudart64_110.dll in bin\n")
                  .present_libraries.empty());
}

TEST(ExplainExtract, AllOfTheGpuMemoryInTheReportersWords) {
  EXPECT_TRUE(facts_of("All the GPU memory is occupied at the beginning of training.\n").flag("all_gpu_memory_prose"));
  EXPECT_TRUE(facts_of("tensorflow grabs the whole vram of both cards\n").flag("all_gpu_memory_prose"));
  // The three parts in different sentences, or TF's own allocator lines, are not it.
  EXPECT_FALSE(facts_of("The GPU has 8 GB of memory. All tests pass. It takes long.\n").flag("all_gpu_memory_prose"));
  EXPECT_FALSE(facts_of("W tensorflow/core/common_runtime/bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of "
                        "memory trying to allocate 2.26GiB with freed_by_count=0. The caller indicates that this is "
                        "not a failure, but may mean that there could be performance gains if more memory were "
                        "available.\n")
                   .flag("all_gpu_memory_prose"));
  EXPECT_FALSE(facts_of("failed to allocate all memory: CUDA_ERROR_OUT_OF_MEMORY\n").flag("all_gpu_memory_prose"));
}

TEST(ExplainExtract, TheGpuUnseenInTheReportersWords) {
  for (const char* said : {"code does not see gpu\n", "Keras never uses my NVIDIA GPU at all.\n",
                           "TensorFlow fails to recognise the graphics card\n", "the model won't run on the GPU\n",
                           "The GPU is not being detected by tensorflow 2.4\n", "my gpu wasn't found\n",
                           "Why doesn't TensorFlow seem to use the GPU?\n", "no GPU was detected\n",
                           "training still only occupies the CPU\n", "it uses only the CPU\n", "only the CPU is used\n",
                           "GPU devices are not detected on Colab\n", "Title: GPU not utilizing\n",
                           "TensorFlow does not find my RTX 3070.\n", "My RTX 3060 is not detected by tensorflow\n",
                           "the Tesla V100 is not used by keras\n"})
    EXPECT_TRUE(facts_of(said).flag("gpu_unseen_prose")) << said;
  // Keeping TensorFlow off the GPU, a condition, the GPU's memory or driver, or a GPU that is used: not it.
  for (const char* said :
       {"How to make tensorflow not use the GPU?\n", "I don't want to use the GPU for this.\n",
        "If TensorFlow does not find a GPU it falls back to the CPU.\n", "It does not use all the GPU memory.\n",
        "Tensorflow uses the GPU fine.\n", "I did not install the GPU driver myself.\n", "The CPU usage is 100%\n",
        "I only have a CPU\n", "It runs on the CPU only for preprocessing, then on the GPU\n",
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1700] not using gpu 1\n",
        "The GPU device memory is not freed\n", "I have an RTX 3090 and training works fine\n",
        "Tesla is not a GPU word here, it doesn't matter\n"})
    EXPECT_FALSE(facts_of(said).flag("gpu_unseen_prose")) << said;
}

TEST(ExplainExtract, TwoTensorflowDistributionsSaidToBeInstalledTogether) {
  EXPECT_TRUE(facts_of("They had the package `tensorflow` installed in addition to `tensorflow-gpu`; pip show says so.\n")
                  .flag("plain_tf_installed"));
  EXPECT_TRUE(facts_of("both tensorflow-gpu 1.15 and tensorflow are in the venv\n").flag("plain_tf_installed"));
  // Undoing it, naming only tensorflow-gpu's own files, or no word for having both: not it.
  EXPECT_FALSE(facts_of("I uninstalled both tensorflow and tensorflow-gpu.\n").flag("plain_tf_installed"));
  EXPECT_FALSE(facts_of("both tensorflow-gpu and tensorflow-estimator are installed\n").flag("plain_tf_installed"));
  EXPECT_FALSE(facts_of("I installed tensorflow-gpu. Then tensorflow printed an error.\n").flag("plain_tf_installed"));
}

TEST(ExplainExtract, TensorflowJsNodeBindingAndItsVersion) {
  auto a = facts_of("npm i @tensorflow/tfjs-node-gpu@2.0.1\n");
  EXPECT_TRUE(a.flag("tfjs_node"));
  EXPECT_EQ(a.tfjs_node_version.value, "2.0.1");
  EXPECT_EQ(facts_of("\"@tensorflow/tfjs-node\": \"^3.8.0\",\n").tfjs_node_version.value, "3.8.0");
  EXPECT_EQ(facts_of("tfjs-node-gpu version 1.5.1\n").tfjs_node_version.value, "1.5.1");
  auto b = facts_of("TensorFlow.js version: 2.0.1\nI use tfjs-node-gpu on Ubuntu.\n");
  EXPECT_EQ(b.tfjs_node_version.value, "2.0.1");
  EXPECT_TRUE(b.flag("tfjs_node"));
  // The browser package alone: a version, but no Node binding (it never uses CUDA).
  EXPECT_FALSE(facts_of("TensorFlow.js version: 2.0.1 in Chrome\n").flag("tfjs_node"));
  // The TensorFlow (Python) version is not read out of the binding's name.
  EXPECT_TRUE(facts_of("tfjs-node-gpu 2.0.1\n").tf_version.empty());
}

TEST(ExplainExtract, TheVersionTensorflowSaysItNeedsIsNotInstalled) {
  auto f = facts_of("ImportError: Could not find 'cudart64_80.dll'. TensorFlow requires that this DLL be installed in a "
                    "directory that is named in your %PATH% environment variable. Download and install CUDA 8.0 from "
                    "this URL: https://developer.nvidia.com/cuda-toolkit\nThe DLL in my CUDA bin folder is "
                    "cudart64_91.dll (CUDA 9.1).\n");
  EXPECT_EQ(f.cuda_version.value, "9.1");
  EXPECT_TRUE(facts_of("You may install the necessary DLL by downloading cuDNN 6 from this URL: "
                       "https://developer.nvidia.com/cudnn\n")
                  .cudnn_version.empty());
}

TEST(ExplainExtract, LabelledTensorflowVersionWinsOverProse) {
  auto f = facts_of("It worked with TF 2.15.1 before.\nTensorFlow version: 2.16.1\n");
  EXPECT_EQ(f.tf_version.value, "2.16.1");
  EXPECT_EQ(f.tf_version.line, 2);
  EXPECT_TRUE(f.tf_version_labelled);
}

TEST(ExplainExtract, NumbersThatAreNotTensorflowVersions) {
  EXPECT_TRUE(facts_of("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1283] something 3.0\n").tf_version.empty());
  EXPECT_TRUE(facts_of("works with tensorflow<2.7.0\n").tf_version.empty());
  EXPECT_TRUE(facts_of("TF-TRT Warning: Could not find TensorRT 8.6\n").tf_version.empty());
  EXPECT_TRUE(facts_of("This TensorFlow binary is optimized, CUDA 9.0\n").tf_version.empty());
  EXPECT_TRUE(facts_of("see https://www.tensorflow.org/install/pip 2.1.0\n").tf_version.empty());
}

TEST(ExplainExtract, PythonVersionAndBits) {
  EXPECT_EQ(facts_of("Python version: 3.10.10\n").python_version.value, "3.10.10");
  EXPECT_EQ(facts_of("conda create -n tmp python=3.8\n").python_version.value, "3.8");
  EXPECT_EQ(facts_of("/usr/lib/python3.11/site-packages/tensorflow\n").python_version.value, "3.11");
  EXPECT_TRUE(facts_of("python3 -m pip install tensorflow\n").python_version.empty());
  auto f = facts_of("Python 3.7.4 (tags/v3.7.4:e09359112e, Jul  8 2019) [MSC v.1916 32 bit (Intel)] on win32\n");
  EXPECT_EQ(f.python_version.value, "3.7.4");
  EXPECT_EQ(f.python_bits.value, "32");
}

TEST(ExplainExtract, CudaAndCudnnFromTheIssueTemplate) {
  auto f = facts_of("CUDA/cuDNN version: 11.2/8.1\n");
  EXPECT_EQ(f.cuda_version.value, "11.2");
  EXPECT_EQ(f.cudnn_version.value, "8.1");
  auto g = facts_of("CUDA/cuDNN version: cuda_11.8.0_522.06_windows / cudnn-windows-x86_64-8.6.0.163_cuda11\n");
  EXPECT_EQ(g.cuda_version.value, "11.8.0");
  EXPECT_EQ(g.cudnn_version.value, "8.6.0.163");
  auto h = facts_of("conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0\n");
  EXPECT_EQ(h.cuda_version.value, "11.2");
  EXPECT_EQ(h.cuda_kind.value, "conda");
  EXPECT_EQ(h.cudnn_version.value, "8.1.0");
}

TEST(ExplainExtract, ComputeCapabilityIsNotACudaVersion) {
  auto f = facts_of("Ignoring visible gpu device (compute capability: 3.0) with Cuda compute capability 3.0.\n");
  EXPECT_TRUE(f.cuda_version.empty());
  EXPECT_EQ(f.compute_capability.value, "3.0");
  EXPECT_EQ(f.cc_ignored.value, "3.0");
}

TEST(ExplainExtract, NvidiaSmiHeaderGivesDriverAndItsCudaNotAToolkit) {
  auto f = facts_of("| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n");
  EXPECT_EQ(f.driver_version.value, "535.104.05");
  EXPECT_EQ(f.driver_cuda_version.value, "12.2");
  EXPECT_TRUE(f.cuda_version.empty());
}

TEST(ExplainExtract, DriverFromProseList) {
  EXPECT_EQ(facts_of("NVIDIA 410.104\n").driver_version.value, "410.104");
  EXPECT_EQ(facts_of("driver: 522.06\n").driver_version.value, "522.06");
  EXPECT_TRUE(facts_of("CUDA Driver Version / Runtime Version 11.4 / 11.2\n").driver_version.empty());
}

TEST(ExplainExtract, LibrariesThatFailedAndLoaded) {
  auto f = facts_of(
      "W dso_loader.cc:60] Could not load dynamic library 'libcusolver.so.10'; dlerror: libcusolver.so.10: cannot "
      "open shared object file\n"
      "I dso_loader.cc:49] Successfully opened dynamic library libcudart.so.11.0\n"
      "W dso_loader.cc:64] Could not load dynamic library 'cublasLt64_11.dll'; dlerror: cublasLt64_11.dll not found\n"
      "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n");
  ASSERT_EQ(f.failed_libraries.size(), 3u);
  EXPECT_EQ(f.failed_libraries[0].name, "libcusolver.so.10");
  EXPECT_EQ(f.failed_libraries[0].component, "cusolver");
  EXPECT_EQ(f.failed_libraries[1].component, "cublaslt");
  EXPECT_EQ(f.failed_libraries[2].name, "libcublas.so.9.0");
  ASSERT_EQ(f.loaded_libraries.size(), 1u);
  EXPECT_EQ(f.loaded_libraries[0].component, "cudart");
}

TEST(ExplainExtract, LibraryComponents) {
  EXPECT_EQ(library_component("libcudart.so.11.0"), "cudart");
  EXPECT_EQ(library_component("cudart64_110.dll"), "cudart");
  EXPECT_EQ(library_component("libcuda.so.1"), "cuda_driver");
  EXPECT_EQ(library_component("nvcuda.dll"), "cuda_driver");
  EXPECT_EQ(library_component("cudnn_cnn_infer64_8.dll"), "cudnn");
  EXPECT_EQ(library_component("libnvinfer.so.7"), "nvinfer");
}

TEST(ExplainExtract, CpuinfoFlagsDecideAvx) {
  auto no = facts_of("model name\t: Intel(R) Core(TM) i7 CPU 920 @ 2.67GHz\nflags\t\t: fpu vme sse sse2 ssse3 sse4_1 popcnt\n");
  EXPECT_EQ(no.cpu_avx, Tri::kNo);
  EXPECT_EQ(no.cpu_model.value, "Intel(R) Core(TM) i7 CPU 920 @ 2.67GHz");
  auto yes = facts_of("flags\t\t: fpu sse sse2 avx avx2 fma\n");
  EXPECT_EQ(yes.cpu_avx, Tri::kYes);
  EXPECT_EQ(facts_of("the flags are fine\n").cpu_avx, Tri::kUnknown);
}

TEST(ExplainExtract, WheelTags) {
  auto f = facts_of("ERROR: tensorflow_gpu-1.13.1-cp35-cp35m-win_amd64.whl is not a supported wheel on this platform.\n");
  ASSERT_EQ(f.wheels.size(), 1u);
  EXPECT_EQ(f.wheels[0].python, "cp35");
  EXPECT_EQ(f.wheels[0].platform, "win_amd64");
}

TEST(ExplainExtract, GpuNamesAndVisibleDevicesAndCudaPaths) {
  auto f = facts_of(
      "name: Quadro K2000M major: 3 minor: 0 memoryClockRate(GHz): 0.745\n"
      "GPU: 4 x Tesla P100-SXM2-16GB\n"
      "export CUDA_VISIBLE_DEVICES=-1\n"
      "LD_LIBRARY_PATH=/usr/local/cuda-10.0/lib64:/usr/local/cuda-11.2/lib64\n"
      ">>> []\n");
  ASSERT_GE(f.gpu_names.size(), 2u);
  EXPECT_EQ(f.gpu_names[0].value, "Quadro K2000M");
  EXPECT_EQ(f.gpu_names[1].value, "Tesla P100-SXM2-16GB");
  EXPECT_EQ(f.compute_capability.value, "3.0");
  EXPECT_EQ(f.cuda_visible_devices.value, "-1");
  EXPECT_EQ(f.cuda_path_versions.size(), 2u);
  EXPECT_EQ(f.gpu_list_empty.line, 5);
}

TEST(ExplainExtract, ACudaInProseBesideADriverVersionIsAToolkit) {
  auto prose = facts_of("The AWS instance has CUDA 11.0 and driver version 450.80.\n");
  EXPECT_EQ(prose.cuda_version.value, "11.0");
  EXPECT_EQ(prose.driver_version.value, "450.80");
  // nvidia-smi's banner: its CUDA Version is the driver's.
  auto smi = facts_of("| NVIDIA-SMI 450.80.02    Driver Version: 450.80.02    CUDA Version: 11.0     |\n");
  EXPECT_TRUE(smi.cuda_version.empty()) << smi.cuda_version.value;
  EXPECT_EQ(smi.driver_cuda_version.value, "11.0");
}

TEST(ExplainExtract, WarningsHiddenByTheLogLevel) {
  for (const char* set : {"os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'", "export TF_CPP_MIN_LOG_LEVEL=3",
                          "os.environ[\"TF_CPP_MIN_LOG_LEVEL\"]=\"3\"", "%env TF_CPP_MIN_LOG_LEVEL=2",
                          "os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')", "TF_CPP_MIN_LOG_LEVEL: 2"}) {
    const Fact* f = facts_of(std::string(set) + "\n").flag_fact("tf_logs_hidden");
    ASSERT_NE(f, nullptr) << set;
    EXPECT_EQ(f->line, 1);
  }
  for (const char* not_set : {"os.environ['TF_CPP_MIN_LOG_LEVEL'] = '0'", "export TF_CPP_MIN_LOG_LEVEL=1",
                              "# os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'", "// TF_CPP_MIN_LOG_LEVEL=3",
                              "set TF_CPP_MIN_LOG_LEVEL to hide them", "TF_CPP_MIN_LOG_LEVEL=23",
                              "Nothing to fix. To hide these messages set TF_CPP_MIN_LOG_LEVEL"})
    EXPECT_FALSE(facts_of(std::string(not_set) + "\n").flag("tf_logs_hidden")) << not_set;
}

TEST(ExplainExtract, CudaVisibleDevicesInShellAndPython) {
  struct Case {
    const char* line;
    const char* value;
  };
  for (const Case& c :
       {Case{"export CUDA_VISIBLE_DEVICES=-1", "-1"}, Case{"CUDA_VISIBLE_DEVICES=0,1 python train.py", "0"},
        Case{"os.environ['CUDA_VISIBLE_DEVICES'] = '-1'", "-1"},
        Case{"os.environ[\"CUDA_VISIBLE_DEVICES\"]=\"4\"", "4"},
        Case{"os.environ.setdefault('CUDA_VISIBLE_DEVICES', '')", ""},
        Case{"export CUDA_VISIBLE_DEVICES=\"0,1\"", "0,1"}, Case{"CUDA_VISIBLE_DEVICES: NoDevFiles", "NoDevFiles"}}) {
    auto f = facts_of(std::string(c.line) + "\n");
    ASSERT_TRUE(f.cuda_visible_devices_set) << c.line;
    EXPECT_EQ(f.cuda_visible_devices.value, c.value) << c.line;
  }
  // Not a literal value, or a line commented out.
  for (const char* other : {"os.environ['CUDA_VISIBLE_DEVICES'] = str(args.gpu)", "export CUDA_VISIBLE_DEVICES=$GPU",
                            "# os.environ['CUDA_VISIBLE_DEVICES'] = '-1'", "echo $CUDA_VISIBLE_DEVICES"})
    EXPECT_FALSE(facts_of(std::string(other) + "\n").cuda_visible_devices_set) << other;
}

TEST(ExplainExtract, WorksInANotebookButNotAsAScript) {
  for (const char* said : {"It runs fine in a Jupyter notebook but throws this error when run as a .py file:",
                           "Title: Model is Running in Jupyter Notebook but not in Python Script",
                           "The training works in the notebook, however from the terminal it fails with OOM."})
    EXPECT_TRUE(facts_of(std::string(said) + "\n").flag("works_in_notebook_not_script")) << said;
  // The other way round, or nothing that fails, or no notebook.
  for (const char* said :
       {"It works from the terminal but not in the Jupyter notebook.", "The notebook fails but the script works.",
        "I ran it in a notebook and as a script.", "It works in PyCharm but not as a script.",
        "It works in a notebook but I want to run it as a script."})
    EXPECT_FALSE(facts_of(std::string(said) + "\n").flag("works_in_notebook_not_script")) << said;
}

TEST(ExplainExtract, TensorflowsFiguresForTheGpusMemory) {
  // 1.x: the driver's total and free memory, as HumanReadableNumBytes prints them.
  auto old = facts_of("totalMemory: 15.89GiB freeMemory: 977.81MiB\n");
  ASSERT_NE(old.flag_fact("gpu_memory_total_mib"), nullptr);
  EXPECT_EQ(old.flag_fact("gpu_memory_total_mib")->value, "16271");
  EXPECT_EQ(old.flag_fact("gpu_memory_free_mib")->value, "978");
  // 2.x: the total, and what the allocator was given (1.x's "Creating" wording too).
  auto now = facts_of(
      "coreClock: 1.71GHz coreCount: 46 deviceMemorySize: 8.00GiB deviceMemoryBandwidth: 417.29GiB/s\n"
      "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1418] Created device "
      "/job:localhost/replica:0/task:0/device:GPU:0 with 6955 MB memory) -> physical GPU (device: 0, name: GeForce RTX "
      "2070, pci bus id: 0000:01:00.0, compute capability: 7.5)\n");
  EXPECT_EQ(now.flag_fact("gpu_memory_total_mib")->value, "8192");
  EXPECT_EQ(now.flag_fact("gpu_memory_tf_limit_mib")->value, "6955");
  EXPECT_EQ(now.flag_fact("gpu_memory_tf_limit_mib")->line, 2);
  auto v1 = facts_of(
      "Creating TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 10764 MB memory) "
      "-> physical GPU (device: 0, name: GeForce GTX 1080 Ti)\n");
  EXPECT_EQ(v1.flag_fact("gpu_memory_tf_limit_mib")->value, "10764");
  // Not TensorFlow's figures: no unit, a CPU device, prose.
  for (const char* other : {"totalMemory: lots freeMemory: some", "Created device /device:CPU:0 with 512 MB memory",
                            "my card has 8 GB memory", "freeMemory: 1.2.3GiB"}) {
    auto f = facts_of(std::string(other) + "\n");
    EXPECT_EQ(f.flag_fact("gpu_memory_free_mib"), nullptr) << other;
    EXPECT_EQ(f.flag_fact("gpu_memory_tf_limit_mib"), nullptr) << other;
  }
}

TEST(ExplainExtract, AGpuListingCallAndItsAnswerInOneSentence) {
  for (const char* said :
       {"tf.config.list_physical_devices('GPU') is []", "list_physical_devices('GPU') shows an empty list",
        "print(tf.config.list_physical_devices('GPU')) prints []", "tf.test.is_gpu_available() gives False",
        "device_lib.list_local_devices() returns an empty list", "tf.config.list_physical_devices('GPU') shows nothing",
        "print(len(tf.config.list_physical_devices('GPU'))) -> 0", "but tf says: the GPU list is empty",
        "the list of GPUs is empty.", "On Windows 11 I still get [] from list_physical_devices"})
    EXPECT_FALSE(facts_of(std::string(said) + "\n").gpu_list_empty.empty()) << said;
  for (const char* said :
       {"tf.config.list_physical_devices('GPU') returns [PhysicalDevice(name='/physical_device:GPU:0', "
        "device_type='GPU')]",
        "tf.test.is_gpu_available() returns True", "I call tf.config.list_physical_devices('GPU')",
        "tf.test.is_gpu_available() returns True but GPU utilization is 0",
        "list_physical_devices('GPU') lists 1 device, TF 2.10.0", "the GPU list is not empty",
        "print(tf.config.list_physical_devices('GPU'))  # on TF 2.10"})
    EXPECT_TRUE(facts_of(std::string(said) + "\n").gpu_list_empty.empty()) << said;
}

TEST(ExplainExtract, VersionAfterStopsAtPathsAndComparisons) {
  EXPECT_EQ(version_after("cuda 11.2", 4, VersionOf::kCuda), "11.2");
  EXPECT_EQ(version_after("cuda/cudnn 11.2", 4, VersionOf::kCuda), std::nullopt);
  EXPECT_EQ(version_after("tensorflow>=2.12", 10, VersionOf::kTensorflow), std::nullopt);
  EXPECT_EQ(version_after("tensorflow device 2.12", 10, VersionOf::kTensorflow), std::nullopt);
  bool labelled = false;
  EXPECT_EQ(version_after("python version: 3.9.1", 6, VersionOf::kPython, &labelled), "3.9.1");
  EXPECT_TRUE(labelled);
}

TEST(ExplainExtract, ReleasesInTheReportersShorthand) {
  EXPECT_EQ(facts_of("I use tf2.5 on Ubuntu\n").tf_version.value, "2.5");
  EXPECT_EQ(facts_of("Works in TF1.15, not in TF2.3\n").tf_version.value, "1.15");
  EXPECT_TRUE(facts_of("tf2_model.py and pytf2.py\n").tf_version.empty());
  EXPECT_EQ(facts_of("I have CUDA 11.x\n").cuda_version.value, "11");
  EXPECT_EQ(facts_of("the CUDA version in the image is 9.2\n").cuda_version.value, "9.2");
  EXPECT_EQ(facts_of("CUDA version on the cluster: 10.1\n").cuda_version.value, "10.1");
  // "on my machine" is not macOS.
  EXPECT_NE(facts_of("it runs fine on my machine\n").os.value, "macos");
}

TEST(ExplainExtract, ADockerContainersDefaultHostNameInAPrompt) {
  EXPECT_EQ(facts_of("stefan@d3f3c94e1afa:/home$ ipython\n").container.value, "docker");
  EXPECT_EQ(facts_of("root@7f8c2d2b1c11:/workspace# python train.py\n").container.value, "docker");
  // An e-mail address, a host name that is not 12 hex digits, or a hash without a prompt: not it.
  EXPECT_TRUE(facts_of("mail me at someone@deadbeef1234.com\n").container.empty());
  EXPECT_TRUE(facts_of("user@workstation:~$ python train.py\n").container.empty());
  EXPECT_TRUE(facts_of("commit d3f3c94e1afa fixed it\n").container.empty());
}

// conda's __cuda virtual package is the driver's newest CUDA, as nvidia-smi's "CUDA Version"
// (https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-virtual.html).
TEST(ExplainExtract, CondaVirtualCudaPackageIsTheDriversNotAToolkit) {
  auto f = facts_of("       virtual packages : __cuda=11.1=0\n                          __win=0=0\n");
  EXPECT_TRUE(f.cuda_version.empty());
  EXPECT_EQ(f.driver_cuda_version.value, "11.1");
}

// The outputs reporters paste from the usual checks, as those tools print them.
TEST(ExplainExtract, TheUsualChecksOutputsNameTheVersions) {
  // cuDNN's header grepped for its version: the major, and the minor on the next line.
  auto header = facts_of(
      "$ cat /usr/local/cuda/include/cudnn_version.h | grep CUDNN_MAJOR -A 2\n"
      "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n");
  EXPECT_EQ(header.cudnn_version.value, "8.6");
  EXPECT_EQ(facts_of("#define CUDNN_MAJOR 7\n").cudnn_version.value, "7");
  // A minor not right after its major says nothing more.
  EXPECT_EQ(facts_of("#define CUDNN_MAJOR 8\n\n#define CUDNN_MINOR 6\n").cudnn_version.value, "8");
  // Debian's cuDNN packages: dpkg -l, apt's pinned install, the .deb file.
  auto dpkg = facts_of("ii  libcudnn8   8.6.0.163-1+cuda11.8   amd64   cuDNN runtime libraries\n");
  EXPECT_EQ(dpkg.cudnn_version.value, "8.6.0.163");
  EXPECT_EQ(dpkg.cuda_version.value, "11.8");
  EXPECT_EQ(facts_of("sudo dpkg -i libcudnn7_7.0.5.15-1+cuda9.0_amd64.deb\n").cudnn_version.value, "7.0.5.15");
  EXPECT_EQ(facts_of("apt install libcudnn8=8.1.0.77-1+cuda11.2\n").cudnn_version.value, "8.1.0.77");
  // A package's own version must be of its major.
  EXPECT_NE(facts_of("ii  libcudnn8   7.6.5.32-1+cuda10.2   amd64\n").cudnn_version.value, "7.6.5.32");
  // TensorFlow's version printed by a one-line script, alone or with the GPU list.
  auto one_liner = facts_of(
      "$ python -c \"import tensorflow as tf; print(tf.__version__); print(tf.config.list_physical_devices('GPU'))\"\n"
      "2.15.0\n[]\n");
  EXPECT_EQ(one_liner.tf_version.value, "2.15.0");
  EXPECT_FALSE(one_liner.gpu_list_empty.empty());
  auto together = facts_of(">>> print(tf.__version__, tf.config.list_physical_devices('GPU'))\n2.16.1 []\n");
  EXPECT_EQ(together.tf_version.value, "2.16.1");
  EXPECT_EQ(together.gpu_list_empty.line, 2);
  // A script that prints it but whose next line is code names nothing.
  EXPECT_TRUE(facts_of("print(tf.__version__)\nmodel = build()\n").tf_version.empty());
}

// `pip show tensorflow` and Windows' `where <dll>` answer on the line after the question.
TEST(ExplainExtract, PipShowAndWhereAnswerOnTheNextLine) {
  auto show = facts_of("$ pip show tensorflow-gpu\nName: tensorflow-gpu\nVersion: 1.15.4\nSummary: TensorFlow\n");
  EXPECT_EQ(show.tf_version.value, "1.15.4");
  EXPECT_EQ(show.tf_version.line, 3);
  // Another package's version is not TensorFlow's.
  EXPECT_TRUE(facts_of("Name: numpy\nVersion: 1.26.4\n").tf_version.empty());
  EXPECT_TRUE(facts_of("Name: tensorflow-estimator\nVersion: 2.10.0\n").tf_version.empty());

  auto missing = facts_of(
      "C:\\Users\\me> where cudart64_110.dll\n"
      "INFO: Could not find files for the given pattern(s).\n");
  ASSERT_EQ(missing.failed_libraries.size(), 1u);
  EXPECT_EQ(missing.failed_libraries[0].name, "cudart64_110.dll");
  EXPECT_EQ(missing.failed_libraries[0].line, 2);
  auto found = facts_of("where cudnn64_8.dll\nC:\\tools\\cuda\\bin\\cudnn64_8.dll\n");
  EXPECT_TRUE(found.failed_libraries.empty());
  ASSERT_EQ(found.present_libraries.size(), 1u);
  EXPECT_EQ(found.present_libraries[0].name, "cudnn64_8.dll");
  // Prose with "where" names no question.
  EXPECT_TRUE(facts_of("I don't know where cudart64_110.dll is\nINFO: Could not find files for the given pattern(s).\n")
                  .failed_libraries.empty());
}

// Rows of pip list / conda list / pip freeze name each TensorFlow distribution installed.
TEST(ExplainExtract, PackageListRowsNameTheTensorflowDistributions) {
  auto f = facts_of(
      "Package            Version\n------------------ -------\n"
      "tensorflow         2.10.0\ntensorflow-intel   2.11.0\ntensorflow-estimator 2.10.0\n");
  ASSERT_TRUE(f.flags.count("tf_dist:tensorflow"));
  EXPECT_EQ(f.flags.at("tf_dist:tensorflow").value, "2.10.0");
  EXPECT_EQ(f.flags.at("tf_dist:tensorflow-intel").value, "2.11.0");
  EXPECT_FALSE(f.flags.count("tf_dist:tensorflow-estimator"));
  EXPECT_TRUE(f.flag("plain_tf_installed"));
  auto conda = facts_of(
      "tensorflow-gpu            1.5.0                         0\n"
      "tensorflow                1.14.0          mkl_py36h2526735_0\n");
  EXPECT_EQ(conda.flags.at("tf_dist:tensorflow-gpu").value, "1.5.0");
  EXPECT_EQ(conda.flags.at("tf_dist:tensorflow").value, "1.14.0");
  EXPECT_EQ(facts_of("tensorflow-gpu==2.4.0\n").flags.at("tf_dist:tensorflow-gpu").value, "2.4.0");
  // Sentences are no rows.
  EXPECT_FALSE(facts_of("TensorFlow 2.3.1 (the prebuilt C library) crashes\n").flag("plain_tf_installed"));
  EXPECT_FALSE(facts_of("tensorflow 2.3.1 crashes on start\n").flag("plain_tf_installed"));
}

// A terminal that works and a notebook or IDE that does not, in either order.
TEST(ExplainExtract, WorksFromTheShellNotInTheNotebookOrIde) {
  EXPECT_TRUE(facts_of("tensorflow sees the GPU when I run python in the terminal, but in Jupyter notebook "
                       "tf.config.list_physical_devices('GPU') returns []\n")
                  .flag("ide_and_terminal"));
  EXPECT_TRUE(
      facts_of("In VS Code the GPU is not found but from the Anaconda Prompt it works\n").flag("ide_and_terminal"));
  // The notebook working and the script failing is the notebook holding the memory instead.
  auto nb = facts_of("It works in the Jupyter notebook but the same code fails as a script\n");
  EXPECT_FALSE(nb.flag("ide_and_terminal"));
  EXPECT_TRUE(nb.flag("works_in_notebook_not_script"));
  // Both failing says nothing.
  EXPECT_FALSE(facts_of("It fails in the terminal and in Jupyter, but the GPU is listed\n").flag("ide_and_terminal"));
}

// One CUDA named beside nvidia-smi is what nvidia-smi shows: the driver's newest, not a toolkit.
TEST(ExplainExtract, ACudaNamedBesideNvidiaSmiIsTheDrivers) {
  auto f = facts_of("I have CUDA 12.2 installed (checked with nvidia-smi).\n");
  EXPECT_TRUE(f.cuda_version.empty()) << f.cuda_version.value;
  EXPECT_EQ(f.driver_cuda_version.value, "12.2");
  // With the compiler named, or two versions, the sentence is about a toolkit too.
  EXPECT_EQ(facts_of("nvcc says CUDA 11.8 while nvidia-smi is fine\n").cuda_version.value, "11.8");
  EXPECT_FALSE(facts_of("I installed CUDA 11.2 but nvidia-smi shows CUDA 12.0\n").cuda_version.empty());
}

// "upgraded tensorflow from 2.3 to 2.5": the release installed now is the one after "to".
TEST(ExplainExtract, AnUpgradeFromOneReleaseToAnotherNamesTheNewOne) {
  EXPECT_EQ(facts_of("I upgraded tensorflow from 2.3 to 2.5 and now the GPU is not detected\n").tf_version.value,
            "2.5");
  EXPECT_EQ(facts_of("updated tensorflow-gpu from v2.3.0 to v2.5.0\n").tf_version.value, "2.5.0");
  // Another product's upgrade is not TensorFlow's release.
  EXPECT_TRUE(facts_of("I upgraded python from 3.7 to 3.8, now tensorflow fails\n").tf_version.empty());
  EXPECT_EQ(facts_of("upgraded CUDA from 10.1 to 11.2, tensorflow 2.3\n").tf_version.value, "2.3");
  EXPECT_EQ(facts_of("tensorflow 2.3: I upgraded pip from 20.1 to 21.0\n").tf_version.value, "2.3");
}

}  // namespace
}  // namespace tfgpu::explain
