// Rule: the driver works but the process may see no device: CUDA_VISIBLE_DEVICES
// empty / -1 / an invalid first entry (CUDA Programming Guide, environment variables:
// devices after an invalid index are hidden), or the driver itself reports none.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

// How many devices a CUDA_VISIBLE_DEVICES value leaves visible; nullopt: cannot tell
// (UUID forms are matched against the GPUs we know).
std::optional<int> visible_count(const Snapshot& s, std::string_view value) {
  int count = 0;
  for (const auto& raw : split(value, ',')) {
    std::string item(trim(raw));
    if (item.empty()) break;
    if (starts_with(item, "GPU-") || starts_with(item, "MIG-")) {
      bool known = false;
      for (const auto& g : s.gpus) known = known || (!g.uuid.empty() && starts_with(g.uuid, item));
      if (!known && !s.gpus.empty()) break;
      ++count;
      continue;
    }
    if (item.find_first_not_of("0123456789") != std::string::npos) break;  // "-1", "none": invalid ends the list
    int idx = std::stoi(item.substr(0, 6));
    int total = s.driver.device_count >= 0 ? s.driver.device_count : static_cast<int>(s.gpus.size());
    if (total > 0 && idx >= total) break;
    ++count;
  }
  return count;
}

}  // namespace

std::vector<Finding> rule_device_visibility(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  Finding f;
  f.id = "no_device_visible";
  f.layer = Layer::kDriver;
  f.severity = Severity::kBlocker;
  if (auto cvd = env_var(s, "CUDA_VISIBLE_DEVICES")) {
    auto n = visible_count(s, *cvd);
    if (n && *n == 0) {
      f.title = fmt::format("CUDA_VISIBLE_DEVICES=\"{}\" hides every GPU from TensorFlow", *cvd);
      f.evidence.push_back(fact(fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", *cvd), "environment"));
      if (is_windows(s)) {
        f.fix.push_back("In this terminal: set CUDA_VISIBLE_DEVICES=   (PowerShell: Remove-Item Env:CUDA_VISIBLE_DEVICES)");
        f.fix.push_back("If it comes back: remove it under Start > \"Edit environment variables for your account\" (and the system variables)");
      } else {
        f.fix.push_back("unset CUDA_VISIBLE_DEVICES   (or set it to the GPU index, e.g. export CUDA_VISIBLE_DEVICES=0)");
        f.fix.push_back("Find where it is set: grep -n CUDA_VISIBLE_DEVICES ~/.bashrc ~/.profile /etc/environment $CONDA_PREFIX/etc/conda/activate.d/* 2>/dev/null, and remove it");
      }
      f.fix.push_back("Notebooks: check for os.environ['CUDA_VISIBLE_DEVICES'] = '-1' before `import tensorflow`");
      out.push_back(std::move(f));
      return out;
    }
  }
  if (s.driver.state.status != ProbeStatus::kOk && s.driver.state.status != ProbeStatus::kFailed) return out;
  bool no_device = s.driver.state.status == ProbeStatus::kOk && s.driver.device_count == 0;
  for (const auto& a : s.driver.attempts)
    if (icontains(a.init_result, "CUDA_ERROR_NO_DEVICE")) {
      no_device = true;
      f.evidence.push_back(fact(fmt::format("{} init: {}", a.library, a.init_result), a.opened.empty() ? a.library : a.opened));
    }
  if (!no_device || !s.host.container.empty()) return out;  // in a container: rule_container
  f.title = "The NVIDIA driver answers but reports no usable device";
  if (s.driver.device_count == 0) f.evidence.push_back(fact("driver device count 0", "driver probe"));
  f.fix.push_back("Check that the GPU is not disabled or passed to a VM: nvidia-smi -L (Windows: Device Manager > Display adapters)");
  f.fix.push_back("Check the GPU is not in a mode CUDA cannot use (nvidia-smi -q | grep -i -e mode -e mig; MIG on without a MIG instance shows no device)");
  f.fix.push_back("Reboot after driver changes, then run `tfgpu doctor` again");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
