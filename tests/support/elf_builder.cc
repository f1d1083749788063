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

  std::vector<uint64_t> sym_names;
  for (const auto& sym : symbols) sym_names.push_back(add_str(sym));

  phoff = with_ph ? ehsize : 0;
  hole_at = ehsize + phnum * phentsize;
  uint64_t interp_off = hole_at + hole;
  dynstr_offset = interp_off + (interpreter.empty() ? 0 : interpreter.size() + 1);
  // .gnu.hash: nbuckets 1, symoffset 1, bloom_size 1, bloom_shift 6, one Bloom word, one
  // bucket, then a chain word per symbol (the last with bit 0 set); .dynsym after it.
  const uint64_t symsize = is64 ? 24 : 16;
  uint64_t hash_offset = (dynstr_offset + dynstr.size() + 7) & ~uint64_t{7};
  uint64_t hash_size = symbols.empty() ? 0 : 16 + word + 4 + 4 * symbols.size();
  uint64_t dynsym_offset = (hash_offset + hash_size + 7) & ~uint64_t{7};
  uint64_t dynsym_size = symbols.empty() ? 0 : (symbols.size() + 1) * symsize;
  dynamic_offset = symbols.empty() ? hash_offset : (dynsym_offset + dynsym_size + 7) & ~uint64_t{7};
  // DT_STRTAB and DT_STRSZ come after the string-bearing entries, then DT_NULL.
  dyn.push_back({5, kElfBuilderBase + dynstr_offset});
  dyn.push_back({10, dynstr.size()});
  if (!symbols.empty()) {
    dyn.push_back({0x6ffffef5, kElfBuilderBase + hash_offset});  // DT_GNU_HASH
    dyn.push_back({6, kElfBuilderBase + dynsym_offset});         // DT_SYMTAB
    dyn.push_back({11, symsize});                                // DT_SYMENT
  }
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
  if (!symbols.empty()) {
    // glibc dl_new_hash: h = h * 33 + c from 5381.
    std::vector<uint32_t> hashes;
    for (const auto& sym : symbols) {
      uint32_t h = 5381;
      for (unsigned char c : sym) h = h * 33 + c;
      hashes.push_back(h);
    }
    const uint32_t bits_per_word = static_cast<uint32_t>(word) * 8, shift = 6;
    uint64_t bloom = 0;
    for (uint32_t h : hashes) bloom |= (uint64_t{1} << (h % bits_per_word)) | (uint64_t{1} << ((h >> shift) % bits_per_word));
    w.put(1, 4), w.put(1, 4), w.put(1, 4), w.put(shift, 4);
    w.put(bloom, word);
    w.put(1, 4);  // bucket 0 starts at symbol 1
    for (size_t i = 0; i < hashes.size(); ++i) w.put(i + 1 == hashes.size() ? (hashes[i] | 1) : (hashes[i] & ~1u), 4);
    w.align(8);
    w.data() += std::string(symsize, '\0');  // symbol 0
    for (uint64_t name : sym_names) {
      if (is64) {
        w.put(name, 4), w.put(0x12, 1), w.put(0, 1), w.put(1, 2), w.put(0, 8), w.put(0, 8);
      } else {
        w.put(name, 4), w.put(0, 4), w.put(0, 4), w.put(0x12, 1), w.put(0, 1), w.put(1, 2);
      }
    }
    w.align(8);
  }
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

std::string with_hole(const std::string& built, const ElfBuilder& b) {
  return built.substr(0, b.hole_at) + std::string(b.hole, '\0') + built.substr(b.hole_at);
}

}  // namespace tfgpu::test
