#pragma once
// Writes small PE images by hand for tests (no committed binaries). Recipe: a 64-byte DOS
// header with e_lfanew = 0x80; "PE\0\0"; the COFF header; a PE32 or PE32+ optional header
// with 16 data directories; one section ".rdata" (RVA 0x1000, file offset 0x200) holding,
// in order: the import descriptors + ILTs + DLL names, the delay-load descriptors + names,
// and the resource tree RT_VERSION(16) -> id 1 -> lang 0x409 -> data entry -> VS_VERSIONINFO
// (VS_FIXEDFILEINFO, StringFileInfo/040904b0 strings, VarFileInfo/Translation).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tfgpu::test {

struct PeBuilder {
  enum class Kind { kDll, kExe };
  struct Version {
    uint16_t a = 0, b = 0, c = 0, d = 0;
  };

  int bits = 64;            // 64 -> PE32+, 32 -> PE32
  uint16_t machine = 0x8664;
  Kind kind = Kind::kDll;
  std::vector<std::string> imports;
  std::vector<std::string> delay_imports;
  bool with_version = false;  // write a VERSIONINFO resource
  Version file_version;
  Version product_version;
  std::vector<std::pair<std::string, std::string>> version_strings;  // StringFileInfo entries

  std::string build() const;

  // Offsets in the last build() output, for tests that corrupt a field.
  mutable uint64_t import_dir_offset = 0;
  mutable uint64_t resource_offset = 0;
  mutable uint64_t version_offset = 0;
  mutable uint64_t section_table_offset = 0;
};

}  // namespace tfgpu::test
