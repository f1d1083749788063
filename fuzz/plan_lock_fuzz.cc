// libFuzzer target: tfgpu.lock.toml parsing, and the emitters over whatever parses
// (a lock from a stranger must never crash tfgpu doctor --lock or break the quoting).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plan/emit.h"
#include "plan/lock.h"
#include "plan/packaging.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto lock = tfgpu::plan::parse_lock(text)) {
    for (const auto& f : tfgpu::plan::emit_all(*lock)) (void)f.text.size();
    (void)tfgpu::plan::check_lock(*lock, tfgpu::Snapshot{});
  }
  (void)tfgpu::plan::parse_packaging(text);
  return 0;
}
