#include "binfmt/pe.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "util/text_encoding.h"

namespace tfgpu::binfmt {
namespace {

// Layout: Microsoft "PE Format" (learn.microsoft.com/windows/win32/debug/pe-format) and
// "VS_VERSIONINFO" / "VS_FIXEDFILEINFO" / "StringFileInfo" (winver.h docs).
constexpr uint16_t kPe32Magic = 0x10b, kPe32PlusMagic = 0x20b;
constexpr uint16_t kFileDll = 0x2000;
constexpr uint32_t kDirImport = 1, kDirResource = 2, kDirDelayImport = 13;
constexpr uint32_t kRtVersion = 16;
constexpr uint32_t kFixedFileInfoSignature = 0xFEEF04BD;
// Bounds on what a sane image holds; they stop hostile counts from spinning for long.
constexpr uint32_t kMaxImports = 65536;
constexpr int kMaxVersionDepth = 8;

struct SectionHeader {
  std::string name;
  uint32_t virtual_size = 0, virtual_address = 0, raw_size = 0, raw_pointer = 0;
};

std::string four_part(uint32_t ms, uint32_t ls) {
  return fmt::format("{}.{}.{}.{}", ms >> 16, ms & 0xFFFF, ls >> 16, ls & 0xFFFF);
}

class PeParser {
 public:
  explicit PeParser(ByteSource& src) : src_(src) {}

  PeFile parse() {
    PeFile out;
    uint32_t lfanew = read(0x3c, 4, "DOS header").u32_at(0);
    ByteReader coff = read(lfanew, 24, "COFF header");
    if (coff.bytes_at(0, 4) != std::string_view("PE\0\0", 4)) coff.fail_at(0, "bad PE signature");
    out.machine_code = coff.u16_at(4);
    out.machine = pe_machine_name(out.machine_code);
    uint16_t nsections = coff.u16_at(6);
    uint16_t opt_size = coff.u16_at(20);
    out.is_dll = (coff.u16_at(22) & kFileDll) != 0;

    ByteReader opt = read(uint64_t{lfanew} + 24, opt_size, "optional header");
    uint16_t magic = opt.u16_at(0);
    if (magic != kPe32Magic && magic != kPe32PlusMagic) opt.fail_at(0, fmt::format("bad optional header magic 0x{:x}", magic));
    bool plus = magic == kPe32PlusMagic;
    out.bits = plus ? 64 : 32;
    image_base_ = plus ? opt.u64_at(24) : opt.u32_at(28);
    size_of_headers_ = opt.u32_at(60);
    out.subsystem = opt.u16_at(68);
    uint32_t ndirs = opt.u32_at(plus ? 108 : 92);
    uint64_t dirs_at = plus ? 112 : 96;
    // The count may claim more than the header holds; only what is there is read.
    ndirs = static_cast<uint32_t>(std::min<uint64_t>(ndirs, (opt.size() - std::min<uint64_t>(opt.size(), dirs_at)) / 8));

    uint64_t sections_at = uint64_t{lfanew} + 24 + opt_size;
    ByteReader table = read(sections_at, uint64_t{nsections} * 40, "section table");
    for (uint16_t i = 0; i < nsections; ++i) {
      ByteReader s = table.sub(i * 40ull, 40, "section header");
      SectionHeader h;
      std::string_view raw_name = s.bytes_at(0, 8);
      h.name = std::string(raw_name.substr(0, raw_name.find('\0')));
      h.virtual_size = s.u32_at(8);
      h.virtual_address = s.u32_at(12);
      h.raw_size = s.u32_at(16);
      h.raw_pointer = s.u32_at(20);
      // A section's raw data must be in the file: a cut-short download fails here.
      if (h.raw_size != 0) check(h.raw_pointer, h.raw_size, "section " + h.name);
      sections_.push_back(std::move(h));
    }

    struct Dir { uint32_t rva = 0, size = 0; uint64_t where = 0; };
    auto dir = [&](uint32_t index) {
      if (index >= ndirs) return Dir{};
      uint64_t at = dirs_at + index * 8;
      return Dir{opt.u32_at(at), opt.u32_at(at + 4), opt.base() + at};
    };
    if (Dir d = dir(kDirImport); d.rva != 0) read_imports(d.rva, d.where, out.imports);
    if (Dir d = dir(kDirDelayImport); d.rva != 0) read_delay_imports(d.rva, d.where, out.delay_imports);
    if (Dir d = dir(kDirResource); d.rva != 0 && d.size != 0) read_version_resource(d.rva, d.size, d.where, out);
    return out;
  }

