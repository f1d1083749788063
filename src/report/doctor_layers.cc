// The per-layer summary of a doctor report: status from the findings of that layer,
// key facts from the Snapshot (what a helper asks first: which GPU, which driver,
// which CUDA/cuDNN, which Python and TF).
#include <algorithm>

#include <fmt/format.h>

#include "report/doctor_report.h"
#include "util/strings.h"

namespace tfgpu {

const char* to_string(LayerStatus s) {
  switch (s) {
    case LayerStatus::kOk:
      return "ok";
    case LayerStatus::kWarning:
      return "warning";
    case LayerStatus::kBlocked:
      return "blocked";
    case LayerStatus::kUnknown:
      break;
  }
  return "unknown";
}

namespace {

std::string not_there(const ProbeState& st, std::string_view what) {
  switch (st.status) {
    case ProbeStatus::kNotProbed:
      return fmt::format("{}: not probed", what);
    case ProbeStatus::kAbsent:
      return st.reason.empty() ? fmt::format("no {}", what) : st.reason;
    case ProbeStatus::kUnsupported:
      return fmt::format("{}: cannot be read here{}", what, st.reason.empty() ? "" : " (" + st.reason + ")");
    case ProbeStatus::kFailed:
      return fmt::format("{}: probe failed: {}", what, st.reason);
    case ProbeStatus::kOk:
      break;
  }
  return std::string(what);
}

std::vector<std::string> hardware_facts(const Snapshot& s) {
  std::vector<std::string> out;
  std::string os = s.host.distro.empty() ? s.host.os : s.host.distro;
  if (s.host.wsl2 == Tri::kYes) os += " (WSL2)";
  if (!s.host.container.empty()) os += fmt::format(" (in a {} container)", s.host.container);
  if (!os.empty()) out.push_back(os + (s.host.arch.empty() ? "" : ", " + s.host.arch));
  for (const auto& g : s.gpus) {
    std::string line = g.name.empty() ? "GPU" : g.name;
    if (!g.pci_id.empty()) line += " (" + g.pci_id + ")";
    if (!g.compute_capability.empty()) line += ", compute capability " + g.compute_capability;
    if (g.memory_total_bytes) line += ", " + gib(g.memory_total_bytes);
    out.push_back(line);
  }
  if (s.gpus.empty()) out.push_back(s.gpu_state.status == ProbeStatus::kOk ? "no NVIDIA GPU" : not_there(s.gpu_state, "NVIDIA GPU"));
  if (!s.host.cpu.model.empty() || s.host.cpu.avx != Tri::kUnknown)
    out.push_back(fmt::format("CPU {}{}", s.host.cpu.model.empty() ? "(model unknown)" : s.host.cpu.model,
                              s.host.cpu.avx == Tri::kUnknown ? "" : fmt::format(", AVX {}", s.host.cpu.avx == Tri::kYes ? "yes" : "no")));
  return out;
}

std::vector<std::string> driver_facts(const Snapshot& s) {
  std::vector<std::string> out;
  const auto& d = s.driver;
  if (d.state.status == ProbeStatus::kOk) {
    std::string line = "NVIDIA driver " + (d.version.empty() ? std::string("(version unknown)") : d.version);
    if (!d.cuda_version.empty()) line += ", supports CUDA up to " + d.cuda_version;
    if (d.device_count >= 0) line += fmt::format(", {} device{}", d.device_count, d.device_count == 1 ? "" : "s");
    out.push_back(line);
  } else {
    out.push_back(not_there(d.state, "NVIDIA driver"));
  }
  if (!d.kernel_module_version.empty() && d.kernel_module_version != d.version)
    out.push_back("kernel module " + d.kernel_module_version);
  auto cvd = s.env.find("CUDA_VISIBLE_DEVICES");
  if (cvd != s.env.end()) out.push_back(fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", cvd->second));
  return out;
}

std::vector<std::string> runtime_facts(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& c : s.cuda)
    out.push_back(fmt::format("CUDA {} ({}{}) {}", c.version.empty() ? "?" : c.version, c.kind, c.package.empty() ? "" : " " + c.package, c.root));
  for (const auto& c : s.cudnn)
    out.push_back(fmt::format("cuDNN {} ({}{}) {}", c.version.empty() ? "?" : c.version, c.kind, c.package.empty() ? "" : " " + c.package, c.root));
  if (out.empty())
    out.push_back(s.runtime_state.status == ProbeStatus::kOk ? "no CUDA toolkit, CUDA wheels or cuDNN found" : not_there(s.runtime_state, "CUDA/cuDNN"));
  return out;
}

std::vector<std::string> framework_facts(const Snapshot& s) {
  std::vector<std::string> out;
  // The first screen shows the environments that matter: those with TensorFlow, the active
  // one, named venvs / conda envs; three or more plain interpreters without TensorFlow
  // collapse into one line (`tfgpu probe` lists them all).
  auto plain_without_tf = [](const PythonEnv& py) {
    return py.tensorflow.empty() && !py.active && py.kind != "venv" && py.kind != "conda" && py.kind != "given";
  };
  const size_t hidden = static_cast<size_t>(std::count_if(s.pythons.begin(), s.pythons.end(), plain_without_tf));
  const bool collapse = hidden >= 3;
  for (const auto& py : s.pythons) {
    if (collapse && plain_without_tf(py)) continue;
    std::string who = py.kind == "conda" && !py.name.empty() ? fmt::format("conda env '{}'", py.name)
                      : py.kind == "venv" && !py.name.empty() ? fmt::format("venv '{}'", py.name)
                                                              : py.executable;
    std::string line = fmt::format("{}: Python {}{}", who, py.version.empty() ? "?" : py.version, py.bits == 32 ? " (32-bit)" : "");
    if (py.tensorflow.empty()) line += ", no TensorFlow";
    for (const auto& t : py.tensorflow) line += fmt::format(", {} {}", t.package, t.version);
    // Next to TensorFlow, the Keras it will import (Keras 3, or tf-keras for Keras 2 code).
    if (!py.tensorflow.empty())
      for (const auto& pkg : py.packages)
        if (pkg.name == "keras" || pkg.name == "tf-keras" || pkg.name == "tf_keras")
          line += fmt::format(", {} {}", pkg.name, pkg.version.empty() ? "?" : pkg.version);
    if (py.active) line += " [active]";
    out.push_back(line);
  }
  if (collapse) out.push_back(fmt::format("+{} more Pythons without TensorFlow (tfgpu probe lists them)", hidden));
  if (out.empty())
    out.push_back(s.python_state.status == ProbeStatus::kOk ? "no Python interpreter found" : not_there(s.python_state, "Python"));
  return out;
}

}  // namespace

std::vector<LayerSummary> summarize_layers(const Snapshot& s, const std::vector<Finding>& findings,
                                           const std::vector<Verdict>* verdicts) {
  // The verdict says no environment has TensorFlow: the framework layer is missing its
  // framework, whatever the severity of the finding that says so.
  bool no_tensorflow = verdicts && !verdicts->empty() &&
                       std::all_of(verdicts->begin(), verdicts->end(),
                                   [](const Verdict& v) { return v.kind == VerdictKind::kNoTensorflow; });
  std::vector<LayerSummary> out;
  const std::pair<Layer, const ProbeState*> layers[] = {
      {Layer::kHardware, &s.gpu_state}, {Layer::kDriver, &s.driver.state}, {Layer::kRuntime, &s.runtime_state}, {Layer::kFramework, &s.python_state}};
  for (const auto& [layer, state] : layers) {
    LayerSummary l;
    l.layer = layer;
    bool blocked = false, warned = false;
    for (const auto& f : findings) {
      if (f.layer != layer) continue;
      blocked = blocked || f.severity == Severity::kBlocker;
      warned = warned || f.severity == Severity::kWarning;
    }
    // The hardware layer can be known from the driver alone (WSL2 has no PCI GPU).
    bool known = state->status != ProbeStatus::kNotProbed ||
                 (layer == Layer::kHardware && (s.driver.state.status == ProbeStatus::kOk || !s.gpus.empty()));
    // A layer that was looked at and found missing or broken is not "ok" even when no
    // rule blames it (a driver matters little without a GPU, but it is still not there).
    bool missing = state->status == ProbeStatus::kAbsent || state->status == ProbeStatus::kFailed ||
                   state->status == ProbeStatus::kUnsupported;
    if (layer == Layer::kHardware && !s.gpus.empty()) missing = false;
    if (layer == Layer::kFramework && no_tensorflow) warned = true;
    l.status = blocked ? LayerStatus::kBlocked
               : warned || (known && missing) ? LayerStatus::kWarning
               : known                        ? LayerStatus::kOk
                                              : LayerStatus::kUnknown;
    switch (layer) {
      case Layer::kHardware:
        l.facts = hardware_facts(s);
        break;
      case Layer::kDriver:
        l.facts = driver_facts(s);
        break;
      case Layer::kRuntime:
        l.facts = runtime_facts(s);
        break;
      case Layer::kFramework:
        l.facts = framework_facts(s);
        break;
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace tfgpu
