#include "gpu/verify.h"

#include <cstring>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gpu/cuda_driver.h"
#include "gpu/ptx.h"
#include "util/strings.h"

namespace tfgpu::gpu {

const char* to_string(StepStatus s) {
  switch (s) {
    case StepStatus::kPass:
      return "pass";
    case StepStatus::kFail:
      return "fail";
    case StepStatus::kSkip:
      break;
  }
  return "skip";
}

bool DeviceCheck::passed() const {
  for (const auto& s : steps) {
    if (s.status != StepStatus::kPass) return false;
  }
  return !steps.empty();
}

bool VerifyReport::passed() const {
  if (!child_failure.empty() || devices.empty()) return false;
  for (const auto& s : steps) {
    if (s.status != StepStatus::kPass) return false;
  }
  for (const auto& d : devices) {
    if (!d.passed()) return false;
  }
  return true;
}

namespace {

struct FixRow {
  const char* error_name;  // "" = any
  const char* step;        // "" = any
  const char* fix;
};

// Advice per error class. Matching is first row wins, so specific rows come first.
constexpr FixRow kFixes[] = {
    {"", "load_driver",
     "Install the NVIDIA driver for this GPU (Linux: the distribution's nvidia-driver package or NVIDIA's "
     ".run/.deb; WSL2: install the driver on Windows only, never inside WSL). Then check that libcuda.so.1 "
     "(nvcuda.dll on Windows) is on the loader path: `ldconfig -p | grep libcuda`."},
    {"", "bind_driver",
     "The driver library lacks entry points tfgpu needs: it is very old or not the real driver (a stub or a "
     "wrapper). Update the NVIDIA driver."},
    {"CUDA_ERROR_STUB_LIBRARY", "",
     "A link-time stub libcuda.so (from the toolkit's lib64/stubs) was loaded instead of the driver: remove "
     "the stubs directory from LD_LIBRARY_PATH / ld.so.conf."},
    {"CUDA_ERROR_NO_DEVICE", "",
     "The driver sees no GPU. Check CUDA_VISIBLE_DEVICES (an empty value hides every GPU), that `nvidia-smi` "
     "lists the card, and in containers that the GPU was passed in (`--gpus all`)."},
    {"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "",
     "The user-space driver library and the kernel module are different versions (typical after a driver "
     "update without a reboot, or a forward-compatibility libcuda on an unsupported GPU): reboot, or remove "
     "the extra libcuda from the library path."},
    {"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "",
     "A CUDA forward-compatibility libcuda (cuda-compat) was loaded on a GPU that does not support it "
     "(GeForce): remove it from the library path and use the system driver."},
    {"CUDA_ERROR_SYSTEM_NOT_READY", "",
     "The system is not ready for CUDA (on NVSwitch systems: start nvidia-fabricmanager)."},
    {"CUDA_ERROR_INSUFFICIENT_DRIVER", "", "The driver is too old: install a newer NVIDIA driver."},
    {"CUDA_ERROR_DEVICE_UNAVAILABLE", "",
     "The GPU is in exclusive or prohibited compute mode and busy: see `nvidia-smi -q -d COMPUTE`, stop the "
     "other process or ask an administrator to change the compute mode."},
    {"CUDA_ERROR_OUT_OF_MEMORY", "",
     "The GPU is out of memory: other processes hold it (`nvidia-smi` lists them); stop them and retry."},
    {"CUDA_ERROR_ECC_UNCORRECTABLE", "",
     "Uncorrectable ECC errors: the GPU needs a reset (`nvidia-smi -r`) or service."},
    {"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "",
     "The driver is older than the PTX tfgpu embeds expects (ISA 6.0, CUDA 9): update the NVIDIA driver."},
    {"CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "",
     "The driver's PTX JIT compiler (libnvidia-ptxjitcompiler) is missing: reinstall the NVIDIA driver "
     "completely."},
    {"CUDA_ERROR_INVALID_PTX", "",
     "The driver rejected the embedded kernel: report this to tfgpu with `tfgpu verify --json` attached."},
    {"CUDA_ERROR_LAUNCH_FAILED", "",
     "The kernel crashed on the GPU. Look at `dmesg` for Xid errors; a reboot or a driver reinstall often "
     "clears it, persistent Xids point at hardware."},
    {"", "init",
     "cuInit failed: the driver is installed but not working. Check `nvidia-smi`, `dmesg | grep -i nvrm`, "
     "that /dev/nvidia* exist and are readable by you (Linux), and reboot after driver updates."},
    {"", "device_count",
     "The driver reports no usable GPU: check CUDA_VISIBLE_DEVICES and that `nvidia-smi` lists the card."},
    {"", "roundtrip",
     "Data copied to the GPU came back different: a hardware or driver fault. Check `nvidia-smi -q -d ECC`, "
     "`dmesg` for Xid errors, remove overclocks, and retest."},
    {"", "kernel",
     "A kernel did not run correctly: check `dmesg` for Xid errors, remove overclocks, and update or reinstall "
     "the driver; a wrong result that persists points at faulty hardware."},
    {"", "",
     "Check `nvidia-smi` and `dmesg` for driver errors, update the driver, and rerun `tfgpu verify`."},
};

}  // namespace

std::string fix_for(const std::string& step_id, const std::string& error_name) {
  for (const auto& row : kFixes) {
    bool name_ok = !*row.error_name || error_name == row.error_name;
    bool step_ok = !*row.step || step_id == row.step;
    if (name_ok && step_ok) return row.fix;
  }
  return "";
}

void read_device_properties(const CudaDriverApi& a, CUdevice cu, DeviceCheck& dev) {
  char name[256] = {};
  if (a.cuDeviceGetName(name, sizeof name - 1, cu) == kCudaSuccess) dev.name = name;
  auto attr = [&](int which) {
    int v = 0;
    return a.cuDeviceGetAttribute(&v, which, cu) == kCudaSuccess ? v : 0;
  };
  dev.cc_major = attr(kAttrComputeCapabilityMajor);
  dev.cc_minor = attr(kAttrComputeCapabilityMinor);
  dev.sm_count = attr(kAttrMultiprocessorCount);
  dev.clock_khz = attr(kAttrClockRateKhz);
  dev.memory_clock_khz = attr(kAttrMemoryClockRateKhz);
  dev.bus_width_bits = attr(kAttrGlobalMemoryBusWidth);
  size_t total = 0;
  if (a.cuDeviceTotalMem(&total, cu) == kCudaSuccess) dev.total_bytes = total;
  char bus[64] = {};
  if (a.cuDeviceGetPCIBusId && a.cuDeviceGetPCIBusId(bus, sizeof bus - 1, cu) == kCudaSuccess) {
    dev.pci_bus_id = to_lower(bus);
  } else {
    dev.pci_bus_id = fmt::format("{:04x}:{:02x}:{:02x}.0", attr(kAttrPciDomainId), attr(kAttrPciBusId),
                                 attr(kAttrPciDeviceId));
  }
}

namespace {

StepResult pass(std::string id, std::string title, std::string detail) {
  StepResult s;
  s.id = std::move(id);
  s.title = std::move(title);
  s.status = StepStatus::kPass;
  s.detail = std::move(detail);
  return s;
}

StepResult failed(std::string id, std::string title, std::string detail, std::string error_name = "") {
  StepResult s;
  s.id = std::move(id);
  s.title = std::move(title);
  s.status = StepStatus::kFail;
  s.detail = std::move(detail);
  s.error_name = std::move(error_name);
  s.fix = fix_for(s.id, s.error_name);
  return s;
}

StepResult driver_failed(const CudaDriver& d, std::string id, std::string title, const char* call, CUresult rc) {
  StepResult s = failed(std::move(id), std::move(title), fmt::format("{} returned {}", call, rc), d.error_name(rc));
  s.code = rc;
  s.error_text = d.error_text(rc);
  s.detail = fmt::format("{} failed: {}", call, s.error_name);
  return s;
}

StepResult skipped(std::string id, std::string title, std::string why) {
  StepResult s;
  s.id = std::move(id);
  s.title = std::move(title);
  s.status = StepStatus::kSkip;
  s.detail = std::move(why);
  return s;
}

std::string mib(uint64_t bytes) {
  if (bytes >= (1ull << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ull << 30));
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1ull << 20));
}

