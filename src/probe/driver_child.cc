#include "probe/driver_child.h"

#include <cstddef>
#include <cstdio>

#include <fmt/format.h>

#include "gpu/cuda_driver.h"
#include "gpu/nvml.h"
#include "host/dynamic_library.h"

namespace tfgpu::probe {

using nlohmann::json;

const char* vendor_library_name(VendorLibrary lib) {
  switch (lib) {
    case VendorLibrary::kNvml: return "nvml";
    case VendorLibrary::kCudaDriver: return "cuda";
    case VendorLibrary::kCudart: return "cudart";
    case VendorLibrary::kCudnn: return "cudnn";
  }
  return "?";
}

bool parse_vendor_library(const std::string& text, VendorLibrary* out) {
  for (auto lib : {VendorLibrary::kNvml, VendorLibrary::kCudaDriver, VendorLibrary::kCudart, VendorLibrary::kCudnn}) {
    if (text == vendor_library_name(lib)) {
      *out = lib;
      return true;
    }
  }
  return false;
}

namespace {

void stage(std::ostream& log, const char* call) { log << "tfgpu-stage: " << call << std::endl; }

std::string c_string(const char* buf, size_t cap) {
  size_t n = 0;
  while (n < cap && buf[n]) ++n;
  return std::string(buf, n);
}

void put_outcome(json& j, const LoadOutcome& o) {
  j["tried"] = o.tried;
  j["errors"] = o.errors;
  j["opened"] = o.opened;
  j["path"] = o.path;
}

std::vector<std::string> candidates(const ChildQuery& q, std::vector<std::string> defaults) {
  if (!q.path.empty()) return {q.path};
  return defaults;
}

json query_nvml(const ChildQuery& q, std::ostream& log) {
  json j = {{"library", "nvml"}, {"ok", false}};
  LoadOutcome o;
  stage(log, "dlopen");
  auto loaded = nvml::load(candidates(q, nvml::default_candidates(q.platform)), &o);
  put_outcome(j, o);
  if (!loaded) {
    if (!o.opened.empty()) j["init_result"] = loaded.error().message;  // opened, but symbols missing
    return j;
  }
  const nvml::Functions& f = loaded->fn;
  stage(log, "nvmlInit_v2");
  nvml::Return r = f.init();
  j["init_result"] = nvml::describe_return(r, &f);
  if (r != nvml::kSuccess) return j;

  char buf[nvml::kDriverVersionBufferSize] = {};
  stage(log, "nvmlSystemGetDriverVersion");
  if (f.system_get_driver_version(buf, sizeof buf) == nvml::kSuccess) j["driver_version"] = c_string(buf, sizeof buf);
  if (f.system_get_cuda_driver_version) {
    int v = 0;
    stage(log, "nvmlSystemGetCudaDriverVersion_v2");
    nvml::Return cr = f.system_get_cuda_driver_version(&v);
    if (cr == nvml::kSuccess && v > 0) j["cuda_version"] = gpu::cuda_version_text(v);  // same encoding as cuDriverGetVersion
    else j["cuda_version_error"] = nvml::describe_return(cr, &f);
  }
  unsigned count = 0;
  stage(log, "nvmlDeviceGetCount_v2");
  nvml::Return cr = f.device_get_count(&count);
  if (cr != nvml::kSuccess) {
    j["device_count_error"] = nvml::describe_return(cr, &f);
  } else {
    j["device_count"] = count;
    json gpus = json::array();
    for (unsigned i = 0; i < count && i < 64; ++i) {
      json g = {{"index", i}};
      nvml::Device dev = nullptr;
      stage(log, "nvmlDeviceGetHandleByIndex_v2");
      nvml::Return hr = f.device_get_handle_by_index(i, &dev);
      if (hr != nvml::kSuccess) {
        g["error"] = nvml::describe_return(hr, &f);
        gpus.push_back(g);
        continue;
      }
      if (f.device_get_name) {
        char name[nvml::kDeviceNameBufferSize] = {};
        stage(log, "nvmlDeviceGetName");
        if (f.device_get_name(dev, name, sizeof name) == nvml::kSuccess) g["name"] = c_string(name, sizeof name);
      }
      if (f.device_get_uuid) {
        char uuid[nvml::kDeviceUuidBufferSize] = {};
        stage(log, "nvmlDeviceGetUUID");
        if (f.device_get_uuid(dev, uuid, sizeof uuid) == nvml::kSuccess) g["uuid"] = c_string(uuid, sizeof uuid);
      }
      if (f.device_get_cuda_compute_capability) {
        int major = 0, minor = 0;
        stage(log, "nvmlDeviceGetCudaComputeCapability");
        if (f.device_get_cuda_compute_capability(dev, &major, &minor) == nvml::kSuccess)
          g["compute_capability"] = fmt::format("{}.{}", major, minor);
      }
      if (f.device_get_memory_info) {
        nvml::Memory m{};
        stage(log, "nvmlDeviceGetMemoryInfo");
        if (f.device_get_memory_info(dev, &m) == nvml::kSuccess) {
          g["memory_total_bytes"] = static_cast<uint64_t>(m.total);
          g["memory_free_bytes"] = static_cast<uint64_t>(m.free);
        }
      }
      if (f.device_get_pci_info) {
        nvml::PciInfo p{};
        stage(log, "nvmlDeviceGetPciInfo_v3");
        if (f.device_get_pci_info(dev, &p) == nvml::kSuccess) {
          // pciDeviceId = device << 16 | vendor (nvml.h).
          g["pci_id"] = fmt::format("{:04x}:{:04x}", p.pci_device_id & 0xffffu, p.pci_device_id >> 16);
          // busId is "%08X:%02X:%02X.0"; sysfs spells it "%04x:%02x:%02x.0".
          g["pci_bus_id"] = fmt::format("{:04x}:{:02x}:{:02x}.0", p.domain, p.bus, p.device);
        }
      }
      gpus.push_back(g);
    }
    j["gpus"] = gpus;
  }
  stage(log, "nvmlShutdown");
  f.shutdown();
  j["ok"] = true;
  return j;
}

// The CUDA driver API table of gpu/cuda_driver.h (shared with verify / bench).
json query_cuda_driver(const ChildQuery& q, std::ostream& log) {
  json j = {{"library", "cuda"}, {"ok", false}};
  LoadOutcome o;
  stage(log, "dlopen");
  auto loaded = gpu::CudaDriver::open(q.path.empty() ? gpu::default_cuda_driver_candidates() : std::vector<std::string>{q.path}, &o);
  put_outcome(j, o);
  if (!loaded) {
    if (!o.opened.empty()) j["init_result"] = loaded.error().message;
    return j;
  }
  const gpu::CudaDriverApi& f = loaded->api();
  auto describe = [&](gpu::CUresult r) { return fmt::format("{} ({})", loaded->error_name(r), r); };
  int v = 0;
  // cuDriverGetVersion answers without cuInit (and without a GPU): it is the
  // driver's newest supported CUDA, not an installed toolkit (nvidia.md §1c).
  stage(log, "cuDriverGetVersion");
  gpu::CUresult r = f.cuDriverGetVersion(&v);
  if (r == gpu::kCudaSuccess && v > 0) j["cuda_version"] = gpu::cuda_version_text(v);
  else j["cuda_version_error"] = describe(r);
  stage(log, "cuInit");
  gpu::CUresult ir = f.cuInit(0);
  j["init_result"] = describe(ir);
  if (ir == gpu::kCudaSuccess) {
    int n = 0;
    stage(log, "cuDeviceGetCount");
    if (f.cuDeviceGetCount(&n) == gpu::kCudaSuccess) j["device_count"] = n;
  }
  j["ok"] = j.contains("cuda_version");
  return j;
}

// cudaRuntimeGetVersion / cudnnGetVersion need no driver (nvidia.md §1c, §3c).
json query_version_library(const ChildQuery& q, std::ostream& log) {
  const bool is_cudart = q.library == VendorLibrary::kCudart;
  json j = {{"library", vendor_library_name(q.library)}, {"ok", false}};
  LoadOutcome o;
  // The probe always passes an explicit file; these names serve manual runs only.
  const bool win = q.platform == Platform::kWindows;
  std::vector<std::string> defaults = is_cudart ? (win ? std::vector<std::string>{"cudart64_12.dll", "cudart64_110.dll"}
                                                       : std::vector<std::string>{"libcudart.so"})
                                                : (win ? std::vector<std::string>{"cudnn64_9.dll", "cudnn64_8.dll"}
                                                       : std::vector<std::string>{"libcudnn.so"});
  stage(log, "dlopen");
  auto lib = DynamicLibrary::open(candidates(q, defaults), &o);
  put_outcome(j, o);
  if (!lib) return j;
  if (is_cudart) {
    using Fn = int(int*);
    Fn* fn = nullptr;
    SymbolBinder b(*lib);
    b.bind(fn, {"cudaRuntimeGetVersion"});
    if (auto ok = b.finish(); !ok) {
      j["init_result"] = ok.error().message;
      return j;
    }
    int v = 0;
    stage(log, "cudaRuntimeGetVersion");
    int r = fn(&v);
    j["init_result"] = fmt::format("cudaError {}", r);
    if (r == 0 && v > 0) {
      j["version"] = gpu::cuda_version_text(v);
      j["version_code"] = v;
      j["ok"] = true;
    }
  } else {
    using Fn = size_t();
    Fn* fn = nullptr;
    SymbolBinder b(*lib);
    b.bind(fn, {"cudnnGetVersion"});
    if (auto ok = b.finish(); !ok) {
      j["init_result"] = ok.error().message;
      return j;
    }
    stage(log, "cudnnGetVersion");
    size_t v = fn();
    j["version_code"] = static_cast<uint64_t>(v);  // decoded by the parent (encoding differs by major)
    j["ok"] = v > 0;
  }
  return j;
}

}  // namespace

json run_child_query(const ChildQuery& query, std::ostream& stage_log) {
  switch (query.library) {
    case VendorLibrary::kNvml: return query_nvml(query, stage_log);
    case VendorLibrary::kCudaDriver: return query_cuda_driver(query, stage_log);
    case VendorLibrary::kCudart:
    case VendorLibrary::kCudnn: return query_version_library(query, stage_log);
  }
  return json::object();
}

}  // namespace tfgpu::probe
