#pragma once
// Python interpreters and environments found without running them: PATH, pyenv
// versions, conda environments (environments.txt and conda roots), the active venv
// and interpreters named with --python; for each, the version, bitness,
// site-packages dirs and the framework packages installed there (tensorflow*,
// keras, tf-keras, nvidia-*, torch, jax, tensorrt) with TF's build_info.

#include <optional>
#include <string>
#include <vector>

#include "host/host.h"
#include "snapshot/snapshot.h"

namespace tfgpu::python {

// One interpreter to look at, and how it was found.
struct Candidate {
  std::string executable;  // as found (not resolved)
  std::string kind;        // "system" | "pyenv" | "venv" | "conda" | "given"
  std::string name;        // pyenv version / conda env name / venv dir name
  std::string source;      // "PATH", "pyenv", "conda environments.txt", "conda root", "VIRTUAL_ENV", "--python"
};

// The venv or conda environment whose bin/ (Scripts\ on Windows) holds `self_exe`, the
// running tfgpu (`pip install tfgpu` puts it there): find_interpreters lists it right after
// VIRTUAL_ENV, so doctor looks at that environment first even when it is not activated.
std::optional<Candidate> own_environment(const Host& host, const std::string& self_exe);

// Every interpreter worth reporting, deduplicated by resolved path (first finding wins,
// except that a venv/conda/pyenv kind beats "system" for the same file).
std::vector<Candidate> find_interpreters(const Host& host, const std::vector<std::string>& given);

// Reads one environment (no process is run). Fields it cannot learn stay empty.
PythonEnv read_environment(const Host& host, const Candidate& c);

// Relevant distributions in one site-packages dir (dist-info / egg-info), sorted by name.
// The error when the dir cannot be listed (permissions, I/O): its packages are unknown.
Result<std::vector<PythonPackage>> list_relevant_packages(const Host& host, const std::string& site_packages);
// The same, nothing where the dir cannot be listed.
std::vector<PythonPackage> relevant_packages(const Host& host, const std::string& site_packages);
bool is_relevant_package(const std::string& normalized_name);

// TensorFlow installs in one environment: the flavour packages present and the
// build_info.py of the tensorflow/ package dir.
std::vector<TensorflowInstall> read_tensorflow(const Host& host, const PythonEnv& env);

// Which one `python` resolves to now: the active venv / conda env, else the first on PATH.
void mark_active(const Host& host, std::vector<PythonEnv>& envs);

}  // namespace tfgpu::python
