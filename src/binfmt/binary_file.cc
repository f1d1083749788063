#include "binfmt/binary_file.h"

#include "binfmt/elf.h"
#include "binfmt/pe.h"

namespace tfgpu::binfmt {

void describe_binary(std::string_view bytes, LibraryFile& out, std::string_view name) {
  describe_binary_ranges(
      bytes.size(),
      [bytes](uint64_t offset, uint64_t length) -> Result<std::string> {
        if (offset >= bytes.size()) return std::string();
        return std::string(bytes.substr(offset, length));
      },
      out, name);
}

void describe_binary_ranges(uint64_t size, const RangeFn& read, LibraryFile& out, std::string_view name,
                            const std::vector<std::string>& symbols) {
  std::string label(name.empty() ? std::string_view(out.path) : name);
  out.error.clear();
  auto unknown = [&](const Error& e) {
    out.headers = "unknown";
    out.error = e.message;
  };
  auto magic = read(0, 4);
  if (!magic) {
    out.format = "unknown";
    return unknown(magic.error());
  }
  // The magic decides the format: a malformed ELF is still an ELF (the error says why).
  if (looks_like_elf(*magic)) {
    out.format = "elf";
    auto f = parse_elf_ranges(size, read, label, symbols);
    if (f) {
      out.elf = f->to_info();
      out.headers = "read";
    } else if (f.error().kind == ErrorKind::kIo) {
      unknown(f.error());
    } else {
      out.error = f.error().message;
      out.headers = "invalid";
    }
    return;
  }
  if (magic->starts_with("MZ")) {
    auto f = parse_pe_ranges(size, read, label);
    if (f) {
      out.format = "pe";
      out.pe = f->to_info();
      out.headers = "read";
      return;
    }
    if (f.error().kind == ErrorKind::kIo) {
      out.format = "pe";
      return unknown(f.error());
    }
    if (f.error().kind != ErrorKind::kNotFound) {
      out.format = "pe";
      out.error = f.error().message;
      out.headers = "invalid";
      return;
    }
  }
  out.format = "unknown";
  out.headers = "invalid";
  out.error = label.empty() ? "neither ELF nor PE" : label + ": neither ELF nor PE";
}

}  // namespace tfgpu::binfmt
