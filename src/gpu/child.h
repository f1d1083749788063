#pragma once
// Runs a tfgpu child process (`tfgpu __verify-child`, `__bench-child`) that talks to the
// GPU libraries, and takes back the one JSON object it prints. A crash, hang or garbage
// output of the child is an error value with a plain description, never a crash of tfgpu.

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/host.h"
#include "util/error.h"

namespace tfgpu::gpu {

struct ChildRun {
  std::vector<std::string> args;  // after the executable: {"__verify-child", ...}
  std::chrono::milliseconds timeout{60000};
  std::map<std::string, std::string> env;
};

// The child's JSON, or kIo with "crashed: signal 11 (Segmentation fault); stderr: ..."
// / "killed after 60000 ms (timeout)" / "printed no JSON".
Result<nlohmann::json> run_child_json(const Host& host, const ChildRun& run);

}  // namespace tfgpu::gpu
