// Rule: where TensorFlow's CUDA platform initialisation also initialises NVML (the KB's
// library set lists "nvml" in platform_init: TF 2.21 calls nvmlInit_v2 right after
// cuInit), the driver's libnvidia-ml.so.1 must load and initialise, or TF lists no GPU
// at all; TF says why only at VLOG 1. The evidence is the probe's own NVML attempt
// (the same dlopen name from the same shell), else the loader model in TF's process.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {

const LoadAttempt* attempt_of(const Snapshot& s, std::string_view library) {
  for (const auto& a : s.driver.attempts)
    if (a.library == library) return &a;
  return nullptr;
}

bool loaded_and_initialised(const LoadAttempt& a) {
  return !a.opened.empty() && starts_with(a.init_result, "NVML_SUCCESS");
}

// The CUDA driver itself answers: otherwise the driver rules speak (a missing driver
// brings its NVML with it).
bool cuda_driver_answers(const Snapshot& s, const LoadAttempt* cuda) {
  if (cuda) return !cuda->opened.empty() && starts_with(cuda->init_result, "CUDA_SUCCESS");
  return s.driver.state.status == ProbeStatus::kOk;
}

}  // namespace

std::vector<Finding> rule_nvml(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  // Containers too: where libcuda answers but NVML does not load (an NVIDIA runtime without
  // the `utility` capability, say), TF 2.21 lists no GPU all the same (real tier, layout
  // tf221-cuda/no-nvml, recorded in a container).
  if (wheel_platform(s) != Platform::kLinux) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    auto libs = kb.tf_libraries(*e.release, Platform::kLinux);
    const kb::LibraryEntry* nvml = nullptr;
    for (const auto& l : libs.libraries)
      if (l.component == "nvml" && l.platform_init) nvml = &l;
    if (!nvml) continue;

    std::vector<Evidence> evidence;
    std::string why;
    const LoadAttempt* a = attempt_of(s, "nvml");
    bool tried = a && (!a->opened.empty() || !a->errors.empty());
    if (tried) {
      if (loaded_and_initialised(*a)) continue;
      if (!cuda_driver_answers(s, attempt_of(s, "cuda"))) continue;
      if (a->opened.empty()) {
        why = fmt::format("{} cannot be loaded", nvml->file);
        for (const auto& err : a->errors) evidence.push_back(fact(err, "driver probe: dlopen"));
      } else if (starts_with(a->init_result, "NVML_ERROR")) {
        why = fmt::format("{} loads ({}) but nvmlInit_v2 fails: {}", nvml->file, a->opened, a->init_result);
        evidence.push_back(fact(fmt::format("nvmlInit_v2 returned {}", a->init_result), a->opened));
      } else {
        continue;  // crashed, timed out, symbols missing: what TF's own call does is not known
      }
    } else {
      // No NVML attempt recorded: ask the loader model, in TF's own process. Only a
      // search that rules the file out counts; "unknown" stays unknown.
      Resolution driver = resolve(s, &e, libs.libraries.front().file);
      if (driver.loader.outcome != loader::Outcome::kFound) continue;
      Resolution r = resolve(s, &e, nvml->file);
      if (r.loader.outcome != loader::Outcome::kNotFound) continue;
      why = fmt::format("{} is not found by the loader", nvml->file);
      evidence.push_back(loader_evidence(s, fmt::format("{} not found in TensorFlow's process", nvml->file), r));
    }

    Finding f;
    f.id = "nvml_missing";
    f.layer = Layer::kDriver;
    f.severity = Severity::kBlocker;
    f.env = e.label;
    f.title =
        fmt::format("TensorFlow {} will list no GPU: {}, and TensorFlow {} initialises NVML with the CUDA platform",
                    e.tf->version, why, e.release->series().str());
    f.evidence = std::move(evidence);
    f.evidence.push_back(
        cite(libs.cites.size() > 1 ? libs.cites[1] : kb.cite(*e.release),
             fmt::format("TensorFlow {} calls nvmlInit_v2 ({}) right after cuInit; when it fails the platform "
                         "reports no device and TensorFlow logs the reason only at VLOG 1",
                         e.release->series().str(), nvml->file)));
    if (is_wsl2(s)) {
      f.fix.push_back(
          fmt::format("WSL2: {} comes with the Windows NVIDIA driver in /usr/lib/wsl/lib; make the loader find it: "
                      "echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig "
                      "(or export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH)",
                      nvml->file));
      f.fix.push_back(
          "If /usr/lib/wsl/lib has no libnvidia-ml.so.1, update the NVIDIA driver on Windows (never install a Linux "
          "driver inside WSL2)");
    } else {
      std::string branch =
          s.driver.version.empty() ? "<driver branch>" : std::string(split(s.driver.version, '.').front());
      f.fix.push_back(fmt::format(
          "Install the NVML library of the installed NVIDIA driver ({}): Debian: sudo apt install libnvidia-ml1 "
          "(non-free); Ubuntu: sudo apt install libnvidia-compute-{}; the .run installer ships it with the driver",
          nvml->file, branch));
      f.fix.push_back(
          fmt::format("Check: ldconfig -p | grep {} (and nvidia-smi, which needs the same library)", nvml->file));
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