constexpr const char* kTitleContext = "Create the device's primary context";
constexpr const char* kTitleAlloc = "Allocate device memory";
constexpr const char* kTitleRoundtrip = "Copy host -> device -> host, compare byte for byte";
constexpr const char* kTitleKernel = "Run a kernel (embedded PTX, JIT-compiled) and check its result";
constexpr const char* kTitleFree = "Free device memory";
constexpr const char* kTitleMemory = "Read free/total device memory";

void skip_rest(DeviceCheck& dev, std::initializer_list<std::pair<const char*, const char*>> rest, const char* why) {
  for (const auto& [id, title] : rest) dev.steps.push_back(skipped(id, title, why));
}

void check_device(const CudaDriver& d, int ordinal, const DriverCheckOptions& opt, DeviceCheck& dev) {
  const auto& a = d.api();
  dev.ordinal = ordinal;
  CUdevice cu = 0;
  if (CUresult rc = a.cuDeviceGet(&cu, ordinal); rc != kCudaSuccess) {
    dev.steps.push_back(driver_failed(d, "device", "Open the device", "cuDeviceGet", rc));
    return;
  }
  read_device_properties(a, cu, dev);

  CUcontext ctx = nullptr;
  if (CUresult rc = a.cuDevicePrimaryCtxRetain(&ctx, cu); rc != kCudaSuccess) {
    dev.steps.push_back(driver_failed(d, "context", kTitleContext, "cuDevicePrimaryCtxRetain", rc));
    skip_rest(dev,
              {{"alloc", kTitleAlloc}, {"roundtrip", kTitleRoundtrip}, {"kernel", kTitleKernel},
               {"free", kTitleFree}, {"memory", kTitleMemory}},
              "needs a context");
    return;
  }
  if (CUresult rc = a.cuCtxSetCurrent(ctx); rc != kCudaSuccess) {
    dev.steps.push_back(driver_failed(d, "context", kTitleContext, "cuCtxSetCurrent", rc));
    a.cuDevicePrimaryCtxRelease(cu);
    skip_rest(dev,
              {{"alloc", kTitleAlloc}, {"roundtrip", kTitleRoundtrip}, {"kernel", kTitleKernel},
               {"free", kTitleFree}, {"memory", kTitleMemory}},
              "needs a context");
    return;
  }
  dev.steps.push_back(pass("context", kTitleContext, fmt::format("device {} ({})", ordinal, dev.name)));

  // Allocate: one buffer for the round trip, two for the kernel.
  const size_t rt_bytes = opt.roundtrip_bytes;
  const unsigned n = opt.kernel_elements;
  const size_t vec_bytes = static_cast<size_t>(n) * sizeof(float);
  CUdeviceptr rt = 0, x = 0, y = 0;
  CUresult rc = a.cuMemAlloc(&rt, rt_bytes);
  const char* failed_call = "cuMemAlloc";
  if (rc == kCudaSuccess) rc = a.cuMemAlloc(&x, vec_bytes);
  if (rc == kCudaSuccess) rc = a.cuMemAlloc(&y, vec_bytes);
  auto free_all = [&] {
    CUresult worst = kCudaSuccess;
    for (CUdeviceptr p : {rt, x, y}) {
      if (!p) continue;
      CUresult r = a.cuMemFree(p);
      if (r != kCudaSuccess && worst == kCudaSuccess) worst = r;
    }
    rt = x = y = 0;
    return worst;
  };
  if (rc != kCudaSuccess) {
    dev.steps.push_back(driver_failed(d, "alloc", kTitleAlloc, failed_call, rc));
    free_all();
    skip_rest(dev, {{"roundtrip", kTitleRoundtrip}, {"kernel", kTitleKernel}}, "needs device memory");
  } else {
    dev.steps.push_back(pass("alloc", kTitleAlloc, fmt::format("{} in 3 buffers", mib(rt_bytes + 2 * vec_bytes))));

    // Round trip: a pattern no stuck bit or dropped page can reproduce by accident.
    std::vector<unsigned char> out(rt_bytes), back(rt_bytes, 0);
    for (size_t i = 0; i < rt_bytes; ++i) out[i] = static_cast<unsigned char>((i * 131u + (i >> 8) * 7u + 0x5a) & 0xff);
    if ((rc = a.cuMemcpyHtoD(rt, out.data(), rt_bytes)) != kCudaSuccess) {
      dev.steps.push_back(driver_failed(d, "roundtrip", kTitleRoundtrip, "cuMemcpyHtoD", rc));
    } else if ((rc = a.cuMemcpyDtoH(back.data(), rt, rt_bytes)) != kCudaSuccess) {
      dev.steps.push_back(driver_failed(d, "roundtrip", kTitleRoundtrip, "cuMemcpyDtoH", rc));
    } else {
      size_t bad = rt_bytes, mismatches = 0;
      for (size_t i = 0; i < rt_bytes; ++i) {
        if (out[i] != back[i]) {
          if (bad == rt_bytes) bad = i;
          ++mismatches;
        }
      }
      if (mismatches == 0) {
        dev.steps.push_back(pass("roundtrip", kTitleRoundtrip, fmt::format("{} matched", mib(rt_bytes))));
      } else {
        dev.steps.push_back(failed("roundtrip", kTitleRoundtrip,
                                   fmt::format("{} of {} bytes differ; first at offset {}: wrote 0x{:02x}, read 0x{:02x}",
                                               mismatches, rt_bytes, bad, out[bad], back[bad])));
      }
    }

    // Kernel: y = a*x + y on small integers, exact in float, so any difference is an error.
    std::vector<float> hx(n), hy(n), got(n, 0.0f);
    for (unsigned i = 0; i < n; ++i) {
      hx[i] = static_cast<float>(i % 1000);
      hy[i] = 2.0f;
    }
    float alpha = 3.0f;
    CUmodule mod = nullptr;
    CUfunction fn = nullptr;
    if ((rc = a.cuModuleLoadData(&mod, kernels_ptx())) != kCudaSuccess) {
      dev.steps.push_back(driver_failed(d, "kernel", kTitleKernel, "cuModuleLoadData", rc));
    } else if ((rc = a.cuModuleGetFunction(&fn, mod, kSaxpyKernel)) != kCudaSuccess) {
      dev.steps.push_back(driver_failed(d, "kernel", kTitleKernel, "cuModuleGetFunction", rc));
    } else if ((rc = a.cuMemcpyHtoD(x, hx.data(), vec_bytes)) != kCudaSuccess ||
               (rc = a.cuMemcpyHtoD(y, hy.data(), vec_bytes)) != kCudaSuccess) {
      dev.steps.push_back(driver_failed(d, "kernel", kTitleKernel, "cuMemcpyHtoD", rc));
    } else {
      unsigned count = n;
      void* params[] = {&alpha, &x, &y, &count};
      const unsigned block = 256;
      if ((rc = a.cuLaunchKernel(fn, (n + block - 1) / block, 1, 1, block, 1, 1, 0, nullptr, params, nullptr)) !=
          kCudaSuccess) {
        dev.steps.push_back(driver_failed(d, "kernel", kTitleKernel, "cuLaunchKernel", rc));
      } else if ((rc = a.cuCtxSynchronize()) != kCudaSuccess) {
        dev.steps.push_back(driver_failed(d, "kernel", kTitleKernel, "cuCtxSynchronize", rc));
      } else if ((rc = a.cuMemcpyDtoH(got.data(), y, vec_bytes)) != kCudaSuccess) {
        dev.steps.push_back(driver_failed(d, "kernel", kTitleKernel, "cuMemcpyDtoH", rc));
      } else {
        std::optional<unsigned> bad;
        unsigned wrong = 0;
        for (unsigned i = 0; i < n; ++i) {
          if (got[i] != alpha * hx[i] + hy[i]) {
            if (!bad) bad = i;
            ++wrong;
          }
        }
        if (!bad) {
          dev.steps.push_back(pass("kernel", kTitleKernel, fmt::format("{}: {} results correct", kSaxpyKernel, n)));
        } else {
          dev.steps.push_back(failed("kernel", kTitleKernel,
                                     fmt::format("wrong result: {} of {} elements differ; y[{}] = {} (expected {})",
                                                 wrong, n, *bad, got[*bad], alpha * hx[*bad] + hy[*bad])));
        }
      }
    }
    if (mod) a.cuModuleUnload(mod);

    if (CUresult fr = free_all(); fr != kCudaSuccess) {
      dev.steps.push_back(driver_failed(d, "free", kTitleFree, "cuMemFree", fr));
    } else {
      dev.steps.push_back(pass("free", kTitleFree, "3 buffers freed"));
    }
  }
  if (dev.steps.back().id != "free") dev.steps.push_back(skipped("free", kTitleFree, "nothing allocated"));

  size_t free_b = 0, total_b = 0;
  if ((rc = a.cuMemGetInfo(&free_b, &total_b)) != kCudaSuccess) {
    dev.steps.push_back(driver_failed(d, "memory", kTitleMemory, "cuMemGetInfo", rc));
  } else {
    dev.free_bytes = free_b;
    if (total_b) dev.total_bytes = total_b;
    dev.steps.push_back(pass("memory", kTitleMemory, fmt::format("{} free of {}", mib(free_b), mib(total_b))));
  }
  a.cuCtxSetCurrent(nullptr);
  a.cuDevicePrimaryCtxRelease(cu);
}

}  // namespace

