#pragma once
// Names GPUs seen only on the PCI bus from the knowledge base's GPU table (PCI id ->
// marketing name and compute capability), so the probe itself holds no GPU facts.

#include "kb/kb.h"
#include "probe/probe.h"

namespace tfgpu::probe {

// The KB must outlive the returned namer.
GpuNamer gpu_namer_from(const kb::KnowledgeBase& kb);

}  // namespace tfgpu::probe
