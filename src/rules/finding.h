#pragma once
// A Finding: one diagnosed fact about the stack, produced by a rule (doctor) or a
// log signature (explain), with the same stable ids in both
// (vocabulary: shared/cases/README.md, plus more specific ids where useful).

#include <string>
#include <vector>

namespace tfgpu {

enum class Layer { kHardware, kDriver, kRuntime, kFramework };
enum class Severity { kBlocker, kWarning, kInfo };

const char* to_string(Layer l);     // "hardware", "driver", "runtime", "framework"
const char* to_string(Severity s);  // "blocker", "warning", "info"

// One fact behind a finding and where it came from.
struct Evidence {
  std::string fact;    // "driver 522.06 supports CUDA up to 11.8"
  std::string source;  // "nvml", "/usr/local/cuda/version.json", "kb:cuda.toml", "log"
  int line = 0;        // 1-based line in a log (explain), 0 when not from a log
};

struct Finding {
  std::string id;              // stable id, e.g. "cudnn_version_mismatch"
  Layer layer = Layer::kFramework;
  Severity severity = Severity::kInfo;
  std::string title;           // one line, plain language
  std::vector<Evidence> evidence;
  std::vector<std::string> fix;  // concrete steps, in order, for that platform
  std::string env;             // the Python environment it concerns ("" = machine-wide)
  double score = 0.0;          // explain: how likely this is the root cause (higher first)
};

}  // namespace tfgpu
