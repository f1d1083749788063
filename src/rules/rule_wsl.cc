// Rule: WSL2's driver path. In WSL2 the Windows driver provides libcuda.so.1 in
// /usr/lib/wsl/lib; a Linux NVIDIA driver installed inside the distro shadows or
// breaks it, and without /usr/lib/wsl/lib on the loader path TF finds no driver.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

namespace {
constexpr std::string_view kWslLib = "/usr/lib/wsl/lib";
}

std::vector<Finding> rule_wsl(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  if (!is_wsl2(s)) return out;
  if (!probed(s.runtime_state) && !probed(s.driver.state)) return out;
  std::vector<const LibraryFile*> linux_driver;
  const LibraryFile* wsl_cuda = nullptr;
  for (const LibraryFile* f : libraries_of(s, "cuda_driver")) {
    if (under_dir(s, f->path, kWslLib)) {
      if (f->name == "libcuda.so.1") wsl_cuda = f;
    } else {
      linux_driver.push_back(f);
    }
  }
  Resolution r = resolve(s, nullptr, "libcuda.so.1");
  bool linux_wins = !r.found_path.empty() && !under_dir(s, r.found_path, kWslLib);
  bool kernel_module = !s.driver.kernel_module_version.empty();
  Finding f;
  f.id = "wsl_libcuda";
  f.layer = Layer::kDriver;
  if (!linux_driver.empty() || kernel_module) {
    f.severity = linux_wins || s.driver.state.status != ProbeStatus::kOk ? Severity::kBlocker : Severity::kWarning;
    f.title = "A Linux NVIDIA driver is installed inside WSL2; WSL2 must use the Windows driver's libcuda";
    for (const LibraryFile* l : linux_driver) f.evidence.push_back(fact(fmt::format("{} (not from the Windows driver)", l->path), l->origin.empty() ? "runtime probe" : l->origin));
    if (kernel_module) f.evidence.push_back(fact("kernel module version " + s.driver.kernel_module_version, "/proc/driver/nvidia/version"));
    if (linux_wins) f.evidence.push_back(loader_evidence(s, fmt::format("the loader takes {} ({}) before {}/libcuda.so.1", r.found_path, r.found_via, kWslLib), r));
    f.fix.push_back("In WSL: sudo apt-get remove --purge 'nvidia-driver-*' 'libnvidia-*' 'nvidia-dkms-*' (keep cuda-toolkit-* packages)");
    f.fix.push_back("Install CUDA inside WSL only from the wsl-ubuntu repository (package cuda-toolkit-12-x), never the `cuda` or `cuda-drivers` meta-packages");
    f.fix.push_back("echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig");
    f.fix.push_back("In PowerShell: wsl --shutdown, then reopen the distro and run `tfgpu doctor`");
    out.push_back(std::move(f));
    return out;
  }
  if (s.driver.state.status == ProbeStatus::kOk) return out;
  if (!probed(s.runtime_state)) return out;
  f.severity = Severity::kBlocker;
  if (wsl_cuda) {
    f.title = "WSL2: /usr/lib/wsl/lib/libcuda.so.1 is there but the loader does not find it";
    f.evidence.push_back(fact(wsl_cuda->path + " exists", wsl_cuda->origin.empty() ? "runtime probe" : wsl_cuda->origin));
    f.evidence.push_back(loader_evidence(s, "libcuda.so.1 is neither in ld.so.cache nor on LD_LIBRARY_PATH", r));
    f.fix.push_back("echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig");
    f.fix.push_back("Or for this shell: export LD_LIBRARY_PATH=/usr/lib/wsl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}");
  } else {
    f.title = "WSL2: the Windows NVIDIA driver provides no libcuda.so.1 in /usr/lib/wsl/lib";
    f.evidence.push_back(fact("no /usr/lib/wsl/lib/libcuda.so.1", "runtime probe"));
    if (!s.driver.state.reason.empty()) f.evidence.push_back(fact(s.driver.state.reason, s.driver.state.source.empty() ? "driver probe" : s.driver.state.source));
    f.fix.push_back("On Windows: install or update the NVIDIA driver for your GPU (https://www.nvidia.com/Download/index.aspx); "
                    "it brings WSL2 support with it");
    f.fix.push_back("In PowerShell: wsl --update, then wsl --shutdown");
    f.fix.push_back("Reopen the distro: ls /usr/lib/wsl/lib/libcuda.so.1 && nvidia-smi, then `tfgpu doctor`");
  }
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
