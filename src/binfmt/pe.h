#pragma once
// PE/COFF reader (PE32 and PE32+) for what the probe and the Windows loader model need:
// machine and bitness, imported DLL names (import and delay-load directories), and the
// VERSIONINFO resource (VS_FIXEDFILEINFO numbers and the StringFileInfo strings).
// Pure: takes the file's bytes, never touches the machine.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_reader.h"
#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::binfmt {

struct PeFile {
  int bits = 0;                    // 32 (PE32) / 64 (PE32+)
  uint16_t machine_code = 0;       // IMAGE_FILE_MACHINE_* (0x8664 = AMD64)
  std::string machine;             // pe_machine_name(machine_code): "x64", "x86", "arm64"
  bool is_dll = false;             // IMAGE_FILE_DLL in the COFF characteristics
  uint16_t subsystem = 0;          // optional header Subsystem (2 GUI, 3 console)
  std::vector<std::string> imports;        // import directory DLL names, file order, as written
  std::vector<std::string> delay_imports;  // delay-load directory DLL names
  // VS_FIXEDFILEINFO as "a.b.c.d" ("" when there is no VERSIONINFO resource).
  std::string file_version;
  std::string product_version;
  // StringFileInfo values of the first string table ("FileVersion" -> "6.14.11.9000",
  // "ProductName", "CompanyName", ...), UTF-16 converted to UTF-8.
  std::map<std::string, std::string> version_strings;

  // The snapshot's view: imports = the import directory only (delay-loaded DLLs are not
  // needed to start), file/product version from VS_FIXEDFILEINFO, falling back to the
  // StringFileInfo strings.
  PeInfo to_info() const;
};

// True when bytes start with "MZ" and e_lfanew points at "PE\0\0".
bool looks_like_pe(std::string_view bytes);

// Parses a PE image. `name` prefixes error messages.
// Errors: kNotFound "NAME: not a PE file" when the MZ/PE signatures are absent;
//         kInput "NAME: truncated import directory at offset 0x..." and similar when malformed.
Result<PeFile> parse_pe(std::string_view bytes, std::string_view name = {});

// The same over a file of `size` bytes read by ranges: DOS/NT headers -> section table ->
// import / delay-load directories -> version resource, never the code or data. Errors as
// parse_pe, plus kIo when a read failed (the headers are then unknown, not malformed).
Result<PeFile> parse_pe_ranges(uint64_t size, const RangeFn& read, std::string_view name = {});

// Same, reduced to the snapshot's PeInfo.
Result<PeInfo> read_pe_info(std::string_view bytes, std::string_view name = {});

// IMAGE_FILE_MACHINE_* -> "x86" (0x14c), "x64" (0x8664), "arm64" (0xaa64), "arm" (0x1c0,
// 0x1c4), "ia64" (0x200); others "0x<hex>".
std::string pe_machine_name(uint16_t machine_code);

}  // namespace tfgpu::binfmt
