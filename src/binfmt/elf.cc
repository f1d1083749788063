#include "binfmt/elf.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "util/strings.h"

namespace tfgpu::binfmt {
namespace {

// Constants from the System V gABI (elf.h).
constexpr uint8_t kElfClass32 = 1, kElfClass64 = 2;
constexpr uint8_t kElfData2Lsb = 1, kElfData2Msb = 2;
constexpr uint32_t kPtLoad = 1, kPtDynamic = 2, kPtInterp = 3;
constexpr uint32_t kShtStrtab = 3, kShtDynamic = 6, kShtNobits = 8;
constexpr int64_t kDtNull = 0, kDtNeeded = 1, kDtStrtab = 5, kDtStrsz = 10, kDtSoname = 14,
                  kDtRpath = 15, kDtRunpath = 29, kDtFlags1 = 0x6ffffffb,
                  kDtSymtab = 6, kDtGnuHash = 0x6ffffef5;
constexpr uint16_t kPnXnum = 0xffff;

struct Segment {
  uint32_t type = 0;
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
};

struct Section {
  uint32_t type = 0;
  uint64_t addr = 0, offset = 0, size = 0;
  uint32_t link = 0;
};

struct DynEntry {
  int64_t tag;
  uint64_t val;
};

class ElfParser {
 public:
  ElfParser(ByteSource& src, ElfInput input, const std::vector<std::string>& symbols)
      : src_(src), input_(input), symbols_(symbols) {}

  ElfFile parse() {
    ElfFile out;
    ByteReader ident = src_.read(0, 16, "ELF identification", Endian::kLittle);
    uint8_t cls = ident.u8_at(4);
    uint8_t data = ident.u8_at(5);
    if (cls != kElfClass32 && cls != kElfClass64) ident.fail_at(4, fmt::format("bad ELF class {}", cls));
    if (data != kElfData2Lsb && data != kElfData2Msb) ident.fail_at(5, fmt::format("bad ELF data encoding {}", data));
    is64_ = cls == kElfClass64;
    out.bits = is64_ ? 64 : 32;
    out.endian = data == kElfData2Lsb ? Endian::kLittle : Endian::kBig;
    out.os_abi = ident.u8_at(7);
    endian_ = out.endian;

    ByteReader eh = window(0, is64_ ? 64 : 52, "ELF header");
    uint16_t type = eh.u16_at(16);
    out.type = type == 0 ? ElfType::kNone
               : type == 1 ? ElfType::kRelocatable
               : type == 2 ? ElfType::kExecutable
               : type == 3 ? ElfType::kSharedObject
               : type == 4 ? ElfType::kCore
                           : ElfType::kOther;
    out.machine_code = eh.u16_at(18);
    out.machine = elf_machine_name(out.machine_code);
    uint64_t phoff = is64_ ? eh.u64_at(32) : eh.u32_at(28);
    uint64_t shoff = is64_ ? eh.u64_at(40) : eh.u32_at(32);
    uint16_t phentsize = eh.u16_at(is64_ ? 54 : 42);
    uint64_t phnum = eh.u16_at(is64_ ? 56 : 44);
    uint16_t shentsize = eh.u16_at(is64_ ? 58 : 46);
    uint64_t shnum = eh.u16_at(is64_ ? 60 : 48);

    // Section headers first: extended numbering (gABI "Extended Section Numbering") keeps
    // the real counts in section 0 when they overflow the 16-bit fields.
    // A prefix of a file does not reach the section headers (they are at the end).
    if (shoff != 0 && input_ == ElfInput::kWholeFile) {
      if (shentsize < (is64_ ? 64 : 40)) eh.fail_at(is64_ ? 58 : 46, fmt::format("bad section header size {}", shentsize));
      Section first = section_at(window(shoff, is64_ ? 64 : 40, "section header"), 0);
      if (shnum == 0) shnum = first.size;
      if (phnum == kPnXnum) phnum = section_info_at(shoff);
      // The whole table must be in the file: a file cut short fails here rather than
      // parsing into half-truths.
      if (shnum > 0) {
        if (shnum > src_.size() / shentsize) throw ParseError("truncated section header table", shoff);
        ByteReader table = window(shoff, shnum * shentsize, "section header table");
        for (uint64_t i = 0; i < shnum; ++i)
          sections_.push_back(section_at(table.sub(i * shentsize, is64_ ? 64 : 40, "section header"), i));
      }
    }
    if (phnum > 0) {
      if (phentsize < (is64_ ? 56 : 32)) eh.fail_at(is64_ ? 54 : 42, fmt::format("bad program header size {}", phentsize));
      ByteReader table = window(phoff, phnum * uint64_t{phentsize}, "program header table");
      for (uint64_t i = 0; i < phnum; ++i) segments_.push_back(segment_at(table.sub(i * phentsize, is64_ ? 56 : 32, "program header")));
    }

    std::optional<Region> dynamic;
    for (const Segment& s : segments_) {
      // Bounds only: a loadable segment must be in the file (nothing of it is read).
      if (s.type == kPtLoad && input_ == ElfInput::kWholeFile) check(s.offset, s.filesz, "loadable segment");
      if (s.type == kPtInterp) out.interpreter = src_.cstring(s.offset, check(s.offset, s.filesz, "interpreter path"), 0, "interpreter path");
      if (s.type == kPtDynamic && !dynamic) dynamic = Region{s.offset, check(s.offset, s.filesz, "dynamic section")};
    }
    std::optional<Region> section_strtab;
    if (!dynamic) {
      for (const Section& s : sections_) {
        if (s.type != kShtDynamic) continue;
        dynamic = Region{s.offset, check(s.offset, s.size, "dynamic section")};
        if (s.link != 0) {
          if (s.link >= sections_.size()) throw ParseError(fmt::format("dynamic section links to missing section {}", s.link), shoff);
          const Section& str = sections_[s.link];
          section_strtab = Region{str.offset, check(str.offset, str.size, "dynamic string table")};
        }
        break;
      }
    }
    if (dynamic) read_dynamic(*dynamic, section_strtab, out);
    return out;
  }

