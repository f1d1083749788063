#pragma once
// Writes small ELF shared objects by hand for tests that need layouts gcc on this machine
// cannot produce (big endian, 32-bit, other machines, a dynamic section reachable only via
// section headers) or that must be corrupted at a known place. Recipe: an ELF header, two
// program headers (PT_LOAD over the whole file at vaddr kElfBuilderBase + offset, and
// PT_DYNAMIC), .dynstr, [.gnu.hash, .dynsym,] .dynamic, then section headers for
// .dynstr/.dynamic/.shstrtab.

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
  // Defined dynamic symbols: written to .dynsym with a one-bucket DT_GNU_HASH table (as
  // ld --hash-style=gnu lays it out), after .dynstr.
  std::vector<std::string> symbols;
  // Zero bytes between the program headers and the rest (a multiple of 8), left out of
  // build()'s output: every later offset counts them, so the file they describe is
  // hole bytes longer, with its dynamic section far from the start (as in NVIDIA's
  // libraries). hole_at() is where they belong; with_hole() puts them in.
  uint64_t hole = 0;

  std::string build() const;

  // Offsets in the last build() output, for tests that corrupt a field.
  mutable uint64_t dynamic_offset = 0;
  mutable uint64_t dynstr_offset = 0;
  mutable uint64_t phoff = 0;
  mutable uint64_t hole_at = 0;
};

// build()'s output with the builder's hole of zeros put back in (a real file's bytes).
std::string with_hole(const std::string& built, const ElfBuilder& b);

}  // namespace tfgpu::test
