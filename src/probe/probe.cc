#include "probe/probe.h"

#include <algorithm>
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
  for (const auto& c : candidates) {
    if (!host.exists(c.executable)) {
      s.notes.push_back(fmt::format("python {} ({}) does not exist", c.executable, c.source));
      continue;
    }
    s.pythons.push_back(python::read_environment(host, c));
    if (s.pythons.back().bits == 0 && host.platform() == Platform::kWindows) s.pythons.back().bits = pe_bits(host, c.executable);
  }
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
