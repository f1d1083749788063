#pragma once
// What several rules need to read the same way from a Snapshot: which platform it is,
// which Python environments hold TensorFlow (and the KB row for each), whether a layer
// was probed at all, and how a library name resolves (through the loader model). Pure.

#include <optional>
#include <string>
#include <vector>

#include "host/host.h"
#include "kb/kb.h"
#include "rules/finding.h"
#include "rules/runtime_loads.h"
#include "snapshot/snapshot.h"
#include "util/version.h"

namespace tfgpu::rules {

// The platform whose TensorFlow wheels apply (WSL2 is Linux). nullopt: unknown OS.
std::optional<Platform> wheel_platform(const Snapshot& s);
// The platform whose driver numbers apply: WSL2 runs the Windows driver.
std::optional<Platform> driver_platform(const Snapshot& s);
bool is_wsl2(const Snapshot& s);
bool is_windows(const Snapshot& s);

// A layer was looked at (any answer: ok, absent, failed, unsupported).
bool probed(const ProbeState& st);
// The CUDA/cuDNN search ran (found something: kOk, or nothing: kAbsent).
bool runtime_looked(const Snapshot& s);
// The environment variables were read (they come with the host layer); a partial
// Snapshot from a log has at most a few of them and must not be read as "unset".
bool env_known(const Snapshot& s);
// Whether a TensorFlow install could be missing from the snapshot because looking for it
// failed: the Python probe failed, or an environment's packages could not be listed.
bool python_unknown(const Snapshot& s);
std::optional<std::string> env_var(const Snapshot& s, const std::string& name);

// One Python environment with TensorFlow.
struct TfEnv {
  const PythonEnv* py = nullptr;
  const TensorflowInstall* tf = nullptr;  // the install that `import tensorflow` gets
  const kb::TfRelease* release = nullptr; // nullptr: version unknown to the KB
  std::optional<Version> version;
  std::string label;                      // "conda env 'tf' (C:\\...\\python.exe)"
  const kb::KnowledgeBase* kb = nullptr;  // the KB it was read with (for its library names)
};
std::vector<TfEnv> tf_envs(const Snapshot& s, const kb::KnowledgeBase& kb);
std::string env_label(const PythonEnv& py);

// The GPU-capable TF environments: the wheel is a CUDA build on this platform and the
// package is not a CPU-only flavour. Rules about CUDA libraries only look at these.
bool tf_gpu_build(const TfEnv& e, const Snapshot& s, const kb::KnowledgeBase& kb);

// KB citation as evidence: "kb: tensorflow 2.10.0 (https://...)".
Evidence cite(const kb::Citation& c, std::string fact);
Evidence fact(std::string text, std::string source);

// Paths, compared the platform's way (Windows: case-insensitive, either slash).
std::string norm_path(const Snapshot& s, std::string_view path);
std::string dir_of(std::string_view path);
std::string file_of(std::string_view path);
std::string join_path(const Snapshot& s, std::string_view dir, std::string_view name);

// ---- library search ---------------------------------------------------------
// The loader model (src/loader: ld.so and LoadLibrary, differential-tested against
// the real loaders) over the Snapshot, in the process TensorFlow runs in
// (rules/runtime_loads.h). A name TensorFlow loads answers from TF's simulated loads
// (in TF's order, dependencies included); any other name from a search in the same
// process.

struct Resolution {
  std::string name;                        // the file name asked for
  const LibraryFile* found = nullptr;      // the file the loader takes (nullptr: none, or not recorded)
  std::string found_path;                  // its path as the loader spells it ("" when not found)
  std::string found_via;                   // the place: "PATH #2", "LD_LIBRARY_PATH #1", "DT_RUNPATH of ...", "ld.so.cache"
  std::vector<const LibraryFile*> elsewhere;  // same name on disk but not on the search path
  std::vector<const LibraryFile*> shadowed;   // same name on the search path, passed over or after the chosen one
  loader::Resolution loader;               // the loader model's answer: outcome, trail, error
  std::string dependency_error;            // found, but its dependency closure failed (the loader's words)
  loader::Resolution failed_dependency;    // the dependency that failed (when dependency_error is set)
};

Resolution resolve(const Snapshot& s, const TfEnv* env, std::string_view file_name);
// Evidence for a resolution: `text` plus the loader's trail (every place tried, in order).
Evidence loader_evidence(const Snapshot& s, std::string text, const Resolution& r);
// Libraries of a component anywhere in the Snapshot ("cudart" -> every libcudart* file).
std::vector<const LibraryFile*> libraries_of(const Snapshot& s, std::string_view component);
// The PATH-like list the user edits: LD_LIBRARY_PATH on Linux, PATH on Windows.
std::string path_var_name(const Snapshot& s);
std::vector<std::string> path_entries(const Snapshot& s, const std::string& var);

// Installs a library file belongs to.
const CudaInstall* cuda_install_of(const Snapshot& s, const LibraryFile& f);
const CudnnInstall* cudnn_install_of(const Snapshot& s, const LibraryFile& f);

// A GPU's compute capability: as probed, else from the KB by PCI id.
std::optional<kb::ComputeCapability> gpu_cc(const GpuInfo& g, const kb::KnowledgeBase& kb);
// The KB row of a GPU by PCI id (nullptr when unknown).
const kb::Gpu* kb_gpu(const GpuInfo& g, const kb::KnowledgeBase& kb);

}  // namespace tfgpu::rules

namespace tfgpu::rules {

// Why a library TF needs is not loaded, as a finding id: the pip wheel is there but
// not on TF's path (pip_nvidia_libs_not_found), the file is on disk but not on the
// search path (env_path_not_set), another version of the component is there
// (`mismatch_id`), or nothing at all (`missing_id`).
std::string missing_library_id(const Snapshot& s, const TfEnv& env, const Resolution& r,
                               std::string_view component, std::string_view mismatch_id,
                               std::string_view missing_id);
bool under_dir(const Snapshot& s, std::string_view path, std::string_view dir);
// The newest TF release with a GPU build on this platform whose must-load CUDA libraries
// (all but the driver) resolve in this environment; nullptr if none.
const kb::TfRelease* newest_release_that_loads(const Snapshot& s, const TfEnv& env, const kb::KnowledgeBase& kb);
// Pip packages of an environment whose name starts with `prefix` ("nvidia-").
std::vector<const PythonPackage*> packages_with_prefix(const PythonEnv& py, std::string_view prefix);
// Whether `pip install tensorflow[and-cuda]` exists for this release (Linux): the KB
// records the extra's pins from the release that introduced it on.
bool has_and_cuda_extra(const kb::KnowledgeBase& kb, const kb::TfRelease& rel);
// Fix steps that put a folder on the library search path for this platform.
std::vector<std::string> add_to_path_steps(const Snapshot& s, const std::string& dir);
// Fix steps that install the CUDA toolkit and cuDNN a TF release was built with.
std::vector<std::string> install_cuda_steps(const Snapshot& s, const TfEnv& env, const kb::KnowledgeBase& kb);

}  // namespace tfgpu::rules
