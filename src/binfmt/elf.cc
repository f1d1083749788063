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
                  kDtRpath = 15, kDtRunpath = 29, kDtFlags1 = 0x6ffffffb;
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
  ElfParser(std::string_view bytes, ElfInput input) : file_(bytes, Endian::kLittle, "ELF header"), input_(input) {}

  ElfFile parse() {
    ElfFile out;
    ByteReader ident = file_.sub(0, 16, "ELF identification");
    uint8_t cls = ident.u8_at(4);
    uint8_t data = ident.u8_at(5);
    if (cls != kElfClass32 && cls != kElfClass64) ident.fail_at(4, fmt::format("bad ELF class {}", cls));
    if (data != kElfData2Lsb && data != kElfData2Msb) ident.fail_at(5, fmt::format("bad ELF data encoding {}", data));
    is64_ = cls == kElfClass64;
    out.bits = is64_ ? 64 : 32;
    out.endian = data == kElfData2Lsb ? Endian::kLittle : Endian::kBig;
    out.os_abi = ident.u8_at(7);
    file_.set_endian(out.endian);

    ByteReader eh = file_.sub(0, is64_ ? 64 : 52, "ELF header");
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
      Section first = section_at(shoff, shentsize, 0);
      if (shnum == 0) shnum = first.size;
      if (phnum == kPnXnum) phnum = section_info_at(shoff);
      // The whole table must be in the file: a file cut short fails here rather than
      // parsing into half-truths.
      if (shnum > 0) {
        if (shnum > file_.size() / shentsize) throw ParseError("truncated section header table", shoff);
        file_.sub(shoff, shnum * shentsize, "section header table");
        for (uint64_t i = 0; i < shnum; ++i) sections_.push_back(section_at(shoff, shentsize, i));
      }
    }
    if (phnum > 0) {
      if (phentsize < (is64_ ? 56 : 32)) eh.fail_at(is64_ ? 54 : 42, fmt::format("bad program header size {}", phentsize));
      file_.sub(phoff, phnum * uint64_t{phentsize}, "program header table");
      for (uint64_t i = 0; i < phnum; ++i) segments_.push_back(segment_at(phoff + i * phentsize));
    }

    std::optional<ByteReader> dynamic;
    for (const Segment& s : segments_) {
      if (s.type == kPtLoad && input_ == ElfInput::kWholeFile) file_.sub(s.offset, s.filesz, "loadable segment");
      if (s.type == kPtInterp) {
        ByteReader interp = file_.sub(s.offset, s.filesz, "interpreter path");
        out.interpreter = std::string(interp.cstring_at(0));
      }
      if (s.type == kPtDynamic && !dynamic) dynamic = file_.sub(s.offset, s.filesz, "dynamic section");
    }
    std::optional<ByteReader> section_strtab;
    if (!dynamic) {
      for (const Section& s : sections_) {
        if (s.type != kShtDynamic) continue;
        dynamic = file_.sub(s.offset, s.size, "dynamic section");
        if (s.link != 0) {
          if (s.link >= sections_.size()) file_.fail_at(shoff, fmt::format("dynamic section links to missing section {}", s.link));
          const Section& str = sections_[s.link];
          section_strtab = file_.sub(str.offset, str.size, "dynamic string table");
        }
        break;
      }
    }
    if (dynamic) read_dynamic(*dynamic, section_strtab, out);
    return out;
  }

 private:
  Segment segment_at(uint64_t off) const {
    ByteReader r = file_.sub(off, is64_ ? 56 : 32, "program header");
    Segment s;
    s.type = r.u32_at(0);
    if (is64_) {
      s.offset = r.u64_at(8), s.vaddr = r.u64_at(16), s.filesz = r.u64_at(32), s.memsz = r.u64_at(40);
    } else {
      s.offset = r.u32_at(4), s.vaddr = r.u32_at(8), s.filesz = r.u32_at(16), s.memsz = r.u32_at(20);
    }
    return s;
  }

  Section section_at(uint64_t shoff, uint64_t shentsize, uint64_t index) const {
    ByteReader r = file_.sub(shoff + index * shentsize, is64_ ? 64 : 40, "section header");
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

  uint32_t section_info_at(uint64_t shoff) const {
    ByteReader r = file_.sub(shoff, is64_ ? 64 : 40, "section header");
    return r.u32_at(is64_ ? 44 : 28);
  }

  // ld.so maps DT_STRTAB (a virtual address) through the PT_LOAD segments; so do we.
  std::optional<ByteReader> map_strtab(uint64_t addr, std::optional<uint64_t> size) const {
    for (const Segment& s : segments_) {
      if (s.type != kPtLoad || addr < s.vaddr || addr - s.vaddr >= s.filesz) continue;
      uint64_t off = s.offset + (addr - s.vaddr);
      uint64_t avail = s.filesz - (addr - s.vaddr);
      return file_.sub(off, size ? *size : avail, "dynamic string table");
    }
    // No program headers (or an odd layout): the section whose address it is.
    for (const Section& s : sections_) {
      if (s.type == kShtStrtab && s.addr == addr && s.addr != 0)
        return file_.sub(s.offset, size ? std::min(*size, s.size) : s.size, "dynamic string table");
    }
    return std::nullopt;
  }

  void read_dynamic(const ByteReader& dyn, std::optional<ByteReader> strtab, ElfFile& out) {
    const uint64_t entsize = is64_ ? 16 : 8;
    std::vector<DynEntry> entries;
    for (uint64_t off = 0; off + entsize <= dyn.size(); off += entsize) {
      DynEntry e;
      if (is64_) {
        e.tag = static_cast<int64_t>(dyn.u64_at(off));
        e.val = dyn.u64_at(off + 8);
      } else {
        e.tag = static_cast<int32_t>(dyn.u32_at(off));
        e.val = dyn.u32_at(off + 4);
      }
      if (e.tag == kDtNull) break;
      entries.push_back(e);
    }
    if (dyn.size() % entsize != 0 && entries.size() == dyn.size() / entsize) dyn.truncated_at(dyn.size() - dyn.size() % entsize);
    out.has_dynamic = true;

    std::optional<uint64_t> strtab_addr, strsz;
    uint64_t strtab_tag_off = 0;
    bool needs_strings = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      const DynEntry& e = entries[i];
      if (e.tag == kDtStrtab) strtab_addr = e.val, strtab_tag_off = i * entsize;
      if (e.tag == kDtStrsz) strsz = e.val;
      if (e.tag == kDtFlags1) out.flags_1 = e.val;
      if (e.tag == kDtNeeded || e.tag == kDtSoname || e.tag == kDtRpath || e.tag == kDtRunpath) needs_strings = true;
    }
    if (!needs_strings) return;
    if (strtab_addr) {
      auto mapped = map_strtab(*strtab_addr, strsz);
      if (mapped) strtab = mapped;
      else if (!strtab) dyn.fail_at(strtab_tag_off, fmt::format("DT_STRTAB address 0x{:x} is in no loadable segment", *strtab_addr));
    }
    if (!strtab) dyn.fail_at(0, "dynamic section has no DT_STRTAB");

    for (size_t i = 0; i < entries.size(); ++i) {
      const DynEntry& e = entries[i];
      if (e.tag != kDtNeeded && e.tag != kDtSoname && e.tag != kDtRpath && e.tag != kDtRunpath) continue;
      std::string s(strtab->cstring_at(e.val));
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
  }

  ByteReader file_;
  ElfInput input_;
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
  return info;
}

Result<ElfFile> parse_elf(std::string_view bytes, std::string_view name, ElfInput input) {
  if (!looks_like_elf(bytes)) return fail(not_this_format(name, "not an ELF file"));
  try {
    return ElfParser(bytes, input).parse();
  } catch (const ParseError& e) {
    return fail(parse_error_to_error(name, e));
  }
}

Result<ElfInfo> read_elf_info(std::string_view bytes, std::string_view name) {
  auto f = parse_elf(bytes, name);
  if (!f) return fail(f.error());
  return f->to_info();
}

}  // namespace tfgpu::binfmt
