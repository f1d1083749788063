// libFuzzer target for the ELF reader: any bytes give an ElfFile or an Error, never a
// crash, by both paths: the whole-buffer parse and the ranged one (the path the probe
// takes, with a DT_GNU_HASH symbol lookup), which must agree on what they read.
#include <cstddef>
#include <cstdint>
#include <string>
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
  auto read = [bytes](uint64_t offset, uint64_t length) -> tfgpu::Result<std::string> {
    if (offset >= bytes.size()) return std::string();
    return std::string(bytes.substr(offset, length));
  };
  auto r = tfgpu::binfmt::parse_elf_ranges(bytes.size(), read, "fuzz.so", {"_ZN3tsl8internal18LoadDynamicLibraryEPKcPPv", "f"});
  if (r.has_value() != f.has_value()) __builtin_trap();  // the two paths disagree
  if (r && (r->soname != f->soname || r->needed != f->needed || r->runpath != f->runpath || r->rpath != f->rpath))
    __builtin_trap();
  if (!r && r.error().message.empty()) __builtin_trap();
  return 0;
}
