#pragma once
// `tfgpu verify`'s end-to-end GPU check as data: each step (load the driver, cuInit,
// device count, then per device a primary context, allocate/free, a host<->device round
// trip, an embedded PTX kernel, free/total memory) with pass/fail, the driver's own error
// name and a fix. run_driver_check() calls the real driver and belongs in a child process;
// the parent only parses the JSON the child prints (verify_report_from_json) and renders.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpu/cuda_driver.h"
#include "host/dynamic_library.h"
#include "util/error.h"

namespace tfgpu::gpu {

enum class StepStatus { kPass, kFail, kSkip };
const char* to_string(StepStatus s);  // "pass", "fail", "skip"

struct StepResult {
  std::string id;          // stable: "load_driver", "init", "device_count", "context", ...
  std::string title;       // "Load the CUDA driver library"
  StepStatus status = StepStatus::kSkip;
  std::string detail;      // what was seen: "libcuda.so.1 -> /usr/lib/x86_64-linux-gnu/libcuda.so.1"
  int code = 0;            // CUresult when a driver call failed, else 0
  std::string error_name;  // "CUDA_ERROR_NO_DEVICE" (from cuGetErrorName)
  std::string error_text;  // the driver's description of the code
  std::string fix;         // what to do, when failed
};

struct DeviceCheck {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  std::string pci_bus_id;  // "0000:01:00.0" when the driver says
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;
  int sm_count = 0;
  int clock_khz = 0;         // max SM clock the driver reports
  int memory_clock_khz = 0;  // max memory clock the driver reports
  int bus_width_bits = 0;
  std::vector<StepResult> steps;
  bool passed() const;
};

// Name, compute capability, SM count, clocks, memory and PCI bus id of `cu`, as far
// as the driver answers (verify and bench both report them).
void read_device_properties(const CudaDriverApi& a, CUdevice cu, DeviceCheck& dev);


struct VerifyReport {
  LoadOutcome load;
  int driver_cuda_version = 0;  // cuDriverGetVersion: 12080 = the driver runs CUDA <= 12.8
  std::vector<StepResult> steps;  // driver-wide steps
  std::vector<DeviceCheck> devices;
  // Set by the parent when the child did not hand back a report (crash, hang, garbage).
  std::string child_failure;
  bool passed() const;  // every step of every device passed, and at least one device
};

struct DriverCheckOptions {
  std::vector<std::string> driver_candidates;  // empty: default_cuda_driver_candidates()
  size_t roundtrip_bytes = 1u << 20;
  unsigned kernel_elements = 1u << 16;
};

// Runs every step against the real driver, in this process. Never throws; a failing
// step stops the steps that depend on it (they are reported as skipped).
VerifyReport run_driver_check(const DriverCheckOptions& options);

// What to do about a failed step, by step and driver error name (advice, not version facts).
std::string fix_for(const std::string& step_id, const std::string& error_name);

// Transport between the child and the parent, and the `--json` form (docs/verify-json.md).
nlohmann::json to_json(const VerifyReport& r);
Result<VerifyReport> verify_report_from_json(const nlohmann::json& j);

}  // namespace tfgpu::gpu