 private:
  // RVA -> file offset through the section table.
  std::optional<uint64_t> rva_to_offset(uint64_t rva) const {
    // The headers are mapped at RVA 0 as they are in the file.
    if (rva < size_of_headers_ && (sections_.empty() || rva < sections_.front().virtual_address)) return rva;
    for (const SectionHeader& s : sections_) {
      uint64_t extent = std::max(s.virtual_size, s.raw_size);
      if (rva >= s.virtual_address && rva - s.virtual_address < extent) {
        uint64_t delta = rva - s.virtual_address;
        if (delta >= s.raw_size) return std::nullopt;  // in the zero-filled tail
        return uint64_t{s.raw_pointer} + delta;
      }
    }
    return std::nullopt;
  }

  // `where` is the file offset the RVA was read from, for the error message.
  uint64_t offset_of(uint64_t rva, const char* what, uint64_t where) const {
    auto off = rva_to_offset(rva);
    if (!off) throw ParseError(fmt::format("{} RVA 0x{:x} is in no section", what, rva), where);
    return *off;
  }

  std::string string_at_rva(uint64_t rva, const char* what, uint64_t where) const {
    uint64_t off = offset_of(rva, what, where);
    check(off, 0, what);
    return src_.cstring(off, src_.size() - off, 0, what);
  }

  void read_imports(uint32_t rva, uint64_t where, std::vector<std::string>& out) {
    uint64_t dir = offset_of(rva, "import directory", where);
    check(dir, 0, "import directory");
    for (uint32_t i = 0; i < kMaxImports; ++i) {
      ByteReader d = read(dir + i * 20ull, 20, "import directory");
      uint32_t name_rva = d.u32_at(12);
      // The table ends with an all-zero descriptor; a zero name ends it too in practice.
      if (name_rva == 0) return;
      out.push_back(string_at_rva(name_rva, "import name", d.base() + 12));
    }
    throw ParseError("import directory has no terminating entry", dir);
  }

  void read_delay_imports(uint32_t rva, uint64_t where, std::vector<std::string>& out) {
    uint64_t dir = offset_of(rva, "delay-load directory", where);
    check(dir, 0, "delay-load directory");
    for (uint32_t i = 0; i < kMaxImports; ++i) {
      ByteReader d = read(dir + i * 32ull, 32, "delay-load directory");
      uint32_t attributes = d.u32_at(0);
      uint64_t name = d.u32_at(4);
      if (name == 0) return;
      // Attributes bit 0 clear: the old (VC6) layout holds virtual addresses, not RVAs.
      if ((attributes & 1) == 0 && name >= image_base_) name -= image_base_;
      out.push_back(string_at_rva(name, "delay-load name", d.base() + 4));
    }
    throw ParseError("delay-load directory has no terminating entry", dir);
  }

  // Resource tree: type -> name -> language -> data entry (three directory levels).
  void read_version_resource(uint32_t rva, uint32_t size, uint64_t where, PeFile& out) {
    uint64_t at = offset_of(rva, "resource directory", where);
    check(at, 0, "resource directory");
    // The directory may claim more than the file holds; what is there is read.
    ByteReader rsrc = read(at, std::min<uint64_t>(size, src_.size() - at), "resource directory");
    auto entry = find_entry(rsrc, 0, kRtVersion);
    if (!entry) return;  // no VERSIONINFO: a fact, not an error
    uint32_t off = *entry;
    // Levels 2 and 3: the first name, the first language.
    for (int level = 1; level <= 2; ++level) {
      if ((off & 0x80000000u) == 0) break;
      auto next = find_entry(rsrc, off & 0x7fffffffu, std::nullopt);
      if (!next) return;
      off = *next;
    }
    if (off & 0x80000000u) rsrc.fail_at(off & 0x7fffffffu, "resource tree deeper than three levels");
    ByteReader data_entry = rsrc.sub(off, 16, "resource data entry");
    uint32_t data_rva = data_entry.u32_at(0);
    uint32_t data_size = data_entry.u32_at(4);
    ByteReader data = read(offset_of(data_rva, "version resource", data_entry.base()), data_size, "version resource");
    read_version_info(data, out);
  }

