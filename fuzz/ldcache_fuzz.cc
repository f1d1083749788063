// libFuzzer target for the ld.so.cache reader (old, new and compat layouts).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "binfmt/ld_cache.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto c = tfgpu::binfmt::parse_ld_cache(bytes, "ld.so.cache");
  if (c) {
    for (const auto& r : c->records) (void)tfgpu::binfmt::ldconfig_flags_text(r.flags);
  } else if (c.error().message.empty()) {
    __builtin_trap();
  }
  return 0;
}
