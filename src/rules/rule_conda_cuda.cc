// Rule: one CUDA per conda environment. conda's cudatoolkit/cudnn packages next to pip
// nvidia-* wheels or a TF built for another CUDA major load a mix, or the wrong one.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

std::vector<Finding> rule_conda_cuda(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (!probed(s.runtime_state)) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (e.py->kind != "conda" || !e.release || !tf_gpu_build(e, s, kb)) continue;
    const CudaInstall* conda = nullptr;
    const CudaInstall* pip = nullptr;
    for (const auto& c : s.cuda) {
      if (c.kind == "conda" && under_dir(s, c.root, e.py->prefix)) conda = &c;
      if (c.kind == "pip") {
        for (const auto& sp : e.py->site_packages) pip = under_dir(s, c.root, sp) ? &c : pip;
      }
    }
    if (!conda) continue;
    auto cv = Version::parse(conda->version);
    if (!cv) continue;
    Finding f;
    f.id = "conda_cuda_conflict";
    f.layer = Layer::kRuntime;
    f.severity = Severity::kBlocker;
    f.env = e.label;
    f.evidence.push_back(fact(fmt::format("conda {} {} in {}", conda->package.empty() ? "cudatoolkit" : conda->package, conda->version, conda->root),
                              conda->version_source.empty() ? "conda-meta" : conda->version_source));
    std::string py = e.py->executable.empty() ? "python" : e.py->executable;
    if (pip) {
      auto pv = Version::parse(pip->version);
      if (!pv || pv->major() == cv->major()) continue;
      f.title = fmt::format("conda CUDA {} and pip CUDA {} wheels in one environment", cv->truncated(2).str(), pv->truncated(2).str());
      f.evidence.push_back(fact(fmt::format("pip {} {} in {}", pip->package, pip->version, pip->root), pip->version_source.empty() ? "dist-info" : pip->version_source));
    } else if (cv->major() != e.release->cuda.major()) {
      f.title = fmt::format("conda cudatoolkit {} in this environment, but TensorFlow {} needs CUDA {}", cv->truncated(2).str(),
                            e.tf->version, e.release->cuda.str());
    } else {
      continue;
    }
    f.evidence.push_back(cite(kb.cite(*e.release), fmt::format("TensorFlow {} was built with CUDA {}", e.release->series().str(), e.release->cuda.str())));
    if (is_windows(s)) {
      f.fix.push_back(fmt::format("conda activate {} && conda install -c conda-forge cudatoolkit={} cudnn={}",
                                  e.py->name.empty() ? e.py->prefix : e.py->name, e.release->cuda.str(), e.release->cudnn.str()));
    } else {
      f.fix.push_back(fmt::format("conda activate {} && conda remove --force cudatoolkit cudnn", e.py->name.empty() ? e.py->prefix : e.py->name));
      f.fix.push_back("Remove the old LD_LIBRARY_PATH hook if the TF 2.12-era guide added it: rm $CONDA_PREFIX/etc/conda/activate.d/env_vars.sh");
      if (has_and_cuda_extra(kb, *e.release))
        f.fix.push_back(fmt::format("{} -m pip install \"tensorflow[and-cuda]=={}\" (CUDA as pip wheels, found by TensorFlow itself)", py, e.tf->version));
      else
        f.fix = [&] { auto v = f.fix; for (auto& st : install_cuda_steps(s, e, kb)) v.push_back(st); return v; }();
    }
    f.fix.push_back("Open a new shell, activate the env, run `tfgpu doctor`");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