VerifyReport run_driver_check(const DriverCheckOptions& opt) {
  VerifyReport r;
  auto candidates = opt.driver_candidates.empty() ? default_cuda_driver_candidates() : opt.driver_candidates;
  constexpr const char* kTitleLoad = "Load the CUDA driver library";
  auto driver = CudaDriver::open(candidates, &r.load);
  if (!driver) {
    if (r.load.opened.empty()) {
      r.steps.push_back(failed("load_driver", kTitleLoad, driver.error().message));
    } else {
      r.steps.push_back(pass("load_driver", kTitleLoad, fmt::format("{} -> {}", r.load.opened, r.load.path)));
      r.steps.push_back(failed("bind_driver", "Find the driver's entry points", driver.error().message));
    }
    return r;
  }
  const CudaDriver& d = *driver;
  const auto& a = d.api();
  r.steps.push_back(pass("load_driver", kTitleLoad, fmt::format("{} -> {}", r.load.opened, r.load.path)));

  if (a.cuDriverGetVersion(&r.driver_cuda_version) != kCudaSuccess) r.driver_cuda_version = 0;
  constexpr const char* kTitleInit = "Initialise the driver (cuInit)";
  if (CUresult rc = a.cuInit(0); rc != kCudaSuccess) {
    r.steps.push_back(driver_failed(d, "init", kTitleInit, "cuInit", rc));
    return r;
  }
  r.steps.push_back(pass("init", kTitleInit,
                         fmt::format("driver supports CUDA up to {}", cuda_version_text(r.driver_cuda_version))));

  constexpr const char* kTitleCount = "Count the GPUs the driver sees";
  int count = 0;
  if (CUresult rc = a.cuDeviceGetCount(&count); rc != kCudaSuccess) {
    r.steps.push_back(driver_failed(d, "device_count", kTitleCount, "cuDeviceGetCount", rc));
    return r;
  }
  if (count <= 0) {
    r.steps.push_back(failed("device_count", kTitleCount, "the driver reports 0 devices"));
    return r;
  }
  r.steps.push_back(pass("device_count", kTitleCount, fmt::format("{} device{}", count, count == 1 ? "" : "s")));
  for (int i = 0; i < count; ++i) {
    DeviceCheck dev;
    check_device(d, i, opt, dev);
    r.devices.push_back(std::move(dev));
  }
  return r;
}

