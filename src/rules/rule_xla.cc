// Rule: XLA (jit_compile, and some ops by default) needs `ptxas` and libdevice from a
// CUDA toolkit or the nvidia-cuda-nvcc wheel; without them those models fail with
// "Couldn't find ptxas" / "libdevice not found".
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_xla(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (s.host.os != "linux" || !runtime_looked(s)) return out;
  bool toolkit = false;
  for (const auto& c : s.cuda) toolkit = toolkit || c.kind == "toolkit";
  for (const auto& f : s.libraries) toolkit = toolkit || f.name == "ptxas";
  if (toolkit) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    if (!packages_with_prefix(*e.py, "nvidia-cuda-nvcc").empty()) continue;
    Finding f;
    f.id = "xla_ptxas_or_libdevice_missing";
    f.layer = Layer::kRuntime;
    f.severity = Severity::kWarning;
    f.env = e.label;
    f.title = "No ptxas / libdevice: models using XLA (jit_compile=True) will fail to compile";
    f.evidence.push_back(fact("no CUDA toolkit with bin/ptxas found", "runtime probe"));
    f.evidence.push_back(fact(fmt::format("no nvidia-cuda-nvcc-* wheel in {}", e.label), "python packages"));
    std::string py = e.py->executable.empty() ? "python" : e.py->executable;
    f.fix.push_back(fmt::format("{} -m pip install \"nvidia-cuda-nvcc-cu{}\" (part of tensorflow[and-cuda])", py, e.release->cuda.major()));
    f.fix.push_back("Put its ptxas on PATH (TensorFlow's pip guide): ln -sf $(python -c 'import nvidia.cuda_nvcc,os;print(os.path.dirname(nvidia.cuda_nvcc.__file__))')/bin/ptxas $(dirname $(which python))/ptxas");
    f.fix.push_back(fmt::format("Or, with a system CUDA {} toolkit: export XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda-{}", e.release->cuda.str(), e.release->cuda.str()));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
