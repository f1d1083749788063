#pragma once
// tfgpu.lock.toml: the host contract (OS / target, GPU and compute capability, driver
// minimum) and the pinned versions of a plan, with the KB sources behind each, plus
// everything the setup files need. Emitters (plan/emit.h) are pure functions of a Lock;
// `check_lock` compares a machine's Snapshot against one (doctor --lock).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "plan/packaging.h"
#include "plan/plan.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::plan {

inline constexpr int kLockSchemaVersion = 1;

struct LockSource {
  std::string fact;                // "TensorFlow 2.10.0: CUDA 11.2, cuDNN 8.1, Python 3.7-3.10"
  std::vector<std::string> urls;   // resolved
  bool verified = true;
};

struct Lock {
  int schema = kLockSchemaVersion;
  std::string generator;  // "tfgpu 0.1.0" (no timestamp: the file is reproducible)

  // [host]
  std::string os;              // "windows" | "linux"
  std::string target;          // "native" | "wsl2" | "docker"
  std::string gpu;             // name ("" unknown)
  std::string gpu_pci_id;
  std::string compute_capability;  // "8.6"
  std::string cc_support;          // "native" | "ptx_jit" | "ignored" | "unknown"
  std::string driver_platform;     // whose driver numbers apply ("windows" for WSL2)
  std::string driver_min;          // "452.39"
  std::string driver_recommended;  // "" when the minimum is already toolkit-exact
  std::string driver_seen;         // what the machine had when planned ("" unknown)

  // [versions]
  std::string tensorflow;  // "2.10.0"
  std::string package;     // pip distribution: "tensorflow", "tensorflow-gpu"
  std::string python;      // "3.10" ("" for docker: the image's own)
  std::string cuda;        // "11.2"
  std::string cudnn;       // "8.1"

  // [install]
  std::string method;               // "conda" | "system-cuda" | "pip-and-cuda" | "docker"
  std::string env_name;             // conda env / venv dir name: "tf-2.10"
  std::vector<std::string> pip;     // requirement lines, pinned ("tensorflow[and-cuda]==2.14.0", wheel pins)
  std::string pip_hashes_note;      // why there are no --hash entries
  std::string conda_channel;
  std::vector<std::string> conda_packages;  // "cudatoolkit=11.2"
  std::string cuda_root;            // system-cuda: toolkit dir (reused or default)
  std::string cudnn_root;
  std::vector<std::string> path_entries;   // Windows system-cuda: PATH entries to add
  std::string cuda_installer;       // NVIDIA installer file name ("" unknown)
  std::string cuda_installer_sha256;
  std::vector<std::string> libraries;  // file names TF loads (driver first), for checks
  std::string docker_image;         // "tensorflow/tensorflow:2.14.0-gpu"

  std::vector<std::string> warnings;
  std::vector<LockSource> sources;
};

// The lock for a plan's chosen option (the plan must have one).
Result<Lock> build_lock(const PlanResult& plan, const kb::KnowledgeBase& kb, const Packaging& packaging);

// TOML text of a lock (stable order: golden files compare it byte for byte).
std::string lock_to_toml(const Lock& lock);
// Parses tfgpu.lock.toml. Malformed TOML, a wrong schema or a missing field is a
// kInput error naming the problem, never a crash.
Result<Lock> parse_lock(std::string_view text, std::string_view name = "tfgpu.lock.toml");

// Drift between a machine and a lock (`tfgpu doctor --lock`): findings with ids
// lock_drift_*; none when the machine matches.
std::vector<Finding> check_lock(const Lock& lock, const Snapshot& snapshot);

}  // namespace tfgpu::plan