  // Returns the OffsetToData of the entry with the given id (or the first entry).
  std::optional<uint32_t> find_entry(const ByteReader& rsrc, uint32_t dir_off, std::optional<uint32_t> id) {
    ByteReader dir = rsrc.sub(dir_off, 16, "resource directory");
    uint32_t count = uint32_t{dir.u16_at(12)} + dir.u16_at(14);
    // The counts must describe entries that exist, found or not.
    rsrc.sub(dir_off + 16ull, count * 8ull, "resource directory entries");
    for (uint32_t i = 0; i < count; ++i) {
      ByteReader e = rsrc.sub(dir_off + 16ull + i * 8ull, 8, "resource directory entry");
      uint32_t name = e.u32_at(0);
      uint32_t data = e.u32_at(4);
      if (!id || ((name & 0x80000000u) == 0 && name == *id)) return data;
    }
    return std::nullopt;
  }

  // VS_VERSIONINFO: {wLength, wValueLength, wType, szKey, pad, Value, pad, Children}.
  struct Block {
    uint64_t start = 0, end = 0;  // within the version resource
    uint16_t value_length = 0, type = 0;
    std::string key;
    uint64_t value_at = 0, children_at = 0;
  };

  static uint64_t align4(uint64_t v) { return (v + 3) & ~uint64_t{3}; }

  std::string utf16_at(const ByteReader& r, uint64_t& off, uint64_t end, uint64_t max_units) const {
    std::string s;
    for (uint64_t n = 0; n < max_units && off + 2 <= end; ++n) {
      uint32_t u = r.u16_at(off);
      off += 2;
      if (u == 0) return s;
      if (u >= 0xD800 && u < 0xDC00 && off + 2 <= end) {
        uint32_t lo = r.u16_at(off);
        if (lo >= 0xDC00 && lo < 0xE000) {
          off += 2;
          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        }
      }
      append_utf8(s, u);
    }
    return s;
  }

  Block block_at(const ByteReader& r, uint64_t at, uint64_t parent_end) const {
    Block b;
    b.start = at;
    uint16_t length = r.u16_at(at);
    if (length < 6) r.fail_at(at, fmt::format("bad version block length {}", length));
    b.end = at + length;
    if (b.end > parent_end) r.truncated_at(at);
    b.value_length = r.u16_at(at + 2);
    b.type = r.u16_at(at + 4);
    uint64_t off = at + 6;
    b.key = utf16_at(r, off, b.end, 256);
    b.value_at = align4(off);
    return b;
  }

  void read_version_info(const ByteReader& r, PeFile& out) {
    Block root = block_at(r, 0, r.size());
    if (root.key != "VS_VERSION_INFO") r.fail_at(6, "version resource without VS_VERSION_INFO key");
    if (root.value_length >= 52) {
      ByteReader fixed = r.sub(root.value_at, 52, "VS_FIXEDFILEINFO");
      if (fixed.u32_at(0) != kFixedFileInfoSignature) fixed.fail_at(0, "bad VS_FIXEDFILEINFO signature");
      out.file_version = four_part(fixed.u32_at(8), fixed.u32_at(12));
      out.product_version = four_part(fixed.u32_at(16), fixed.u32_at(20));
    }
    uint64_t children = align4(root.value_at + root.value_length);
    for (uint64_t at = children; at + 6 <= root.end;) {
      Block child = block_at(r, at, root.end);
      if (child.key == "StringFileInfo") read_string_file_info(r, child, out);
      at = align4(child.end);
    }
  }

  void read_string_file_info(const ByteReader& r, const Block& sfi, PeFile& out) {
    // Children are StringTables (one per language); the first one is read.
    uint64_t at = align4(sfi.value_at);
    if (at + 6 > sfi.end) return;
    Block table = block_at(r, at, sfi.end);
    for (uint64_t s = align4(table.value_at); s + 6 <= table.end;) {
      Block str = block_at(r, s, table.end);
      uint64_t v = str.value_at;
      // wValueLength counts WCHARs for text values; read up to the block's end either way.
      std::string value = str.value_length == 0 ? std::string() : utf16_at(r, v, str.end, str.value_length);
      if (!str.key.empty() && !out.version_strings.contains(str.key)) out.version_strings[str.key] = value;
      s = align4(str.end);
    }
  }

