// Rule: the CPU runs the wheel. Official TensorFlow wheels are compiled with AVX;
// on a CPU without it `import tensorflow` dies ("Illegal instruction", or "DLL load
// failed" on Windows) before any GPU question arises.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"

namespace tfgpu::rules {

std::vector<Finding> rule_cpu(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (s.host.cpu.avx != Tri::kNo) return out;  // unknown is not "no"
  // AVX is an x86 extension: an arm64 CPU (Apple silicon, Graviton) reports none and
  // runs aarch64 wheels instead.
  const std::string& a = s.host.arch;
  if (!a.empty() && a != "x86_64" && a != "AMD64" && a != "amd64" && a != "x86" && a != "i686" && a != "i386") return out;
  auto envs = tf_envs(s, kb);
  Finding f;
  f.id = "cpu_no_avx";
  f.layer = Layer::kHardware;
  f.severity = envs.empty() ? Severity::kWarning : Severity::kBlocker;
  f.title = "The CPU has no AVX: official TensorFlow wheels do not run on it";
  f.evidence.push_back(fact(fmt::format("CPU {} reports no avx flag", s.host.cpu.model.empty() ? "(unknown model)" : s.host.cpu.model),
                            s.host.cpu.source.empty() ? "cpuinfo" : s.host.cpu.source));
  f.fix.push_back("Run TensorFlow on a machine whose CPU has AVX (any x86-64 CPU from the last decade)");
  f.fix.push_back("Or build TensorFlow from source on this machine (https://www.tensorflow.org/install/source; bazel build with "
                  "--copt=-march=native) so it uses only the instructions this CPU has");
  out.push_back(std::move(f));
  return out;
}

}  // namespace tfgpu::rules
