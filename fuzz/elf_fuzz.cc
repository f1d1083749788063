// libFuzzer target for the ELF reader: any bytes give an ElfFile or an Error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "binfmt/elf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto f = tfgpu::binfmt::parse_elf(bytes, "fuzz.so");
  if (f) {
    tfgpu::ElfInfo info = f->to_info();
    (void)info;
  } else if (f.error().message.empty()) {
    __builtin_trap();  // every error must say something
  }
  return 0;
}
