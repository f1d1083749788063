#pragma once
// One call for the probe: given a library file's bytes, detect ELF or PE and fill the
// snapshot's LibraryFile format / elf / pe / error fields (nothing else is touched).

#include <string_view>

#include "snapshot/snapshot.h"

namespace tfgpu::binfmt {

// format = "elf" | "pe" | "unknown"; error = the parser's one-line message when the file
// is ELF/PE but malformed ("libfoo.so: truncated dynamic section at offset 0x1234"), or
// "NAME: neither ELF nor PE" when it is neither (format "unknown"). `name` defaults to
// out.path for messages.
void describe_binary(std::string_view bytes, LibraryFile& out, std::string_view name = {});

}  // namespace tfgpu::binfmt
