#pragma once
// The child-process side of the driver probe (`tfgpu __probe-driver`): loads one
// vendor library (NVML, the CUDA driver, cudart or cuDNN), asks it what it knows
// and prints one JSON object. It runs in its own process because a broken vendor
// library may crash or hang; it writes "tfgpu-stage: <call>" lines to stderr before
// each vendor call so the parent can say where a crash happened.

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "host/host.h"

namespace tfgpu::probe {

enum class VendorLibrary { kNvml, kCudaDriver, kCudart, kCudnn };

// "nvml" | "cuda" | "cudart" | "cudnn"
const char* vendor_library_name(VendorLibrary lib);
bool parse_vendor_library(const std::string& text, VendorLibrary* out);

struct ChildQuery {
  VendorLibrary library = VendorLibrary::kNvml;
  std::string path;  // explicit file to open alone; "" = the default candidate names
  Platform platform = Platform::kLinux;  // picks the default names
};

// Runs the query in this process (call only inside the child) and returns:
// {"library","tried":[],"errors":[],"opened","path","init_result","ok":bool,
//  "driver_version","cuda_version","device_count","gpus":[{index,name,pci_id,pci_bus_id,
//  compute_capability,memory_total_bytes,memory_free_bytes,uuid}],"version"}.
nlohmann::json run_child_query(const ChildQuery& query, std::ostream& stage_log);

}  // namespace tfgpu::probe
