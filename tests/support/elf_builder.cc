#include "support/elf_builder.h"

#include <utility>

namespace tfgpu::test {
namespace {

class Writer {
 public:
  Writer(bool big) : big_(big) {}
  std::string& data() { return data_; }
  uint64_t size() const { return data_.size(); }
  void put(uint64_t v, int width) {
    for (int i = 0; i < width; ++i) {
      int shift = big_ ? (width - 1 - i) * 8 : i * 8;
      data_ += static_cast<char>((v >> shift) & 0xff);
    }
  }
  void put_at(uint64_t off, uint64_t v, int width) {
    for (int i = 0; i < width; ++i) {
      int shift = big_ ? (width - 1 - i) * 8 : i * 8;
      data_[off + i] = static_cast<char>((v >> shift) & 0xff);
    }
  }
  void align(uint64_t a) {
    while (data_.size() % a) data_ += '\0';
  }

 private:
  bool big_;
  std::string data_;
};

}  // namespace

std::string ElfBuilder::build() const {
  const bool is64 = bits == 64;
  const int word = is64 ? 8 : 4;
  const uint64_t ehsize = is64 ? 64 : 52, phentsize = is64 ? 56 : 32, shentsize = is64 ? 64 : 40;
  const bool with_ph = program_headers == ProgramHeaders::kWrite;
  const uint64_t phnum = with_ph ? (interpreter.empty() ? 2 : 3) : 0;
  Writer w(order == Order::kBig);

  // String table: index 0 is "".
  std::string dynstr(1, '\0');
  auto add_str = [&](const std::string& s) {
    uint64_t off = dynstr.size();
    dynstr += s;
    dynstr += '\0';
    return off;
  };
  std::vector<std::pair<int64_t, uint64_t>> dyn;
  for (const auto& n : needed) dyn.push_back({1, add_str(n)});
  if (!soname.empty()) dyn.push_back({14, add_str(soname)});
  if (!rpath.empty()) dyn.push_back({15, add_str(rpath)});
  if (!runpath.empty()) dyn.push_back({29, add_str(runpath)});

  phoff = with_ph ? ehsize : 0;
  uint64_t interp_off = ehsize + phnum * phentsize;
  dynstr_offset = interp_off + (interpreter.empty() ? 0 : interpreter.size() + 1);
  dynamic_offset = (dynstr_offset + dynstr.size() + 7) & ~uint64_t{7};
  // DT_STRTAB and DT_STRSZ come after the string-bearing entries, then DT_NULL.
  dyn.push_back({5, kElfBuilderBase + dynstr_offset});
  dyn.push_back({10, dynstr.size()});
  dyn.push_back({0, 0});
  uint64_t dynamic_size = dyn.size() * 2 * word;
  std::string shstrtab = std::string("\0.dynstr\0.dynamic\0.shstrtab\0", 28);
  uint64_t shstrtab_off = dynamic_offset + dynamic_size;
  uint64_t shoff = (shstrtab_off + shstrtab.size() + 7) & ~uint64_t{7};

  // ELF header.
  w.data() += "\x7f" "ELF";
  w.data() += static_cast<char>(is64 ? 2 : 1);
  w.data() += static_cast<char>(order == Order::kBig ? 2 : 1);
  w.data() += '\1';
  w.data() += std::string(9, '\0');
  w.put(type, 2);
  w.put(machine, 2);
  w.put(1, 4);
  w.put(0, word);      // e_entry
  w.put(phoff, word);  // e_phoff
  w.put(shoff, word);  // e_shoff
  w.put(0, 4);         // e_flags
  w.put(ehsize, 2);
  w.put(phentsize, 2);
  w.put(phnum, 2);
  w.put(shentsize, 2);
  w.put(4, 2);  // e_shnum: null, .dynstr, .dynamic, .shstrtab
  w.put(3, 2);  // e_shstrndx

  auto phdr = [&](uint32_t ptype, uint64_t off, uint64_t size) {
    if (is64) {
      w.put(ptype, 4), w.put(4, 4), w.put(off, 8), w.put(kElfBuilderBase + off, 8), w.put(kElfBuilderBase + off, 8);
      w.put(size, 8), w.put(size, 8), w.put(ptype == 1 ? 0x1000 : 8, 8);
    } else {
      w.put(ptype, 4), w.put(off, 4), w.put(kElfBuilderBase + off, 4), w.put(kElfBuilderBase + off, 4);
      w.put(size, 4), w.put(size, 4), w.put(4, 4), w.put(ptype == 1 ? 0x1000 : 4, 4);
    }
  };
  if (with_ph) {
    phdr(1, 0, shstrtab_off);  // PT_LOAD: headers, strings and .dynamic
    phdr(2, dynamic_offset, dynamic_size);
    if (!interpreter.empty()) phdr(3, interp_off, interpreter.size() + 1);
  }
  if (!interpreter.empty()) {
    w.data() += interpreter;
    w.data() += '\0';
  }
  w.data() += dynstr;
  w.align(8);
  for (auto [tag, val] : dyn) w.put(static_cast<uint64_t>(tag), word), w.put(val, word);
  w.data() += shstrtab;
  w.align(8);

  auto shdr = [&](uint32_t name, uint32_t stype, uint64_t addr, uint64_t off, uint64_t size, uint32_t link) {
    w.put(name, 4), w.put(stype, 4), w.put(stype == 0 ? 0 : 2, word), w.put(addr, word), w.put(off, word);
    w.put(size, word), w.put(link, 4), w.put(0, 4), w.put(1, word), w.put(stype == 6 ? 2 * word : 0, word);
  };
  shdr(0, 0, 0, 0, 0, 0);
  shdr(1, 3, kElfBuilderBase + dynstr_offset, dynstr_offset, dynstr.size(), 0);
  shdr(9, 6, kElfBuilderBase + dynamic_offset, dynamic_offset, dynamic_size, 1);
  shdr(18, 3, 0, shstrtab_off, shstrtab.size(), 0);
  return std::move(w.data());
}

}  // namespace tfgpu::test
