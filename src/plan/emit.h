#pragma once
// The files `tfgpu plan --out DIR` writes, each a pure function of a Lock: the lock
// itself, the setup script for the target (setup.ps1 for native Windows, setup.sh for
// Linux / WSL2), requirements.txt, environment.yml, a Dockerfile on the official image
// and verify.py. Nothing is executed by tfgpu; the scripts are idempotent.

#include <string>
#include <vector>

#include "plan/lock.h"

namespace tfgpu::plan {

enum class FileMode { kRegular, kExecutable };

struct EmittedFile {
  std::string name;  // "setup.sh"
  std::string text;
  FileMode mode = FileMode::kRegular;
};

std::string emit_setup_sh(const Lock& lock);
std::string emit_setup_ps1(const Lock& lock);
std::string emit_requirements(const Lock& lock);
std::string emit_environment_yml(const Lock& lock);
std::string emit_dockerfile(const Lock& lock);
std::string emit_verify_py(const Lock& lock);

// Every file for the lock's target, in a stable order (lock first).
std::vector<EmittedFile> emit_all(const Lock& lock);

}  // namespace tfgpu::plan