 private:
  struct Region {
    uint64_t offset = 0, size = 0;
  };

  ByteReader window(uint64_t off, uint64_t len, const char* label, uint64_t fetch = UINT64_MAX) {
    return src_.read(off, len, label, endian_, fetch);
  }
  // Bounds check without reading; returns len.
  uint64_t check(uint64_t off, uint64_t len, const char* label) const {
    if (off > src_.size() || len > src_.size() - off) throw ParseError(std::string("truncated ") + label, off);
    return len;
  }

  Segment segment_at(const ByteReader& r) const {
    Segment s;
    s.type = r.u32_at(0);
    if (is64_) {
      s.offset = r.u64_at(8), s.vaddr = r.u64_at(16), s.filesz = r.u64_at(32), s.memsz = r.u64_at(40);
    } else {
      s.offset = r.u32_at(4), s.vaddr = r.u32_at(8), s.filesz = r.u32_at(16), s.memsz = r.u32_at(20);
    }
    return s;
  }

  Section section_at(const ByteReader& r, uint64_t) const {
    Section s;
    s.type = r.u32_at(4);
    if (is64_) {
      s.addr = r.u64_at(16), s.offset = r.u64_at(24), s.size = r.u64_at(32), s.link = r.u32_at(40);
    } else {
      s.addr = r.u32_at(12), s.offset = r.u32_at(16), s.size = r.u32_at(20), s.link = r.u32_at(24);
    }
    // SHT_NOBITS occupies no file space; its offset/size say nothing about the file.
    if (s.type == kShtNobits) s.size = 0;
    return s;
  }

  uint32_t section_info_at(uint64_t shoff) {
    ByteReader r = window(shoff, is64_ ? 64 : 40, "section header");
    return r.u32_at(is64_ ? 44 : 28);
  }

  // ld.so maps a dynamic-section address (DT_STRTAB, DT_GNU_HASH, DT_SYMTAB) through the
  // PT_LOAD segments to a file offset; so do we. The region runs to the segment's end in
  // the file, or `size` bytes when known.
  std::optional<Region> map_address(uint64_t addr, std::optional<uint64_t> size, const char* label) const {
    for (const Segment& s : segments_) {
      if (s.type != kPtLoad || addr < s.vaddr || addr - s.vaddr >= s.filesz) continue;
      uint64_t off = s.offset + (addr - s.vaddr);
      uint64_t avail = s.filesz - (addr - s.vaddr);
      return Region{off, check(off, size ? *size : avail, label)};
    }
    // No program headers (or an odd layout): the section whose address it is.
    for (const Section& s : sections_) {
      if (s.type == kShtStrtab && s.addr == addr && s.addr != 0)
        return Region{s.offset, check(s.offset, size ? std::min(*size, s.size) : s.size, label)};
    }
    return std::nullopt;
  }

