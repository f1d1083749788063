// libFuzzer target for the PE reader: any bytes give a PeFile or an Error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "binfmt/pe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)tfgpu::binfmt::looks_like_pe(bytes);
  auto f = tfgpu::binfmt::parse_pe(bytes, "fuzz.dll");
  if (f) {
    tfgpu::PeInfo info = f->to_info();
    (void)info;
  } else if (f.error().message.empty()) {
    __builtin_trap();
  }
  return 0;
}
