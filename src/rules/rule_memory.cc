// Rule: TensorFlow reserves nearly all GPU memory when it starts (so a second TF
// process, or another program, then fails to allocate). Advise memory growth or a
// memory limit sized from the card; warn when other processes already hold memory.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

std::vector<Finding> rule_memory(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  bool any_gpu_tf = false;
  for (const auto& e : tf_envs(s, kb)) any_gpu_tf = any_gpu_tf || tf_gpu_build(e, s, kb);
  if (!any_gpu_tf) return out;
  const GpuInfo* g = nullptr;
  for (const auto& gi : s.gpus)
    if (gi.memory_total_bytes > 0 && (!g || gi.memory_total_bytes < g->memory_total_bytes)) g = &gi;
  if (!g) return out;
  if (auto grow = env_var(s, "TF_FORCE_GPU_ALLOW_GROWTH"); grow && iequals(*grow, "true")) return out;
  uint64_t mib = g->memory_total_bytes / (1024 * 1024);
  // Leave a tenth of the card for the display, the CUDA context and other processes.
  uint64_t limit = (mib * 9 / 10) / 256 * 256;
  Finding f;
  f.id = "gpu_memory_preallocation";
  f.layer = Layer::kHardware;
  f.severity = Severity::kInfo;
  f.title = fmt::format("TensorFlow reserves nearly all {} of {} at start; a second process then runs out of memory", gib(g->memory_total_bytes),
                        g->name.empty() ? "the GPU" : g->name);
  f.evidence.push_back(fact(fmt::format("{}: {} total", g->name, gib(g->memory_total_bytes)), g->source.empty() ? "driver" : g->source));
  if (env_known(s)) f.evidence.push_back(fact("TF_FORCE_GPU_ALLOW_GROWTH is not set to true", "environment"));
  if (g->memory_free_bytes > 0 && g->memory_free_bytes < g->memory_total_bytes / 10 * 9) {
    f.severity = Severity::kWarning;
    f.evidence.push_back(fact(fmt::format("only {} free now: other processes hold {}", gib(g->memory_free_bytes),
                                          gib(g->memory_total_bytes - g->memory_free_bytes)),
                              g->source.empty() ? "driver" : g->source));
    f.fix.push_back("See what holds GPU memory: nvidia-smi (Processes); stop idle notebooks / other TF processes");
  }
  f.fix.push_back("Grow memory on demand, before any GPU op: for gpu in tf.config.list_physical_devices('GPU'): tf.config.experimental.set_memory_growth(gpu, True)");
  f.fix.push_back(is_windows(s) ? "Or without code changes: set TF_FORCE_GPU_ALLOW_GROWTH=true" : "Or without code changes: export TF_FORCE_GPU_ALLOW_GROWTH=true");
  f.fix.push_back(fmt::format("Or cap it (here {} MiB of {} MiB): tf.config.set_logical_device_configuration(tf.config.list_physical_devices('GPU')[0], "
                              "[tf.config.LogicalDeviceConfiguration(memory_limit={})])",
                              limit, mib, limit));
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