  // Dynamic entries up to DT_NULL. A ranged source reads the section in growing pieces
  // (real ones end after a few hundred bytes).
  std::vector<DynEntry> dynamic_entries(const Region& dyn, uint64_t& entsize_out) {
    const uint64_t entsize = is64_ ? 16 : 8;
    entsize_out = entsize;
    for (uint64_t fetch = 4096;; fetch *= 4) {
      ByteReader r = window(dyn.offset, dyn.size, "dynamic section", fetch);
      std::vector<DynEntry> entries;
      bool ended = false;
      for (uint64_t off = 0; off + entsize <= r.size(); off += entsize) {
        DynEntry e;
        if (is64_) {
          e.tag = static_cast<int64_t>(r.u64_at(off));
          e.val = r.u64_at(off + 8);
        } else {
          e.tag = static_cast<int32_t>(r.u32_at(off));
          e.val = r.u32_at(off + 4);
        }
        if (e.tag == kDtNull) {
          ended = true;
          break;
        }
        entries.push_back(e);
      }
      if (ended || r.size() == dyn.size) {
        if (!ended && dyn.size % entsize != 0) r.truncated_at(dyn.size - dyn.size % entsize);
        return entries;
      }
    }
  }

  void read_dynamic(const Region& dyn, std::optional<Region> strtab, ElfFile& out) {
    uint64_t entsize = 0;
    std::vector<DynEntry> entries = dynamic_entries(dyn, entsize);
    out.has_dynamic = true;
    auto fail_in_dynamic = [&](uint64_t off, std::string what) { throw ParseError(std::move(what), dyn.offset + off); };

    std::optional<uint64_t> strtab_addr, strsz, gnu_hash, symtab;
    uint64_t strtab_tag_off = 0;
    bool needs_strings = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      const DynEntry& e = entries[i];
      if (e.tag == kDtStrtab) strtab_addr = e.val, strtab_tag_off = i * entsize;
      if (e.tag == kDtStrsz) strsz = e.val;
      if (e.tag == kDtFlags1) out.flags_1 = e.val;
      if (e.tag == kDtGnuHash) gnu_hash = e.val;
      if (e.tag == kDtSymtab) symtab = e.val;
      if (e.tag == kDtNeeded || e.tag == kDtSoname || e.tag == kDtRpath || e.tag == kDtRunpath) needs_strings = true;
    }
    if (!needs_strings && symbols_.empty()) return;
    if (strtab_addr) {
      auto mapped = map_address(*strtab_addr, strsz, "dynamic string table");
      if (mapped) strtab = mapped;
      else if (!strtab && !needs_strings) return;
      else if (!strtab) fail_in_dynamic(strtab_tag_off, fmt::format("DT_STRTAB address 0x{:x} is in no loadable segment", *strtab_addr));
    }
    if (!strtab) {
      if (!needs_strings) return;
      fail_in_dynamic(0, "dynamic section has no DT_STRTAB");
    }

    for (size_t i = 0; i < entries.size(); ++i) {
      const DynEntry& e = entries[i];
      if (e.tag != kDtNeeded && e.tag != kDtSoname && e.tag != kDtRpath && e.tag != kDtRunpath) continue;
      std::string s = src_.cstring(strtab->offset, strtab->size, e.val, "dynamic string table");
      switch (e.tag) {
        case kDtNeeded: out.needed.push_back(std::move(s)); break;
        case kDtSoname: out.soname = std::move(s); break;
        // ld.so splits DT_RPATH/DT_RUNPATH on ':' and skips empty elements
        // (glibc elf/dl-load.c fillin_rpath: "ignore empty paths").
        case kDtRpath: for (auto& p : split_nonempty(s, ':')) out.rpath.push_back(p); break;
        case kDtRunpath: for (auto& p : split_nonempty(s, ':')) out.runpath.push_back(p); break;
        default: break;
      }
    }
    if (!symbols_.empty() && gnu_hash && symtab) {
      for (const auto& name : symbols_) {
        // A hash table that cannot be walked leaves the symbol unknown (absent from the
        // map); it does not make the file's SONAME / NEEDED / RUNPATH less true.
        try {
          out.symbols[name] = gnu_hash_defines(*gnu_hash, *symtab, *strtab, name);
        } catch (const ParseError&) {
        }
      }
    }
  }

