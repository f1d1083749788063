#pragma once
// ELF reader (32/64-bit, little/big endian) for what the probe and the loader model need:
// class, machine, type, interpreter and the dynamic section's SONAME / NEEDED / RPATH /
// RUNPATH. Pure: takes the file's bytes, never touches the machine.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_reader.h"
#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::binfmt {

enum class ElfType { kNone, kRelocatable, kExecutable, kSharedObject, kCore, kOther };
const char* elf_type_name(ElfType t);  // "none", "relocatable", "executable", "shared object", "core", "other"

struct ElfFile {
  int bits = 0;                    // 32 / 64
  Endian endian = Endian::kLittle;
  ElfType type = ElfType::kNone;
  uint16_t machine_code = 0;       // e_machine (EM_X86_64 = 62)
  std::string machine;             // elf_machine_name(machine_code): "x86-64"
  uint8_t os_abi = 0;              // e_ident[EI_OSABI]
  std::string interpreter;         // PT_INTERP ("/lib64/ld-linux-x86-64.so.2"), "" if none
  bool has_dynamic = false;        // a dynamic section was found and read
  std::string soname;              // DT_SONAME
  std::vector<std::string> needed;   // DT_NEEDED in file order
  std::vector<std::string> rpath;    // DT_RPATH split on ':', unexpanded ($ORIGIN kept)
  std::vector<std::string> runpath;  // DT_RUNPATH split on ':', unexpanded
  uint64_t flags_1 = 0;            // DT_FLAGS_1 (DF_1_NODEFLIB = 0x800 matters to ld.so)
  // The dynamic symbols asked for (parse_elf's `symbols`), looked up in DT_GNU_HASH:
  // name -> defined here. A name is absent when it could not be looked up.
  std::map<std::string, bool> symbols;

  // The snapshot's view of this file.
  ElfInfo to_info() const;
};

// True when bytes start with the ELF magic (\x7f E L F).
bool looks_like_elf(std::string_view bytes);

// What the bytes given to parse_elf are.
enum class ElfInput {
  kWholeFile,  // the whole file: the section header table and every PT_LOAD must be there
  kPrefix,     // only the first bytes of a (huge) file: what the program headers reach is
               // read, structures past the end are still "truncated" errors
};

// Parses an ELF file. `name` (a path or file name) prefixes error messages.
// Errors: kNotFound "NAME: not an ELF file" when the magic is absent;
//         kInput "NAME: truncated dynamic section at offset 0x1234" and similar when malformed.
// `symbols`: dynamic symbols (mangled names) to look up in DT_GNU_HASH (ElfFile::symbols).
Result<ElfFile> parse_elf(std::string_view bytes, std::string_view name = {},
                          ElfInput input = ElfInput::kWholeFile, const std::vector<std::string>& symbols = {});

// The same over a file of `size` bytes read by ranges: ELF header -> program headers ->
// section headers -> PT_DYNAMIC -> the strings it names (DT_STRTAB mapped through the
// PT_LOAD segments), a few KiB of a file of any size. Errors as parse_elf, plus kIo when
// a read failed: then the headers are unknown, not malformed.
Result<ElfFile> parse_elf_ranges(uint64_t size, const RangeFn& read, std::string_view name = {},
                                 const std::vector<std::string>& symbols = {});

// Same, reduced to the snapshot's ElfInfo.
Result<ElfInfo> read_elf_info(std::string_view bytes, std::string_view name = {});

// e_machine -> the name used in the snapshot and by ldconfig: 62 -> "x86-64", 3 -> "i386",
// 183 -> "aarch64", 40 -> "arm", 21 -> "ppc64", 20 -> "ppc", 22 -> "s390x"; others "EM_<n>".
std::string elf_machine_name(uint16_t machine_code);

}  // namespace tfgpu::binfmt
