#pragma once
// Facts read from a pasted log or bug report: versions stated in prose, pip / nvidia-smi
// / build_info output, library names that failed or loaded, GPU and CPU, each with the
// line it came from. to_snapshot() turns them into a partial Snapshot (origin "log")
// that the doctor rules can read like a probed one.

#include <map>
#include <string_view>
#include <string>
#include <vector>

#include "snapshot/snapshot.h"

namespace tfgpu::explain {

// One extracted value and where it was read (1-based line; 0 = not from a line).
struct Fact {
  std::string value;
  int line = 0;
  bool empty() const { return value.empty(); }
};

// A library named by a loader message.
struct LibraryMention {
  std::string name;       // "libcudart.so.11.0", "cudart64_110.dll"
  std::string component;  // "cudart", "cublaslt", "cudnn", "cuda_driver", "nvinfer", ...
  std::string detail;     // dlerror text, e.g. the dependency that is really missing
  int line = 0;
  bool in_prose = false;  // named in the reporter's words ("it can't find cudart64_110.dll")
};

// A wheel file name seen in the log ("tensorflow_gpu-1.13.1-cp35-cp35m-win_amd64.whl").
struct WheelMention {
  std::string file;
  std::string package;   // "tensorflow_gpu"
  std::string version;   // "1.13.1"
  std::string python;    // "cp35" ("py3" / "py2" for pure wheels)
  std::string platform;  // "win_amd64", "manylinux2010_x86_64", "any"
  int line = 0;
};

struct LogFacts {
  // Platform, decided from votes of the fact signatures (see decide_platform()).
  std::map<std::string, int> os_votes;  // "windows" / "linux" / "macos" -> lines
  std::map<std::string, int> os_first_line;
  Fact os;          // "windows" | "linux" | "macos" ("" unknown)
  Fact wsl;         // "yes" when WSL2
  Fact container;   // "docker" when a container is involved

  Fact tf_version;            // "2.12.0"
  bool tf_version_labelled = false;  // from "TensorFlow version: ..." rather than prose
  // A question whose answer is the next line (extract.h, read_answer): the interpreter's
  // ">>> tf.__version__" or ">>> tf.test.is_built_with_cuda()", pip show's "Name:
  // tensorflow", Windows' `where cudart64_110.dll`.
  struct Asked {
    enum class What { kNone, kTfVersion, kBuiltWithCuda, kWhere } what = What::kNone;
    int line = 0;
    std::string file;  // kWhere: the file asked for
  } asked;
  Fact tfjs_node_version;     // TensorFlow.js's Node.js binding, "2.0.1" (tfjs-node / tfjs-node-gpu)
  Fact tf_from_tfjs_node;     // set when tf_version is the libtensorflow that binding downloads
  Fact python_version;        // "3.10.10"
  bool python_version_labelled = false;
  Fact python_bits;           // "32" / "64"
  Fact cuda_version;          // toolkit the user says is installed, "11.2"
  Fact cuda_kind;             // "conda" | "pip" | "toolkit" where stated
  std::vector<std::string> cuda_versions_stated;  // distinct major.minor toolkits named (at most 8)
  Fact cudnn_version;         // "8.1.0"
  Fact driver_version;        // "535.104.05"
  Fact driver_cuda_version;   // nvidia-smi "CUDA Version" = newest CUDA the driver runs
  Fact kernel_module_version; // "kernel reported version is: ..."
  Fact cudnn_loaded;          // "Loaded runtime CuDNN library: X" (X)
  Fact cudnn_compiled;        // "... but source was compiled with: Y" (Y)
  Fact cc_ignored;            // compute capability of a GPU TF ignored, "3.0"
  Fact cc_min_required;       // "The minimum required Cuda capability is 3.5"
  Fact compute_capability;    // any stated compute capability, "7.5"
  std::vector<Fact> gpu_names;  // "GeForce RTX 2070"
  Fact cpu_model;
  Fact cpu_flags;             // the /proc/cpuinfo flags line (avx decided from it)
  Tri cpu_avx = Tri::kUnknown;
  Fact cuda_visible_devices;  // value as written ("", "-1", "0")
  bool cuda_visible_devices_set = false;
  Fact gpu_list_empty;        // a printed "[]" after list_physical_devices
  std::vector<LibraryMention> failed_libraries;
  std::vector<LibraryMention> loaded_libraries;
  std::vector<LibraryMention> present_libraries;  // files the reporter says are there ("X can be found in /usr/...")
  std::vector<WheelMention> wheels;
  std::map<std::string, Fact> cuda_path_versions;  // CUDA versions seen in paths (cuda-11.2, CUDA\v10.1)

  // Flags set by fact signatures (`sets` in signatures.toml): key -> first value + line.
  // (std::less<>: looked up by a literal without building a std::string, once per line in
  // the extractors.)
  std::map<std::string, Fact, std::less<>> flags;
  bool flag(std::string_view key) const {
    auto it = flags.find(key);
    return it != flags.end() && !it->second.value.empty() && it->second.value != "no";
  }
  const Fact* flag_fact(std::string_view key) const {
    auto it = flags.find(key);
    return it == flags.end() ? nullptr : &it->second;
  }

  // Settles os / wsl from the votes and flags (call once, after the scan).
  void decide_platform();
  // The partial Snapshot for the doctor rules: only what the log states is filled.
  Snapshot to_snapshot() const;
};

}  // namespace tfgpu::explain
