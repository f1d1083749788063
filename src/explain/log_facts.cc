// Platform decision and the partial Snapshot built from a log's facts.
#include "explain/log_facts.h"

#include <fmt/format.h>

namespace tfgpu::explain {

void LogFacts::decide_platform() {
  // WSL2 wins over everything: such reports mention Windows too, but TF runs on Linux.
  if (flag("wsl")) {
    const Fact* w = flag_fact("wsl");
    wsl = {"yes", w ? w->line : 0};
    os = {"linux", wsl.line};
    return;
  }
  // Otherwise the OS named on most lines; ties go to the one named first.
  std::string best;
  int best_votes = 0;
  int best_line = 0;
  for (const auto& [name, votes] : os_votes) {
    int first = os_first_line.count(name) ? os_first_line.at(name) : 0;
    if (votes > best_votes || (votes == best_votes && first < best_line)) {
      best = name;
      best_votes = votes;
      best_line = first;
    }
  }
  if (!best.empty()) os = {best, best_line};
  if (const Fact* c = flag_fact("container"); c && !c->value.empty()) container = *c;
}

Snapshot LogFacts::to_snapshot() const {
  Snapshot s;
  s.origin = "log";
  auto at = [](int line) { return line > 0 ? fmt::format("log line {}", line) : std::string("log"); };

  s.host.os = os.value;
  s.host.wsl2 = wsl.value == "yes" ? Tri::kYes : Tri::kUnknown;
  s.host.container = container.value;
  s.host.cpu.model = cpu_model.value;
  s.host.cpu.avx = cpu_avx;
  if (!cpu_flags.empty()) s.host.cpu.source = at(cpu_flags.line);
  if (!os.empty()) s.host.state = {ProbeStatus::kOk, "", at(os.line)};

  for (const auto& g : gpu_names) {
    GpuInfo gpu;
    gpu.name = g.value;
    gpu.source = at(g.line);
    s.gpus.push_back(std::move(gpu));
  }
  if (!compute_capability.empty()) {
    if (s.gpus.empty()) {
      GpuInfo gpu;
      gpu.source = at(compute_capability.line);
      s.gpus.push_back(std::move(gpu));
    }
    s.gpus.front().compute_capability = compute_capability.value;
  }
  if (!s.gpus.empty()) s.gpu_state = {ProbeStatus::kOk, "", "log"};

  if (!driver_version.empty()) {
    s.driver.state = {ProbeStatus::kOk, "", at(driver_version.line)};
    s.driver.version = driver_version.value;
  }
  s.driver.cuda_version = driver_cuda_version.value;
  s.driver.kernel_module_version = kernel_module_version.value;

  if (!cuda_version.empty()) {
    CudaInstall c;
    c.version = cuda_version.value;
    c.version_source = at(cuda_version.line);
    c.kind = cuda_kind.empty() ? "toolkit" : cuda_kind.value;
    s.cuda.push_back(std::move(c));
  }
  if (!cudnn_version.empty() || !cudnn_loaded.empty()) {
    CudnnInstall c;
    c.version = cudnn_loaded.empty() ? cudnn_version.value : cudnn_loaded.value;
    c.version_source = at(cudnn_loaded.empty() ? cudnn_version.line : cudnn_loaded.line);
    s.cudnn.push_back(std::move(c));
  }
  for (const auto& l : failed_libraries) {
    LibraryFile f;
    f.name = l.name;
    f.component = l.component;
    f.error = l.detail.empty() ? "could not be loaded" : l.detail;
    f.origin = at(l.line);
    s.libraries.push_back(std::move(f));
  }
  for (const auto& l : loaded_libraries) {
    LibraryFile f;
    f.name = l.name;
    f.component = l.component;
    f.origin = at(l.line);
    s.libraries.push_back(std::move(f));
  }
  if (!cuda_visible_devices.empty() || cuda_visible_devices_set)
    s.env["CUDA_VISIBLE_DEVICES"] = cuda_visible_devices.value;

  if (!python_version.empty() || !python_bits.empty() || !tf_version.empty()) {
    PythonEnv py;
    py.version = python_version.value;
    py.bits = python_bits.value == "32" ? 32 : python_bits.value == "64" ? 64 : 0;
    py.kind = "given";
    py.active = true;
    py.source = at(python_version.line);
    if (!tf_version.empty()) {
      TensorflowInstall tf;
      tf.package = "tensorflow";
      tf.version = tf_version.value;
      tf.location = at(tf_version.line);
      py.tensorflow.push_back(std::move(tf));
    }
    s.pythons.push_back(std::move(py));
    s.python_state = {ProbeStatus::kOk, "", "log"};
  }
  return s;
}

}  // namespace tfgpu::explain
