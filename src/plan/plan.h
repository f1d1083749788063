#pragma once
// The version-set solver behind `tfgpu plan`: from a machine description (a Snapshot
// and/or flags) and a target (native, WSL2, Docker), choose TensorFlow, Python, CUDA,
// cuDNN and the minimum driver such that every constraint in the knowledge base holds,
// and say for every other release which constraint excluded it. Pure: KB + data in,
// data out; nothing is probed or executed here.

#include <optional>
#include <string>
#include <vector>

#include "kb/kb.h"
#include "plan/packaging.h"
#include "snapshot/snapshot.h"
#include "util/error.h"
#include "util/version.h"

namespace tfgpu::plan {

enum class Target { kNative, kWsl2, kDocker };
const char* to_string(Target t);  // "native", "wsl2", "docker"
Result<Target> parse_target(std::string_view text);

// How to break ties between feasible version sets.
enum class Preference {
  kReuse,   // newest feasible TF; a Python that is already installed where it fits
  kLatest,  // newest feasible TF with its newest Python, ignoring what is installed
};

// What the flags say about the machine; each set field overrides the snapshot.
struct MachineFlags {
  std::string os;      // --os windows|linux
  std::string gpu;     // --gpu NAME|PCI-ID
  std::string driver;  // --driver VERSION
  std::string python;  // --python VERSION (also a hard constraint on the plan)
};

// NVIDIA driver versions print their components after the first with two digits
// ("522.06", "525.60.13"); Version keeps numbers, so "522.06" would print as "522.6".
std::string driver_text(const Version& v);

struct InstalledToolkit {
  Version version;
  std::string root;
  std::string kind;  // snapshot CudaInstall/CudnnInstall kind ("toolkit", "pip", "conda", ...)
};

// The facts the solver uses, each with where it came from ("snapshot", "--gpu", "kb").
struct Machine {
  std::string os;                 // "windows" | "linux" | "macos" | "" unknown
  std::string os_source;
  bool inside_wsl2 = false;       // the snapshot was taken inside WSL2
  std::string gpu_name;
  std::string gpu_pci_id;
  std::optional<kb::ComputeCapability> cc;
  std::string gpu_source;
  std::optional<Version> driver;
  std::string driver_source;
  std::optional<Version> python;  // requested with --python: a hard constraint
  std::vector<Version> installed_pythons;  // major.minor of the snapshot's interpreters
  std::vector<InstalledToolkit> cuda;
  std::vector<InstalledToolkit> cudnn;
  std::vector<std::string> notes;  // facts that could not be established and why
};

// Snapshot (may be null: flags only) + flags -> Machine. Bad flag values (unknown GPU,
// malformed version, --os macos with a CUDA target) are kUsage/kInput errors.
Result<Machine> describe_machine(const Snapshot* snapshot, const MachineFlags& flags, const kb::KnowledgeBase& kb);

struct PlanRequest {
  std::optional<Target> target;      // default: native, or wsl2 when the snapshot is inside WSL2
  std::optional<std::string> tf;     // --tf VERSION (series, "2.10")
  Preference preference = Preference::kReuse;
};

// How the emitted setup installs CUDA and cuDNN.
enum class Method {
  kConda,          // conda env with the CUDA/cuDNN conda packages (native Windows <= 2.10)
  kSystemCuda,     // venv + a system CUDA toolkit and cuDNN (installed, reused, or to install)
  kPipAndCuda,     // venv + pip install tensorflow[and-cuda] (Linux/WSL2, TF >= 2.14)
  kDocker,         // the official TensorFlow GPU image
};
const char* to_string(Method m);  // "conda", "system-cuda", "pip-and-cuda", "docker"
Result<Method> parse_method(std::string_view text);

// One consistent version set.
struct Option {
  const kb::TfRelease* tf = nullptr;
  Platform tf_platform = Platform::kLinux;      // whose wheel: windows (native) or linux
  Platform driver_platform = Platform::kLinux;  // whose driver numbers apply (WSL2: windows)
  std::string package;                          // pip package: "tensorflow", "tensorflow-gpu"
  std::optional<Version> python;                // major.minor; absent for Docker (the image's own)
  bool python_reused = false;                   // an installed interpreter of that version exists
  Version cuda;
  Version cudnn;
  Version min_driver;
  std::string driver_basis;
  std::optional<Version> recommended_driver;    // bundled with the exact toolkit (full features)
  kb::CcSupport cc_support = kb::CcSupport::kUnknown;
  std::string cc_detail;
  Method method = Method::kPipAndCuda;
  std::optional<InstalledToolkit> reuse_cuda;
  std::optional<InstalledToolkit> reuse_cudnn;
  std::vector<std::string> warnings;
  std::vector<kb::Citation> cites;

  std::string label() const;  // "TF 2.10.0 + CUDA 11.2 + cuDNN 8.1 + Python 3.10"
};

// A release excluded by a constraint (one row per failed constraint).
struct Rejection {
  Version tf;
  std::string constraint;  // "no_gpu_build", "compute_capability", "cuda_arch", "driver", "python", "no_python_list"
  std::string reason;      // "TF 2.15 on native Windows: no GPU build (...)"
};

enum class PlanStatus {
  kOk,                 // the request is met by `chosen`
  kNeedsDriverUpdate,  // `chosen` works once the driver is updated (step one)
  kNearest,            // the request cannot be met; `chosen` is the nearest feasible plan
  kNoPlan,             // nothing in the KB fits (macOS, a GPU no release supports, ...)
};
const char* to_string(PlanStatus s);  // "ok", "needs_driver_update", "nearest", "no_plan"

struct PlanResult {
  PlanStatus status = PlanStatus::kNoPlan;
  Machine machine;
  Target target = Target::kNative;
  std::optional<Option> chosen;
  std::vector<Option> runners_up;     // the next best feasible sets, best first (<= 3)
  std::vector<Rejection> rejected;    // newest release first
  std::vector<std::string> explanation;  // why the request could not be met as asked
  std::vector<std::string> steps;        // what to do, in order (driver first when needed)
};

Result<PlanResult> solve(const Machine& machine, const PlanRequest& request, const kb::KnowledgeBase& kb,
                 const Packaging& packaging);

}  // namespace tfgpu::plan
