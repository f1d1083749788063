#pragma once
// The live probe: reads the four layers of the machine (hardware, driver, CUDA/cuDNN
// runtime, Python/TensorFlow) through a Host into one Snapshot, without importing
// TensorFlow and without writing anything. Vendor libraries are only loaded in a
// child process (`tfgpu __probe-driver`) with a timeout. Each layer is one function
// so tests can drive a layer alone on a FakeHost.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/host.h"
#include "snapshot/snapshot.h"

namespace tfgpu::probe {

// What a knowledge base knows about a PCI id (the probe itself holds no GPU facts).
struct GpuFacts {
  std::string name;                // "GeForce RTX 3060"
  std::string compute_capability;  // "8.6"
};
using GpuNamer = std::function<std::optional<GpuFacts>(uint16_t vendor, uint16_t device)>;

// Whether the probe also loads the CUDA runtime / cuDNN found on disk (in a child)
// to ask them their version (cudaRuntimeGetVersion / cudnnGetVersion).
enum class RuntimeCalls { kNo, kYes };

struct ProbeOptions {
  GpuNamer name_gpu;                                 // null: GPUs seen only on the bus stay unnamed
  std::string self_exe;                              // "" = host.self_exe(); the child entry point
  std::chrono::milliseconds child_timeout{10000};    // per vendor-library child
  std::string nvml_path;                             // "" = default names (libnvidia-ml.so.1, ...)
  std::string cuda_path;                             // "" = default names (libcuda.so.1)
  std::map<std::string, std::string> child_env;      // extra environment for the children
  // No child for a vendor library that is nowhere the dynamic loader looks (Linux x86-64,
  // glibc): its answer, "cannot open shared object file", is written without it.
  bool skip_certainly_absent = true;
  RuntimeCalls runtime_calls = RuntimeCalls::kNo;
  std::vector<std::string> extra_pythons;            // --python PATH (interpreters to include)
  std::string tool_version;
  std::string created_at;                            // ISO 8601; "" = leave empty
};

// The whole machine.
Snapshot probe_machine(const Host& host, const ProbeOptions& options);

// --- one layer each (fill their part of the snapshot) --------------------------
void probe_host(const Host& host, Snapshot& s);
void probe_env(const Host& host, Snapshot& s);
void probe_hardware(const Host& host, const ProbeOptions& options, Snapshot& s);
// Runs the vendor-library children; merges driver-reported GPUs into s.gpus
// (matched by PCI bus id) and, on WSL2, makes them the hardware layer.
void probe_driver(const Host& host, const ProbeOptions& options, Snapshot& s);
void probe_loader(const Host& host, Snapshot& s);
// The directories ld.so(8) searches after its cache on Linux for this machine (`uname -m`),
// existing or not: the multiarch (Debian) ones first, then /lib64, /usr/lib64, /lib, /usr/lib.
std::vector<std::string> ld_so_default_dir_candidates(const std::string& machine);
// Needs s.pythons (pip / conda layouts) and s.loader (ld.so.cache dirs) filled first.
void probe_runtime(const Host& host, const ProbeOptions& options, Snapshot& s);
void probe_pythons(const Host& host, const ProbeOptions& options, Snapshot& s);

// The environment variables that matter (an allowlist: PATH, LD_LIBRARY_PATH, CUDA_*, TF_CPP_*, ...).
// Their values are recorded with credentials replaced by "<redacted>" (util/secrets.h).
bool is_relevant_env_var(const std::string& name);

}  // namespace tfgpu::probe
