// libFuzzer target: the [[tensor_precision]] rows of a gpus.toml (`--kb DIR` reads any
// file a user points it at; a malformed one must be an error, never a crash).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kb/tensor_precision.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto rows = tfgpu::kb::parse_tensor_precisions(text, "fuzz.toml")) {
    (void)tfgpu::kb::find_tensor_precision(*rows, "fp8");
  }
  return 0;
}
