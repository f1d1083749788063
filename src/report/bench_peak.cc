#include "report/bench_peak.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::report {

namespace {

// "00000000:01:00.0" (NVML style) or "0000:01:00.0" -> the sysfs name "0000:01:00.0".
std::string sysfs_bus_id(std::string id) {
  id = to_lower(id);
  auto colon = id.find(':');
  if (colon == 8) id = id.substr(4);
  return id;
}

PeakFigures from_row(const kb::KnowledgeBase& kb, const kb::Gpu& g, std::string matched_by) {
  PeakFigures p;
  p.gpu = g.name;
  p.matched_by = std::move(matched_by);
  if (!g.peak) {
    p.note = fmt::format("the KB has {} but no peak figures for it", g.name);
    return p;
  }
  p.fp32_tflops = g.peak->fp32_tflops;
  p.tf32_tflops = g.peak->tf32_tflops;
  p.fp16_tflops = g.peak->fp16_tflops;
  p.bf16_tflops = g.peak->bf16_tflops;
  p.fp8_tflops = g.peak->fp8_tflops;
  p.bandwidth_gbs = g.peak->bandwidth_gbs;
  p.note = g.peak->note;
  p.sources = kb.cite_peak(g).sources;
  return p;
}

}  // namespace

PeakFigures find_peaks(const kb::KnowledgeBase& kb, const Host& host, const gpu::DeviceCheck& device) {
  // The PCI product id names the exact SKU (an RTX 3060 has four); the marketing name
  // the driver reports is the fallback (WSL2 has no PCI device to read).
  if (!device.pci_bus_id.empty() && host.platform() == Platform::kLinux) {
    auto text = host.read_file("/sys/bus/pci/devices/" + sysfs_bus_id(device.pci_bus_id) + "/device", 64);
    if (text) {
      std::string id(trim(*text));
      if (auto g = kb.find_gpu_by_pci(id); g && *g) {
        return from_row(kb, **g, fmt::format("PCI id {}", (*g)->pci_id));
      }
    }
  }
  if (!device.name.empty()) {
    auto found = kb.find_gpus_by_name(device.name);
    if (found && found->size() == 1) return from_row(kb, *found->front(), "name");
    if (found && found->size() > 1) {
      PeakFigures p;
      p.note = fmt::format("\"{}\" matches {} KB rows; cannot tell which", device.name, found->size());
      return p;
    }
  }
  PeakFigures p;
  p.note = fmt::format("\"{}\" is not in the KB", device.name);
  return p;
}

namespace {

std::vector<std::string> library_candidates(const kb::KnowledgeBase& kb, Platform platform, const char* component) {
  std::vector<std::string> out;
  auto rows = kb.cuda_releases();
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    auto name = it->library(platform, component);
    if (name && std::find(out.begin(), out.end(), *name) == out.end()) out.push_back(*name);
  }
  return out;
}

}  // namespace

std::vector<std::string> cublas_candidates(const kb::KnowledgeBase& kb, Platform platform) {
  return library_candidates(kb, platform, "cublas");
}

std::vector<std::string> cublaslt_candidates(const kb::KnowledgeBase& kb, Platform platform) {
  return library_candidates(kb, platform, "cublasLt");
}

}  // namespace tfgpu::report
