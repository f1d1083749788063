#pragma once
// One call for the probe: given a library file (its bytes, or ranges of it read on
// demand), detect ELF or PE and fill the snapshot's LibraryFile format / elf / pe /
// error / headers fields (nothing else is touched).

#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_reader.h"
#include "snapshot/snapshot.h"

namespace tfgpu::binfmt {

// format = "elf" | "pe" | "unknown"; error = the parser's one-line message when the file
// is ELF/PE but malformed ("libfoo.so: truncated dynamic section at offset 0x1234"), or
// "NAME: neither ELF nor PE" when it is neither (format "unknown"). headers = "read" or
// "invalid" (LibraryFile::headers). `name` defaults to out.path for messages.
void describe_binary(std::string_view bytes, LibraryFile& out, std::string_view name = {});

// The same from ranged reads of a file of `size` bytes: only the headers are read, so
// the file's size does not matter. A read that fails leaves the headers "unknown" with
// the reason in error (never "invalid": nothing was learnt about the file). `symbols`:
// dynamic symbols to look up in an ELF file (ElfInfo::symbols).
void describe_binary_ranges(uint64_t size, const RangeFn& read, LibraryFile& out, std::string_view name = {},
                            const std::vector<std::string>& symbols = {});

}  // namespace tfgpu::binfmt
