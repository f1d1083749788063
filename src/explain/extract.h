#pragma once
// Small hand-written extractors that read values (versions, library names, GPU names,
// CPU flags, wheel tags) out of one log line into LogFacts. Each looks only at a
// bounded prefix of the line and scans it a bounded number of times, so the whole
// pass stays linear; each runs only on lines where the scanner's automaton saw one of
// its keywords.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "explain/log_facts.h"

namespace tfgpu::explain {

enum class Extractor : uint8_t {
  kTensorflow,       // "TensorFlow version: 2.12.0", "tensorflow==2.7.0", "tf 2.8"
  kPython,           // "Python 3.10.12", "python=3.8"
  kCuda,             // "CUDA 11.2", "cuda_11.8.0_...", "cudatoolkit=11.2", "CUDA/cuDNN version: 11.2/8.1"
  kCudnn,            // "cuDNN 8.1.0", "cudnn=8.1", "Loaded runtime CuDNN library: X but ... compiled with: Y"
  kDriver,           // "Driver Version: 535.104.05", "NVIDIA 410.104", "libcuda reported version is: ..."
  kGpu,              // "GeForce RTX 2070", "name: Quadro K2000M", "compute capability: 3.0", "major: 3 minor: 0"
  kCpu,              // /proc/cpuinfo "model name" and "flags"
  kLibrary,          // "Could not load dynamic library 'X'; dlerror: Y", "Successfully opened ... X"
  kWheel,            // "...-cp35-cp35m-win_amd64.whl"
  kCudaPath,         // "/usr/local/cuda-11.2/lib64", "CUDA\v11.2\bin"
  kVisibleDevices,   // "CUDA_VISIBLE_DEVICES=-1"
  kEmptyList,        // a line that is just "[]"
  kMemoryProse,      // "all the GPU memory is occupied at the start", "GPU 0 memory is drained by the learner"
  kPackagesProse,    // "the package tensorflow installed in addition to tensorflow-gpu"
  kTfjsNode,         // "tfjs-node-gpu@2.0.1", "TensorFlow.js version: 2.0.1" (with tfjs-node named)
  kGpuUnseenProse,   // "the code does not see gpu", "Keras never uses my GPU", "the GPU is not being detected"
  kDeviceList,       // device_lib.list_local_devices()'s `device_type: "CPU"`, a tf.test.gpu_device_name() call
  kContainerPrompt,  // "root@3f4e1c2a9b7d:/workspace#": a Docker container's default host name
  kLogLevel,         // TF_CPP_MIN_LOG_LEVEL set to 2 or 3: TensorFlow's warnings are hidden
  kNotebookScript,   // "it runs fine in a Jupyter notebook but throws this error when run as a .py file"
  kMemoryFigures,    // "totalMemory: 11.17GiB freeMemory: 1.10GiB", "deviceMemorySize: 8.00GiB", "with 6955 MB memory"
  kCount,
};

// The literals (lower-case) that make the scanner run an extractor on a line.
struct ExtractorKeywords {
  Extractor which;
  std::vector<std::string> keywords;
};
std::span<const ExtractorKeywords> extractor_keywords();

// Runs one extractor over `line` (already cut to the scanner's prefix cap).
void run_extractor(Extractor which, std::string_view line, int line_no, LogFacts& facts);
// The same with the line's ASCII-lower-case copy supplied (same length).
void run_extractor(Extractor which, std::string_view line, std::string_view lower, int line_no, LogFacts& facts);

// The line right after a question (facts.asked), read as its answer, and the question
// cleared: TensorFlow's version ("'2.16.1'", "2.16.1", pip show's "Version: 2.16.1");
// is_built_with_cuda's "False"; `where`'s "INFO: Could not find files for the given
// pattern(s)." (the file on no PATH folder) or a path ending in the file (present).
void read_answer(std::string_view line, int line_no, LogFacts& facts);

// Words allowed between a keyword and its version ("TensorFlow version (use command
// below): 2.7.0"); anything else means the number is not this keyword's version.
enum class VersionOf { kTensorflow, kPython, kCuda, kCudnn, kDriver };

// The dotted version that follows `pos` in `line` (pos = just past a keyword), skipping
// only separators and the allowed words; nullopt when another word, a path separator or a
// comparison comes first. *labelled is set when the word "version" was skipped.
std::optional<std::string> version_after(std::string_view line, size_t pos, VersionOf what, bool* labelled = nullptr);

// "libcudart.so.11.0" -> "cudart", "cublasLt64_11.dll" -> "cublaslt", "libcuda.so.1" /
// "nvcuda.dll" -> "cuda_driver".
std::string library_component(std::string_view file_name);
// A CUDA toolkit library's component ("cudart", "cublaslt", ...; not cuDNN, not the driver).
bool is_cuda_component(std::string_view component);

}  // namespace tfgpu::explain