  // glibc elf/dl-lookup.c do_lookup_x with the DT_GNU_HASH table (dl_new_hash, the Bloom
  // filter, then the bucket's chain): true when `name` is defined (st_shndx != SHN_UNDEF).
  bool gnu_hash_defines(uint64_t hash_addr, uint64_t symtab_addr, const Region& strtab, const std::string& name) {
    auto table = map_address(hash_addr, std::nullopt, "GNU hash table");
    auto syms = map_address(symtab_addr, std::nullopt, "dynamic symbol table");
    if (!table || !syms) throw ParseError("GNU hash table or symbol table is in no loadable segment", hash_addr);
    ByteReader head = window(table->offset, 16, "GNU hash table");
    uint32_t nbuckets = head.u32_at(0), symoffset = head.u32_at(4), bloom_size = head.u32_at(8), bloom_shift = head.u32_at(12);
    if (nbuckets == 0 || bloom_size == 0) return false;
    uint32_t h = 5381;
    for (unsigned char c : name) h = h * 33 + c;
    const uint64_t word = is64_ ? 8 : 4, bits = word * 8;
    uint64_t bloom_at = table->offset + 16;
    ByteReader bloom = window(bloom_at + ((h / bits) % bloom_size) * word, word, "GNU hash Bloom filter");
    uint64_t w = is64_ ? bloom.u64_at(0) : bloom.u32_at(0);
    uint64_t mask = (uint64_t{1} << (h % bits)) | (uint64_t{1} << ((h >> bloom_shift) % bits));
    if ((w & mask) != mask) return false;
    uint64_t buckets_at = bloom_at + uint64_t{bloom_size} * word;
    uint32_t index = window(buckets_at + (h % nbuckets) * 4ull, 4, "GNU hash buckets").u32_at(0);
    if (index == 0 || index < symoffset) return false;
    uint64_t chain_at = buckets_at + uint64_t{nbuckets} * 4;
    const uint64_t symsize = is64_ ? 24 : 16;
    // A chain ends with bit 0 set; a table without one ends at its segment's end.
    for (int steps = 0; steps < (1 << 16); ++steps, ++index) {
      uint32_t h2 = window(chain_at + uint64_t{index - symoffset} * 4, 4, "GNU hash chain").u32_at(0);
      if ((h | 1) == (h2 | 1)) {
        ByteReader sym = window(syms->offset + uint64_t{index} * symsize, symsize, "dynamic symbol");
        uint32_t st_name = sym.u32_at(0);
        uint16_t shndx = sym.u16_at(is64_ ? 6 : 14);
        if (src_.cstring(strtab.offset, strtab.size, st_name, "dynamic string table") == name) return shndx != 0;
      }
      if (h2 & 1) return false;
    }
    throw ParseError("GNU hash chain without an end", chain_at);
  }

  ByteSource& src_;
  ElfInput input_;
  const std::vector<std::string>& symbols_;
  Endian endian_ = Endian::kLittle;
  bool is64_ = false;
  std::vector<Segment> segments_;
  std::vector<Section> sections_;
};

}  // namespace

const char* elf_type_name(ElfType t) {
  switch (t) {
    case ElfType::kNone: return "none";
    case ElfType::kRelocatable: return "relocatable";
    case ElfType::kExecutable: return "executable";
    case ElfType::kSharedObject: return "shared object";
    case ElfType::kCore: return "core";
    case ElfType::kOther: break;
  }
  return "other";
}

std::string elf_machine_name(uint16_t machine_code) {
  switch (machine_code) {
    case 2: return "sparc";
    case 3: return "i386";
    case 8: return "mips";
    case 20: return "ppc";
    case 21: return "ppc64";
    case 22: return "s390x";
    case 40: return "arm";
    case 43: return "sparc64";
    case 50: return "ia64";
    case 62: return "x86-64";
    case 183: return "aarch64";
    case 243: return "riscv";
    case 258: return "loongarch";
    default: break;
  }
  return fmt::format("EM_{}", machine_code);
}

bool looks_like_elf(std::string_view bytes) { return bytes.starts_with("\x7f" "ELF"); }

ElfInfo ElfFile::to_info() const {
  ElfInfo info;
  info.bits = bits;
  info.machine = machine;
  info.soname = soname;
  info.needed = needed;
  info.rpath = rpath;
  info.runpath = runpath;
  info.symbols = symbols;
  return info;
}

Result<ElfFile> parse_elf(std::string_view bytes, std::string_view name, ElfInput input,
                          const std::vector<std::string>& symbols) {
  if (!looks_like_elf(bytes)) return fail(not_this_format(name, "not an ELF file"));
  try {
    ByteSource src(bytes);
    return ElfParser(src, input, symbols).parse();
  } catch (const ParseError& e) {
    return fail(parse_error_to_error(name, e));
  }
}

Result<ElfFile> parse_elf_ranges(uint64_t size, const RangeFn& read, std::string_view name,
                                 const std::vector<std::string>& symbols) {
  try {
    ByteSource src(size, read);
    if (size < 4) return fail(not_this_format(name, "not an ELF file"));
    if (!looks_like_elf(src.read(0, 4, "ELF magic", Endian::kLittle).data())) return fail(not_this_format(name, "not an ELF file"));
    return ElfParser(src, ElfInput::kWholeFile, symbols).parse();
  } catch (const ParseError& e) {
    return fail(parse_error_to_error(name, e));
  } catch (const ReadError& e) {
    return fail(Error::io(name.empty() ? std::string(e.what()) : fmt::format("{}: {}", name, e.what())));
  }
}

Result<ElfInfo> read_elf_info(std::string_view bytes, std::string_view name) {
  auto f = parse_elf(bytes, name);
  if (!f) return fail(f.error());
  return f->to_info();
}

}  // namespace tfgpu::binfmt
