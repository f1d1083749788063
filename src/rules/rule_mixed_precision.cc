// Rule: recommend mixed precision where the GPU has Tensor Cores (the KB's
// tensor_core_math rows: the lowest compute capability for fp16 and for bf16 Tensor
// Core math; shared/facts/nvidia.md §4c), with what it buys from the KB's peak numbers
// where known.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_mixed_precision(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  bool any_gpu_tf = false;
  for (const auto& e : tf_envs(s, kb)) any_gpu_tf = any_gpu_tf || tf_gpu_build(e, s, kb);
  if (!any_gpu_tf) return out;
  // The KB marks the few parts above the threshold that lack Tensor Cores (GTX 16xx).
  const kb::TensorCoreMath* fp16 = kb.tensor_core_min("fp16");
  const kb::TensorCoreMath* bf16_row = kb.tensor_core_min("bf16");
  if (!fp16) return out;
  for (const auto& g : s.gpus) {
    auto cc = gpu_cc(g, kb);
    if (!cc || *cc < fp16->min_cc) continue;
    const kb::Gpu* row = kb_gpu(g, kb);
    if (row && row->tensor_cores && !*row->tensor_cores) continue;
    Finding f;
    f.id = "mixed_precision_available";
    f.layer = Layer::kHardware;
    f.severity = Severity::kInfo;
    std::string name = g.name.empty() ? (row ? row->name : g.pci_id) : g.name;
    f.title = fmt::format("{} has Tensor Cores (compute capability {}): mixed precision can speed up training", name, cc->str());
    f.evidence.push_back(fact(fmt::format("{}: compute capability {}", name, cc->str()), g.compute_capability.empty() ? "kb: gpus.toml" : g.source));
    if (row && row->peak && row->peak->fp32_tflops && row->peak->fp16_tflops)
      f.evidence.push_back(cite(kb.cite_peak(*row), fmt::format("peak FP16 Tensor Core {:.1f} TFLOPS vs FP32 {:.1f} TFLOPS ({:.1f}x)", *row->peak->fp16_tflops,
                                                                *row->peak->fp32_tflops, *row->peak->fp16_tflops / *row->peak->fp32_tflops)));
    f.evidence.push_back(cite(kb.cite(*fp16), fmt::format("Tensor Cores from compute capability {}{}", fp16->min_cc.str(),
                                                           fp16->note.empty() ? "" : ": " + fp16->note)));
    bool bf16 = bf16_row && !(*cc < bf16_row->min_cc);
    if (bf16) f.evidence.push_back(cite(kb.cite(*bf16_row), fmt::format("bfloat16 Tensor Core math from compute capability {}", bf16_row->min_cc.str())));
    f.fix.push_back(fmt::format("Before building the model: tf.keras.mixed_precision.set_global_policy('{}')", bf16 ? "mixed_bfloat16" : "mixed_float16"));
    f.fix.push_back("Keep the model's output in float32: final layer or Activation with dtype='float32'");
    f.fix.push_back(bf16 ? "bfloat16 needs no loss scaling; with 'mixed_float16' Model.fit scales the loss itself (custom loops: tf.keras.mixed_precision.LossScaleOptimizer)"
                         : "Model.fit scales the loss itself; custom training loops wrap the optimizer in tf.keras.mixed_precision.LossScaleOptimizer");
    f.fix.push_back("What it buys: matmuls and convolutions on Tensor Cores (often 1.5-3x faster steps) and half the activation memory (larger batches); "
                    "use layer sizes that are multiples of 8");
    out.push_back(std::move(f));
    break;  // one recommendation per machine is enough
  }
  return out;
}

}  // namespace tfgpu::rules