  ByteReader read(uint64_t off, uint64_t len, const std::string& label) { return src_.read(off, len, label, Endian::kLittle); }
  // Bounds only, nothing read.
  void check(uint64_t off, uint64_t len, const std::string& label) const {
    if (off > src_.size() || len > src_.size() - off) throw ParseError("truncated " + label, off);
  }

  ByteSource& src_;
  uint64_t image_base_ = 0;
  uint32_t size_of_headers_ = 0;
  std::vector<SectionHeader> sections_;
};

}  // namespace

std::string pe_machine_name(uint16_t machine_code) {
  switch (machine_code) {
    case 0x14c: return "x86";
    case 0x8664: return "x64";
    case 0xaa64: return "arm64";
    case 0x1c0:
    case 0x1c4: return "arm";
    case 0x200: return "ia64";
    default: break;
  }
  return fmt::format("0x{:x}", machine_code);
}

bool looks_like_pe(std::string_view bytes) {
  if (bytes.size() < 0x40 || !bytes.starts_with("MZ")) return false;
  ByteReader r(bytes);
  uint64_t lfanew = r.u32_at(0x3c);
  return r.has(lfanew, 4) && bytes.substr(lfanew, 4) == std::string_view("PE\0\0", 4);
}

PeInfo PeFile::to_info() const {
  PeInfo info;
  info.bits = bits;
  info.machine = machine;
  info.imports = imports;
  info.file_version = file_version;
  info.product_version = product_version;
  auto str = [&](const char* key) {
    auto it = version_strings.find(key);
    return it == version_strings.end() ? std::string() : it->second;
  };
  if (info.file_version.empty()) info.file_version = str("FileVersion");
  if (info.product_version.empty()) info.product_version = str("ProductVersion");
  return info;
}

Result<PeFile> parse_pe(std::string_view bytes, std::string_view name) {
  // "MZ" alone is the DOS stub's claim; a DOS program or a truncated header with MZ is
  // still "a PE file that is malformed" only when the PE signature can be checked.
  if (!bytes.starts_with("MZ")) return fail(not_this_format(name, "not a PE file"));
  // A DOS program: MZ header complete, e_lfanew inside the file, but no PE signature there.
  if (bytes.size() >= 0x40 && !looks_like_pe(bytes)) {
    uint64_t lfanew = ByteReader(bytes).u32_at(0x3c);
    if (lfanew <= bytes.size() - 4) return fail(not_this_format(name, "not a PE file (MZ without PE signature)"));
  }
  try {
    ByteSource src(bytes);
    return PeParser(src).parse();
  } catch (const ParseError& e) {
    return fail(parse_error_to_error(name, e));
  }
}

Result<PeFile> parse_pe_ranges(uint64_t size, const RangeFn& read, std::string_view name) {
  try {
    ByteSource src(size, read);
    // The same signature checks as parse_pe, on the DOS header and e_lfanew's target.
    if (size < 2 || src.read(0, 2, "DOS header", Endian::kLittle).data() != "MZ") return fail(not_this_format(name, "not a PE file"));
    if (size >= 0x40) {
      uint64_t lfanew = src.read(0x3c, 4, "DOS header", Endian::kLittle).u32_at(0);
      if (lfanew <= size - 4 && src.read(lfanew, 4, "PE signature", Endian::kLittle).data() != std::string_view("PE\0\0", 4))
        return fail(not_this_format(name, "not a PE file (MZ without PE signature)"));
    }
    return PeParser(src).parse();
  } catch (const ParseError& e) {
    return fail(parse_error_to_error(name, e));
  } catch (const ReadError& e) {
    return fail(Error::io(name.empty() ? std::string(e.what()) : fmt::format("{}: {}", name, e.what())));
  }
}

Result<PeInfo> read_pe_info(std::string_view bytes, std::string_view name) {
  auto f = parse_pe(bytes, name);
  if (!f) return fail(f.error());
  return f->to_info();
}

}  // namespace tfgpu::binfmt
