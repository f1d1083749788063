// Rule: a container started without GPU access. Inside Docker/Podman/Kubernetes the
// driver's user-space libraries and /dev/nvidia* come from the NVIDIA container
// runtime (`--gpus`); without it the container sees no driver even on a GPU host.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_container(const Snapshot& s, const kb::KnowledgeBase&) {
  std::vector<Finding> out;
  if (s.host.container.empty()) return out;
  if (s.driver.state.status != ProbeStatus::kAbsent && s.driver.state.status != ProbeStatus::kFailed) return out;
  // The container sees the host's PCI bus: no NVIDIA device there means no GPU to pass
  // through (rule_gpu_presence says so), not a missing runtime.
  if (s.gpus.empty() && (s.gpu_state.status == ProbeStatus::kAbsent || s.gpu_state.status == ProbeStatus::kOk)) return out;
  Finding f;
  f.id = "container_gpu_runtime_missing";
  f.layer = Layer::kDriver;
  f.severity = Severity::kBlocker;
  f.title = fmt::format("Running in a {} container without GPU access (no NVIDIA container runtime / --gpus)", s.host.container);
  f.evidence.push_back(fact(fmt::format("container: {}", s.host.container), s.host.state.source.empty() ? "host" : s.host.state.source));
  f.evidence.push_back(fact(s.driver.state.reason.empty() ? "no NVIDIA driver library inside the container" : s.driver.state.reason,
                            s.driver.state.source.empty() ? "driver probe" : s.driver.state.source));
  if (!s.gpus.empty())
    f.evidence.push_back(fact(fmt::format("the PCI bus shows {} ({})", s.gpus.front().name, s.gpus.front().pci_id), s.gpus.front().source));
  if (s.host.container == "kubernetes") {
    f.fix.push_back("Install the NVIDIA device plugin on the cluster (https://github.com/NVIDIA/k8s-device-plugin)");
    f.fix.push_back("Request the GPU in the pod spec: resources: limits: nvidia.com/gpu: 1");
  } else {
    f.fix.push_back("On the HOST (not in the container): install the NVIDIA driver and the NVIDIA Container Toolkit "
                    "(https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html): "
                    "sudo apt-get install -y nvidia-container-toolkit");
    f.fix.push_back(fmt::format("sudo nvidia-ctk runtime configure --runtime={} && sudo systemctl restart {}",
                                s.host.container == "podman" ? "podman" : "docker", s.host.container == "podman" ? "podman" : "docker"));
    f.fix.push_back(s.host.container == "podman"
                        ? "Start the container with --device nvidia.com/gpu=all (CDI); check with: podman run --rm --device nvidia.com/gpu=all ubuntu nvidia-smi"
                        : "Start the container with --gpus all (compose: deploy.resources.reservations.devices); check with: docker run --rm --gpus all ubuntu nvidia-smi");
  }
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
