// Rule: an NVIDIA GPU is there. Reads the hardware layer (PCI bus), or the driver's
// device count where the bus does not show it (WSL2 paravirtualises the GPU).
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

std::vector<Finding> rule_gpu_presence(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  if (s.host.os == "macos") return out;  // rule_platform: no CUDA build at all
  if (!s.gpus.empty()) return out;
  if (s.driver.state.status == ProbeStatus::kOk && s.driver.device_count > 0) return out;
  // Only a look that found nothing counts; not probed / failed is "cannot tell".
  bool bus_says_none = s.gpu_state.status == ProbeStatus::kAbsent ||
                       (s.gpu_state.status == ProbeStatus::kOk && s.gpus.empty());
  if (!bus_says_none) return out;
  if (is_wsl2(s) && s.driver.state.status != ProbeStatus::kOk) return out;  // rule_wsl: WSL2 shows no PCI GPU
  Finding f;
  f.id = "no_nvidia_gpu";
  f.layer = Layer::kHardware;
  f.severity = Severity::kBlocker;
  f.title = "No NVIDIA GPU in this machine";
  f.evidence.push_back(fact(s.gpu_state.reason.empty() ? "no NVIDIA display/3D controller found" : s.gpu_state.reason,
                            s.gpu_state.source.empty() ? "hardware probe" : s.gpu_state.source));
  if (s.driver.state.status == ProbeStatus::kAbsent)
    f.evidence.push_back(fact(s.driver.state.reason.empty()                          ? std::string("no NVIDIA driver either")
        : starts_with(s.driver.state.reason, "no NVIDIA driver") ? "and " + s.driver.state.reason
                                                                : "no NVIDIA driver either: " + s.driver.state.reason,
                              s.driver.state.source.empty() ? "driver probe" : s.driver.state.source));
  if (!s.host.container.empty())
    f.evidence.push_back(fact(fmt::format("running inside a {} container", s.host.container), "host"));
  f.fix.push_back("TensorFlow can only use an NVIDIA GPU with CUDA: run on a machine that has one (a workstation with a GeForce/RTX card, "
                  "or a cloud VM with an NVIDIA GPU)");
  f.fix.push_back("There: install the NVIDIA driver, then `pip install \"tensorflow[and-cuda]\"` on Linux/WSL2, and run `tfgpu doctor` again");
  f.fix.push_back("On this machine TensorFlow runs on the CPU: `pip install tensorflow-cpu` is enough (`tfgpu plan` for a version set)");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
