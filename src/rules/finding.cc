#include "rules/finding.h"

namespace tfgpu {

const char* to_string(Layer l) {
  switch (l) {
    case Layer::kHardware:
      return "hardware";
    case Layer::kDriver:
      return "driver";
    case Layer::kRuntime:
      return "runtime";
    case Layer::kFramework:
      return "framework";
  }
  return "unknown";
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::kBlocker:
      return "blocker";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "info";
  }
  return "unknown";
}

}  // namespace tfgpu