// ---- JSON ----------------------------------------------------------------------

namespace {

nlohmann::json step_json(const StepResult& s) {
  nlohmann::json j = {{"id", s.id}, {"title", s.title}, {"status", to_string(s.status)}, {"detail", s.detail}};
  if (s.code != 0) j["code"] = s.code;
  if (!s.error_name.empty()) j["error_name"] = s.error_name;
  if (!s.error_text.empty()) j["error_text"] = s.error_text;
  if (!s.fix.empty()) j["fix"] = s.fix;
  return j;
}

std::string str_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

template <typename T>
T num_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return T{};
  return it->get<T>();
}

Result<StepResult> step_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return fail(Error::input("step is not an object"));
  StepResult s;
  s.id = str_field(j, "id");
  if (s.id.empty()) return fail(Error::input("step without an id"));
  s.title = str_field(j, "title");
  std::string st = str_field(j, "status");
  if (st == "pass") {
    s.status = StepStatus::kPass;
  } else if (st == "fail") {
    s.status = StepStatus::kFail;
  } else if (st == "skip") {
    s.status = StepStatus::kSkip;
  } else {
    return fail(Error::input(fmt::format("step {}: unknown status '{}'", s.id, st)));
  }
  s.detail = str_field(j, "detail");
  s.code = num_field<int>(j, "code");
  s.error_name = str_field(j, "error_name");
  s.error_text = str_field(j, "error_text");
  s.fix = str_field(j, "fix");
  return s;
}

