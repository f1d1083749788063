#include "probe/kb_namer.h"

namespace tfgpu::probe {

GpuNamer gpu_namer_from(const kb::KnowledgeBase& kb) {
  return [&kb](uint16_t vendor, uint16_t device) -> std::optional<GpuFacts> {
    const kb::Gpu* g = kb.find_gpu(vendor, device);
    if (!g) return std::nullopt;
    return GpuFacts{g->name, g->cc.str()};
  };
}

}  // namespace tfgpu::probe
