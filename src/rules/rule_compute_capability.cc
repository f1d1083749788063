// Rule: the TensorFlow build has kernels for the GPU's compute capability (KB: the
// architectures each release compiled in). Below the lowest one TF ignores the device;
// with only PTX of a lower arch it JIT-compiles every kernel on first use.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_compute_capability(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto wp = wheel_platform(s);
  if (!wp || s.gpus.empty()) return out;
  // Identical GPUs (same name and compute capability) are one group, read once: a machine
  // with 20,000 of them gives one evidence line per environment, not 20,000, and the rule
  // stays linear in the snapshot's size.
  struct GpuGroup {
    std::string name;
    kb::ComputeCapability cc;
    std::string source;
    size_t count = 0;
  };
  std::vector<GpuGroup> groups;
  std::map<std::pair<std::string, std::string>, size_t> group_of;
  for (const auto& g : s.gpus) {
    auto cc = gpu_cc(g, kb);
    if (!cc) continue;
    std::string name = g.name.empty() ? g.pci_id : g.name;
    auto [it, added] = group_of.try_emplace({name, cc->str()}, groups.size());
    if (added) groups.push_back({name, *cc, g.source.empty() ? "hardware probe" : g.source, 0});
    ++groups[it->second].count;
  }
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    Finding ignored, jit;
    size_t n_ignored = 0;
    for (const auto& grp : groups) {
      const kb::ComputeCapability* cc = &grp.cc;
      kb::CcSupportResult r = kb.tf_cc_support(*e.release, *cc);
      if (r.support == kb::CcSupport::kUnknown) {
        // The release's compiled list is not known: fall back to what its CUDA can build.
        if (const kb::CudaRelease* cuda = kb.find_cuda(e.release->cuda); cuda && *cc < cuda->sass_min) {
          r.support = kb::CcSupport::kIgnored;
          r.min_required = cuda->sass_min;
          r.detail = fmt::format("CUDA {} cannot build for compute capability below {}", cuda->version.str(), cuda->sass_min.str());
          r.cites = {kb.cite_cc(*cuda)};
        }
      }
      std::string gpu = fmt::format("{}{} (compute capability {})", grp.count > 1 ? fmt::format("{} x ", grp.count) : "",
                                    grp.name, cc->str());
      if (r.support == kb::CcSupport::kIgnored) {
        n_ignored += grp.count;
        ignored.evidence.push_back(fact(gpu, grp.source));
        ignored.evidence.push_back(cite(r.cites.empty() ? kb.cite_cc(*e.release) : r.cites.front(), r.detail));
        if (!ignored.title.empty()) continue;
        ignored.title = fmt::format("{} is below what TensorFlow {} supports (lowest: {}): TF ignores it", gpu, e.tf->version,
                                    r.min_required ? r.min_required->str() : std::string("?"));
        // The newest release that still has kernels for this card (KB).
        const kb::TfRelease* fits = nullptr;
        for (const auto& rel : kb.tf_releases()) {
          if (!rel.has_gpu_build(*wp)) continue;
          auto sup = kb.tf_cc_support(rel, *cc).support;
          if (sup == kb::CcSupport::kNative || sup == kb::CcSupport::kPtxJit) fits = &rel;
        }
        if (fits)
          ignored.fix.push_back(fmt::format("Use TensorFlow {} (the newest release known to have kernels for compute capability {}): pip install \"tensorflow=={}.*\"{}",
                                            fits->series().str(), cc->str(), fits->series().str(),
                                            fits->cuda.major() != e.release->cuda.major() ? fmt::format(" with CUDA {} / cuDNN {}", fits->cuda.str(), fits->cudnn.str()) : ""));
        ignored.fix.push_back(fmt::format("Or use a GPU with compute capability {} or newer", r.min_required ? r.min_required->str() : std::string("higher")));
      } else if (r.support == kb::CcSupport::kPtxJit) {
        jit.evidence.push_back(fact(gpu, grp.source));
        jit.evidence.push_back(cite(r.cites.empty() ? kb.cite_cc(*e.release) : r.cites.front(), r.detail));
        if (!jit.title.empty()) continue;
        jit.title = fmt::format("TensorFlow {} has no native kernels for {}: the first start JIT-compiles them from PTX (can take many minutes)",
                                e.tf->version, gpu);
        jit.fix.push_back(is_windows(s) ? "Keep the JIT cache between runs: setx CUDA_CACHE_MAXSIZE 4294967296 (then open a new terminal)"
                                        : "Keep the JIT cache between runs: export CUDA_CACHE_MAXSIZE=4294967296 (add to ~/.bashrc)");
        jit.fix.push_back("Expect the first run to pause while kernels compile; later runs reuse the cache");
        for (const auto& rel : kb.tf_releases())
          if (rel.has_gpu_build(*wp) && rel.version > e.release->version && kb.tf_cc_support(rel, *cc).support == kb::CcSupport::kNative) {
            jit.fix.push_back(fmt::format("Or use TensorFlow {} or newer, which has native kernels for this GPU", rel.series().str()));
            break;
          }
      }
    }
    if (!ignored.title.empty()) {
      ignored.id = "compute_capability_unsupported";
      ignored.layer = Layer::kHardware;
      // All GPUs ignored: no GPU for TF. Some: the others still work.
      ignored.severity = n_ignored >= s.gpus.size() ? Severity::kBlocker : Severity::kWarning;
      ignored.env = e.label;
      out.push_back(std::move(ignored));
    }
    if (!jit.title.empty()) {
      jit.id = "ptx_jit_slow";
      jit.layer = Layer::kHardware;
      jit.severity = Severity::kWarning;
      jit.env = e.label;
      out.push_back(std::move(jit));
    }
  }
  return out;
}

}  // namespace tfgpu::rules