Result<std::vector<StepResult>> steps_from_json(const nlohmann::json& j, const char* key) {
  std::vector<StepResult> out;
  auto it = j.find(key);
  if (it == j.end()) return out;
  if (!it->is_array()) return fail(Error::input(fmt::format("'{}' is not an array", key)));
  for (const auto& s : *it) {
    auto step = step_from_json(s);
    if (!step) return fail(step.error());
    out.push_back(std::move(*step));
  }
  return out;
}

std::vector<std::string> string_list(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const VerifyReport& r) {
  nlohmann::json j;
  j["schema"] = "tfgpu.verify/1";
  j["passed"] = r.passed();
  j["driver_library"] = {{"tried", r.load.tried}, {"errors", r.load.errors}, {"opened", r.load.opened},
                         {"path", r.load.path}};
  j["driver_cuda_version"] = r.driver_cuda_version;
  if (!r.child_failure.empty()) j["child_failure"] = r.child_failure;
  j["steps"] = nlohmann::json::array();
  for (const auto& s : r.steps) j["steps"].push_back(step_json(s));
  j["devices"] = nlohmann::json::array();
  for (const auto& d : r.devices) {
    nlohmann::json dj = {{"ordinal", d.ordinal},
                         {"name", d.name},
                         {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                         {"pci_bus_id", d.pci_bus_id},
                         {"total_bytes", d.total_bytes},
                         {"free_bytes", d.free_bytes},
                         {"sm_count", d.sm_count},
                         {"clock_khz", d.clock_khz},
                         {"memory_clock_khz", d.memory_clock_khz},
                         {"bus_width_bits", d.bus_width_bits},
                         {"passed", d.passed()}};
    dj["steps"] = nlohmann::json::array();
    for (const auto& s : d.steps) dj["steps"].push_back(step_json(s));
    j["devices"].push_back(std::move(dj));
  }
  return j;
}

Result<VerifyReport> verify_report_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return fail(Error::input("verify report is not a JSON object"));
  if (str_field(j, "schema") != "tfgpu.verify/1") return fail(Error::input("not a tfgpu.verify/1 report"));
  VerifyReport r;
  if (auto lib = j.find("driver_library"); lib != j.end() && lib->is_object()) {
    r.load.tried = string_list(*lib, "tried");
    r.load.errors = string_list(*lib, "errors");
    r.load.opened = str_field(*lib, "opened");
    r.load.path = str_field(*lib, "path");
  }
  r.driver_cuda_version = num_field<int>(j, "driver_cuda_version");
  r.child_failure = str_field(j, "child_failure");
  auto steps = steps_from_json(j, "steps");
  if (!steps) return fail(steps.error());
  r.steps = std::move(*steps);
  if (auto devs = j.find("devices"); devs != j.end()) {
    if (!devs->is_array()) return fail(Error::input("'devices' is not an array"));
    for (const auto& dj : *devs) {
      if (!dj.is_object()) return fail(Error::input("device is not an object"));
      DeviceCheck d;
      d.ordinal = num_field<int>(dj, "ordinal");
      d.name = str_field(dj, "name");
      std::string cc = str_field(dj, "compute_capability");
      if (auto dot = cc.find('.'); dot != std::string::npos) {
        d.cc_major = std::atoi(cc.substr(0, dot).c_str());
        d.cc_minor = std::atoi(cc.substr(dot + 1).c_str());
      }
      d.pci_bus_id = str_field(dj, "pci_bus_id");
      d.total_bytes = num_field<uint64_t>(dj, "total_bytes");
      d.free_bytes = num_field<uint64_t>(dj, "free_bytes");
      d.sm_count = num_field<int>(dj, "sm_count");
      d.clock_khz = num_field<int>(dj, "clock_khz");
      d.memory_clock_khz = num_field<int>(dj, "memory_clock_khz");
      d.bus_width_bits = num_field<int>(dj, "bus_width_bits");
      auto ds = steps_from_json(dj, "steps");
      if (!ds) return fail(ds.error());
      d.steps = std::move(*ds);
      r.devices.push_back(std::move(d));
    }
  }
  return r;
}

}  // namespace tfgpu::gpu
