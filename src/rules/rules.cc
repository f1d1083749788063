#include "rules/rules.h"

#include <algorithm>

#include "rules/rule_list.h"
#include "rules/runtime_loads.h"

namespace tfgpu {

std::span<const RuleSpec> rule_table() {
  using namespace rules;
  // Most fundamental first: a platform without a CUDA build beats everything; then
  // the package, the interpreter, the CPU; then hardware and driver (bottom of the
  // stack up); then the CUDA runtime; then advice.
  static const RuleSpec kRules[] = {
      {"platform", "a CUDA build of this TensorFlow exists for this OS", {"macos_gpu_unsupported", "windows_native_gpu_unsupported_tf_ge_2_11"}, rule_platform},
      {"package", "the TensorFlow package is a GPU flavour, installed once", {"wrong_package"}, rule_package},
      {"pip_constraints", "packages next to TF meet the KB's pip constraints (NumPy < 2 before 2.18)", {"numpy_abi_mismatch"}, rule_pip_constraints},
      {"python", "the interpreter is 64-bit and a version TF has wheels for", {"python_32bit", "python_version_unsupported"}, rule_python},
      {"cpu", "the CPU has the instructions the wheel needs (AVX)", {"cpu_no_avx"}, rule_cpu},
      {"gpu_presence", "an NVIDIA GPU is present", {"no_nvidia_gpu"}, rule_gpu_presence},
      {"container", "a container was started with GPU access", {"container_gpu_runtime_missing"}, rule_container},
      {"wsl", "WSL2 uses the Windows driver's libcuda", {"wsl_libcuda"}, rule_wsl},
      {"driver_presence", "an NVIDIA driver is installed", {"driver_missing"}, rule_driver_presence},
      {"driver_mismatch", "kernel module and driver libraries agree", {"driver_library_mismatch"}, rule_driver_mismatch},
      {"device_visibility", "the process can see a device (CUDA_VISIBLE_DEVICES)", {"no_device_visible"}, rule_device_visibility},
      {"driver_version", "the driver is new enough for TF's CUDA", {"driver_too_old"}, rule_driver_version},
      {"nvml", "the driver's NVML loads where TF initialises it with the CUDA platform", {"nvml_missing"}, rule_nvml},
      {"compute_capability", "TF has kernels for the GPU's compute capability", {"compute_capability_unsupported", "ptx_jit_slow"}, rule_compute_capability},
      {"msvc_runtime", "the Visual C++ runtime is installed (Windows)", {"msvc_runtime_missing"}, rule_msvc_runtime},
      {"conda_cuda", "one CUDA per conda environment", {"conda_cuda_conflict"}, rule_conda_cuda},
      {"cuda_libraries", "every CUDA library TF must load resolves", {"cudart_missing", "cuda_version_mismatch", "env_path_not_set", "pip_nvidia_libs_not_found"}, rule_cuda_libraries},
      {"cudnn", "cuDNN resolves, is new enough, and is complete", {"cudnn_missing", "cudnn_version_mismatch", "cudnn_incomplete", "env_path_not_set", "pip_nvidia_libs_not_found"}, rule_cudnn},
      {"zlibwapi", "cuDNN 8.3+ on Windows finds zlibwapi.dll", {"zlibwapi_missing"}, rule_zlibwapi},
      {"multiple_cuda", "one CUDA version on the search path", {"multiple_cuda_on_path"}, rule_multiple_cuda},
      {"stray_library", "TF's CUDA libraries come from an install, not a stray copy ahead of it", {"cuda_library_shadowed"}, rule_stray_library},
      {"other_cuda_major", "TF's CUDA libraries come from the CUDA major it was built for", {"cuda_library_other_major"}, rule_other_cuda_major},
      {"path_planting", "no world-writable folder ahead of the CUDA folders, no current directory on LD_LIBRARY_PATH", {"library_path_world_writable", "library_path_current_dir"}, rule_path_planting},
      {"xla", "XLA finds ptxas and libdevice", {"xla_ptxas_or_libdevice_missing"}, rule_xla},
      {"tensorrt", "TensorRT (TF-TRT only): its warning is harmless", {"tensorrt_not_found"}, rule_tensorrt},
      {"memory", "GPU memory: preallocation and other holders", {"gpu_memory_preallocation"}, rule_memory},
      {"mixed_precision", "Tensor Cores: recommend mixed precision", {"mixed_precision_available"}, rule_mixed_precision},
      {"device_placement", "training not faster: how to check placement", {"device_placement_check"}, rule_device_placement},
      {"tf_presence", "some environment has TensorFlow", {"tensorflow_not_installed"}, rule_tf_presence},
  };
  return kRules;
}

int fundamental_rank(std::string_view finding_id) {
  int i = 0;
  for (const auto& r : rule_table()) {
    for (const char* id : r.ids)
      if (finding_id == id) return i;
    ++i;
  }
  return i;
}

std::vector<Finding> run_rules(const Snapshot& s, const kb::KnowledgeBase& kb) {
  // Every rule that asks where a library loads from shares one simulation per environment.
  rules::LoaderScope loads(s, kb);
  std::vector<std::pair<int, Finding>> all;
  int i = 0;
  for (const auto& r : rule_table()) {
    for (auto& f : r.run(s, kb)) all.emplace_back(i, std::move(f));
    ++i;
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (a.second.severity != b.second.severity) return a.second.severity < b.second.severity;  // blocker < warning < info
    return a.first < b.first;
  });
  std::vector<Finding> out;
  out.reserve(all.size());
  for (auto& [rank, f] : all) out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu
