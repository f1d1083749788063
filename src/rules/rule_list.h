#pragma once
// Every rule function, one per src/rules/rule_<concern>.cc. Listed in the table in
// rules.cc; declared here so each can be tested on its own.

#include <vector>

#include "kb/kb.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace tfgpu::rules {

#define TFGPU_RULE(name) std::vector<Finding> rule_##name(const Snapshot& s, const kb::KnowledgeBase& kb)
TFGPU_RULE(platform);
TFGPU_RULE(package);
TFGPU_RULE(pip_constraints);
TFGPU_RULE(python);
TFGPU_RULE(cpu);
TFGPU_RULE(gpu_presence);
TFGPU_RULE(container);
TFGPU_RULE(wsl);
TFGPU_RULE(driver_presence);
TFGPU_RULE(driver_mismatch);
TFGPU_RULE(device_visibility);
TFGPU_RULE(driver_version);
TFGPU_RULE(nvml);
TFGPU_RULE(compute_capability);
TFGPU_RULE(msvc_runtime);
TFGPU_RULE(conda_cuda);
TFGPU_RULE(cuda_libraries);
TFGPU_RULE(cudnn);
TFGPU_RULE(zlibwapi);
TFGPU_RULE(multiple_cuda);
TFGPU_RULE(stray_library);
TFGPU_RULE(other_cuda_major);
TFGPU_RULE(path_planting);
TFGPU_RULE(xla);
TFGPU_RULE(tensorrt);
TFGPU_RULE(memory);
TFGPU_RULE(mixed_precision);
TFGPU_RULE(device_placement);
TFGPU_RULE(tf_presence);
#undef TFGPU_RULE

}  // namespace tfgpu::rules
