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

// One place the loader model tried for a library, in search order (loader/trail.h's
// Step as plain data, so findings stay free of loader types).
struct TrailStep {
  std::string source;  // what put the place on the list: "PATH", "LD_LIBRARY_PATH", "DT_RUNPATH of ...", "System32"
  int position = 0;    // 1-based entry of PATH / LD_LIBRARY_PATH as the user's variable spells it; 0 otherwise
  std::string path;    // the file tried (the directory, or "", where no file was tried)
  std::string why;     // "chosen", "absent", "other_version", "wrong_class", ... (loader::to_string(Why))
  std::string detail;  // "has cudart64_12.dll", "ELFCLASS32", "not looked for by the probe"
};

// One fact behind a finding and where it came from.
struct Evidence {
  std::string fact;    // "driver 522.06 supports CUDA up to 11.8"
  std::string source;  // "nvml", "/usr/local/cuda/version.json", "kb:cuda.toml", "log"
  int line = 0;        // 1-based line in a log (explain), 0 when not from a log
  std::vector<TrailStep> trail{};  // loader model: every place tried for the library the fact names (else empty)
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
