#include "probe/runtime_names.h"

#include <cctype>
#include <utility>

#include "util/strings.h"

namespace tfgpu::probe {

namespace {

// Linux base names, longest first where one is a prefix of another.
const std::pair<const char*, const char*> kLinux[] = {
    {"libcudart", "cudart"},     {"libcublasLt", "cublasLt"},   {"libcublas", "cublas"},
    {"libcufft", "cufft"},       {"libcurand", "curand"},       {"libcusolver", "cusolver"},
    {"libcusparse", "cusparse"}, {"libnvJitLink", "nvjitlink"}, {"libcupti", "cupti"},
    {"libnccl", "nccl"},         {"libnvrtc", "nvrtc"},         {"libcuda", "cuda_driver"},
    {"libnvidia-ml", "nvml"},    {"libcudnn", "cudnn"},         {"libnvinfer_plugin", "tensorrt_plugin"},
    {"libnvinfer", "tensorrt"},
};

// Windows DLL stems: <stem>64_<ver>.dll or <stem>_<ver>.dll.
const std::pair<const char*, const char*> kWindows[] = {
    {"cudart64_", "cudart"},   {"cublasLt64_", "cublasLt"}, {"cublas64_", "cublas"},
    {"cufft64_", "cufft"},     {"curand64_", "curand"},     {"cusolver64_", "cusolver"},
    {"cusparse64_", "cusparse"}, {"nvJitLink_", "nvjitlink"}, {"cupti64_", "cupti"},
    {"nvrtc64_", "nvrtc"},     {"cudnn64_", "cudnn"},
};

}  // namespace

std::string library_component(const std::string& name) {
  // Called for every file the probe lists and every name the loader model searches for:
  // no allocation until a match.
  if (ends_with(name, ".a") || name.find("nvrtc-builtins") != std::string::npos ||
      name.find(".alt.") != std::string::npos)
    return "";
  const std::string_view n = name;
  for (const auto& [base, comp] : kLinux) {
    const std::string_view b = base;
    // libcudnn_ops.so.9 -> cudnn_ops (cuDNN 8/9 split libraries)
    if (b == "libcudnn" && starts_with(n, "libcudnn_")) {
      auto so = n.find(".so");
      if (so == std::string_view::npos) return "";
      return name.substr(3, so - 3);
    }
    if (!starts_with(n, b)) continue;
    const std::string_view rest = n.substr(b.size());
    if (rest == ".so" || starts_with(rest, ".so.")) return comp;
  }
  if (n.size() < 4 || !iequals(n.substr(n.size() - 4), ".dll")) return "";
  std::string lower = to_lower(name);
  if (lower == "nvcuda.dll") return "cuda_driver";
  if (lower == "nvml.dll") return "nvml";
  if (lower == "zlibwapi.dll") return "zlibwapi";
  if (lower == "msvcp140.dll") return "msvcp140";
  if (lower == "msvcp140_1.dll") return "msvcp140_1";
  for (const auto& [stem, comp] : kWindows) {
    const std::string_view st = stem;
    if (lower.size() >= st.size() && iequals(std::string_view(lower).substr(0, st.size()), st)) return comp;
  }
  // cudnn_ops64_9.dll, cudnn_cnn_infer64_8.dll
  if (starts_with(lower, "cudnn_")) {
    auto pos = lower.find("64_");
    if (pos != std::string::npos) return name.substr(0, pos);
  }
  return "";
}

std::string version_from_file_name(const std::string& name) {
  auto so = name.find(".so.");
  if (so == std::string::npos) return "";
  std::string v = name.substr(so + 4);
  if (v.empty() || v.find('.') == std::string::npos) return "";
  for (char c : v)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return "";
  return v;
}

std::vector<std::string> components_of_package(const std::string& raw) {
  std::string n = to_lower(raw);
  for (char& c : n)
    if (c == '_') c = '-';
  // pip: nvidia-<x>[-cu11|-cu12|-cu13]; version.json: cuda_<x> / lib<x>.
  if (starts_with(n, "nvidia-")) n = n.substr(7);
  for (const char* suffix : {"-cu11", "-cu12", "-cu13"})
    if (ends_with(n, suffix)) n = n.substr(0, n.size() - 5);
  if (n == "cuda-runtime" || n == "cuda-cudart") return {"cudart"};
  if (n == "cublas" || n == "libcublas") return {"cublas", "cublasLt"};
  if (n == "cufft" || n == "libcufft") return {"cufft"};
  if (n == "curand" || n == "libcurand") return {"curand"};
  if (n == "cusolver" || n == "libcusolver") return {"cusolver"};
  if (n == "cusparse" || n == "libcusparse") return {"cusparse"};
  if (n == "cuda-nvrtc") return {"nvrtc"};
  if (n == "nvjitlink" || n == "libnvjitlink") return {"nvjitlink"};
  if (n == "cuda-cupti") return {"cupti"};
  if (n == "nccl") return {"nccl"};
  if (n == "cudnn") return {"cudnn"};
  return {};
}

}  // namespace tfgpu::probe
