#include "probe/probe.h"

#include <algorithm>
#include <atomic>
#include <future>

#include <fmt/format.h>

#include "probe/windows_installs.h"
#include "python/python_env.h"
#include "util/strings.h"

namespace tfgpu::probe {

void probe_pythons(const Host& host, const ProbeOptions& options, Snapshot& s) {
  auto candidates = python::find_interpreters(host, options.extra_pythons);
  if (host.platform() == Platform::kWindows) {  // PEP 514 registry + Microsoft Store (windows_installs.h)
    for (auto& w : windows_python_candidates(host))
      if (std::none_of(candidates.begin(), candidates.end(), [&](const auto& c) { return iequals(c.executable, w.executable); }))
        candidates.push_back(std::move(w));
  }
  // Each environment is read on its own (file reads only: tfgpu never runs a Python it
  // found), two at a time beside this thread; the order stays the candidates' order.
  std::vector<const python::Candidate*> present;
  for (const auto& c : candidates) {
    if (!host.exists(c.executable)) {
      s.notes.push_back(fmt::format("python {} ({}) does not exist", c.executable, c.source));
      continue;
    }
    present.push_back(&c);
  }
  auto read = [&host](const python::Candidate& c) {
    PythonEnv env = python::read_environment(host, c);
    if (env.bits == 0 && host.platform() == Platform::kWindows) env.bits = pe_bits(host, c.executable);
    return env;
  };
  std::vector<PythonEnv> envs(present.size());
  constexpr size_t kWorkers = 3;  // this thread and two more
  std::vector<std::future<void>> workers;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < present.size(); i = next++) envs[i] = read(*present[i]);
  };
  for (size_t w = 1; w < kWorkers && w < present.size(); ++w) workers.push_back(std::async(std::launch::async, work));
  work();
  for (auto& w : workers) w.get();
  for (auto& e : envs) s.pythons.push_back(std::move(e));
  python::mark_active(host, s.pythons);
  if (s.pythons.empty()) {
    s.python_state = {ProbeStatus::kAbsent, "no Python interpreter on PATH, in pyenv, conda or VIRTUAL_ENV", ""};
  } else {
    size_t tf = 0;
    for (const auto& p : s.pythons) tf += p.tensorflow.size();
    s.python_state = {ProbeStatus::kOk, fmt::format("{} environment(s), {} TensorFlow install(s)", s.pythons.size(), tf), ""};
  }
}

Snapshot probe_machine(const Host& host, const ProbeOptions& options) {
  Snapshot s;
  s.origin = "probe";
  s.tool_version = options.tool_version;
  s.created_at = options.created_at;
  // Order matters: WSL2 decides how GPUs are found; Python environments and the loader
  // dirs tell the runtime scan where pip / conda / system libraries are.
  probe_host(host, s);
  probe_env(host, s);
  probe_hardware(host, options, s);
  // The driver layer mostly waits for its vendor-library children: it runs on a second
  // thread, on a copy of what it reads (host, env, the PCI GPUs), while this one reads the
  // file system; it writes only driver, gpus and gpu_state, which are taken back.
  Snapshot for_driver = s;
  auto driver = std::async(std::launch::async, [&host, &options, &for_driver] { probe_driver(host, options, for_driver); });
  probe_pythons(host, options, s);
  probe_loader(host, s);
  probe_runtime(host, options, s);
  driver.get();
  s.driver = std::move(for_driver.driver);
  s.gpus = std::move(for_driver.gpus);
  s.gpu_state = std::move(for_driver.gpu_state);
  return s;
}

}  // namespace tfgpu::probe
