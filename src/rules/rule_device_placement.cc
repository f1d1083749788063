// Rule (checklist row "training not faster"): once TF can see the GPU, the usual
// reasons it is no faster are placement and feeding, not setup. Say how to check.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_device_placement(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  bool gpu = !s.gpus.empty() || (s.driver.state.status == ProbeStatus::kOk && s.driver.device_count > 0);
  if (!gpu) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!tf_gpu_build(e, s, kb)) continue;
    Finding f;
    f.id = "device_placement_check";
    f.layer = Layer::kFramework;
    f.severity = Severity::kInfo;
    f.title = "If training is not faster on the GPU: check where the ops run and whether the GPU waits for data";
    f.evidence.push_back(fact(fmt::format("TensorFlow {} with a CUDA build in {}", e.tf->version, e.label), "python packages"));
    f.fix.push_back("Log placement once: tf.debugging.set_log_device_placement(True) — ops should say device:GPU:0");
    f.fix.push_back("python -c \"import tensorflow as tf; print(tf.config.list_logical_devices('GPU'))\" must list a GPU (or run `tfgpu verify`)");
    f.fix.push_back("Watch utilisation while training: nvidia-smi -l 1; low utilisation = input-bound: dataset.cache().prefetch(tf.data.AUTOTUNE), larger batches");
    f.fix.push_back("Small models (a few dense layers, tiny batches) are often faster on the CPU: the GPU pays off with large matrices and convolutions");
    out.push_back(std::move(f));
    break;
  }
  return out;
}

}  // namespace tfgpu::rules
