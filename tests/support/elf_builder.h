#pragma once
// Writes small ELF shared objects by hand for tests that need layouts gcc on this machine
// cannot produce (big endian, 32-bit, other machines, a dynamic section reachable only via
// section headers) or that must be corrupted at a known place. Recipe: an ELF header, two
// program headers (PT_LOAD over the whole file at vaddr kElfBuilderBase + offset, and
// PT_DYNAMIC), .dynstr, .dynamic, then section headers for .dynstr/.dynamic/.shstrtab.

#include <cstdint>
#include <string>
#include <vector>

namespace tfgpu::test {

inline constexpr uint64_t kElfBuilderBase = 0x10000;

struct ElfBuilder {
  enum class Order { kLittle, kBig };
  enum class ProgramHeaders { kWrite, kOmit };  // kOmit: only section headers find .dynamic

  int bits = 64;
  Order order = Order::kLittle;
  uint16_t machine = 62;  // EM_X86_64
  uint16_t type = 3;      // ET_DYN
  ProgramHeaders program_headers = ProgramHeaders::kWrite;
  std::string interpreter;  // PT_INTERP when not empty
  std::string soname;
  std::vector<std::string> needed;
  std::string rpath;    // DT_RPATH value when not empty
  std::string runpath;  // DT_RUNPATH value when not empty

  std::string build() const;

  // Offsets in the last build() output, for tests that corrupt a field.
  mutable uint64_t dynamic_offset = 0;
  mutable uint64_t dynstr_offset = 0;
  mutable uint64_t phoff = 0;
};

}  // namespace tfgpu::test
