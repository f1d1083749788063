#include "binfmt/binary_file.h"

#include "binfmt/elf.h"
#include "binfmt/pe.h"

namespace tfgpu::binfmt {

void describe_binary(std::string_view bytes, LibraryFile& out, std::string_view name) {
  std::string label(name.empty() ? std::string_view(out.path) : name);
  out.error.clear();
  // The magic decides the format: a malformed ELF is still an ELF (the error says why).
  if (looks_like_elf(bytes)) {
    out.format = "elf";
    auto f = parse_elf(bytes, label);
    if (f) out.elf = f->to_info();
    else out.error = f.error().message;
    return;
  }
  if (bytes.starts_with("MZ")) {
    auto f = parse_pe(bytes, label);
    if (f) {
      out.format = "pe";
      out.pe = f->to_info();
      return;
    }
    if (f.error().kind != ErrorKind::kNotFound) {
      out.format = "pe";
      out.error = f.error().message;
      return;
    }
  }
  out.format = "unknown";
  out.error = label.empty() ? "neither ELF nor PE" : label + ": neither ELF nor PE";
}

}  // namespace tfgpu::binfmt
