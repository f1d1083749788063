#include "binfmt/ld_cache.h"

#include <fmt/format.h>

#include "binfmt/byte_reader.h"

namespace tfgpu::binfmt {
namespace {

// glibc sysdeps/generic/dl-cache.h. Old layout: magic[11] (+1 pad), nlibs, entries of
// {flags, key, value}, then the string table; string offsets count from the end of the
// entries. New layout (48-byte header, 24-byte entries {flags, key, value, osversion,
// hwcap}); string offsets count from the start of the new header. In the compat layout
// the new cache follows the old entries, aligned to 8 (ALIGN_CACHE), and ld.so reads it.
constexpr std::string_view kOldMagic = "ld.so-1.7.0";
constexpr std::string_view kNewMagic = "glibc-ld.so.cache1.1";
constexpr uint64_t kOldHeaderSize = 16, kOldEntrySize = 12;
constexpr uint64_t kNewHeaderSize = 48, kNewEntrySize = 24;
constexpr uint32_t kExtensionMagic = 0xeaa42174;  // struct cache_extension (glibc 2.33+)
constexpr uint8_t kEndianBig = 3;                 // cache_file_new_flags_endian_big

uint64_t align8(uint64_t v) { return (v + 7) & ~uint64_t{7}; }

std::vector<LdCacheRecord> read_new(const ByteReader& file, uint64_t start) {
  ByteReader head = file.sub(start, kNewHeaderSize, "new cache header");
  // glibc >= 2.33 records the byte order in `flags`; older caches are host order, which
  // for every cache tfgpu sees is the reader's (little) unless marked.
  Endian endian = (head.u8_at(28) & 3) == kEndianBig ? Endian::kBig : Endian::kLittle;
  ByteReader cache = file.tail(start, "new cache");
  cache.set_endian(endian);
  uint32_t nlibs = cache.u32_at(20);
  uint32_t len_strings = cache.u32_at(24);
  uint32_t extension_offset = cache.u32_at(32);
  cache.sub(kNewHeaderSize, uint64_t{nlibs} * kNewEntrySize, "cache entries");
  ByteReader whole = cache.sub(0, kNewHeaderSize + uint64_t{nlibs} * kNewEntrySize + len_strings, "cache string table");
  if (extension_offset != 0) {
    ByteReader ext = cache.sub(extension_offset, 8, "cache extension header");
    if (ext.u32_at(0) == kExtensionMagic) {
      uint32_t count = ext.u32_at(4);
      ByteReader sections = cache.sub(extension_offset + 8ull, uint64_t{count} * 16, "cache extension sections");
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t off = sections.u32_at(i * 16ull + 8), size = sections.u32_at(i * 16ull + 12);
        cache.sub(off, size, "cache extension section");
      }
    }
  }
  std::vector<LdCacheRecord> out;
  for (uint32_t i = 0; i < nlibs; ++i) {
    ByteReader e = whole.sub(kNewHeaderSize + i * kNewEntrySize, kNewEntrySize, "cache entry");
    LdCacheRecord r;
    r.flags = static_cast<int32_t>(e.u32_at(0));
    r.entry.name = std::string(whole.cstring_at(e.u32_at(4)));
    r.entry.path = std::string(whole.cstring_at(e.u32_at(8)));
    r.os_version = e.u32_at(12);
    r.hwcap = e.u64_at(16);
    r.entry.arch = ld_cache_arch_name(r.flags);
    out.push_back(std::move(r));
  }
  return out;
}

LdCache parse(std::string_view bytes) {
  ByteReader file(bytes, Endian::kLittle, "cache header");
  LdCache out;
  if (bytes.starts_with(kNewMagic)) {
    out.format = LdCacheFormat::kNew;
    out.records = read_new(file, 0);
    return out;
  }
  uint32_t nlibs = file.u32_at(12);
  uint64_t entries_end = kOldHeaderSize + uint64_t{nlibs} * kOldEntrySize;
  ByteReader entries = file.sub(kOldHeaderSize, uint64_t{nlibs} * kOldEntrySize, "cache entries");
  uint64_t new_at = align8(entries_end);
  if (file.has(new_at, kNewMagic.size()) && file.bytes_at(new_at, kNewMagic.size()) == kNewMagic) {
    out.format = LdCacheFormat::kCompat;
    out.records = read_new(file, new_at);
    return out;
  }
  out.format = LdCacheFormat::kOld;
  ByteReader strings = file.tail(entries_end, "cache string table");
  for (uint32_t i = 0; i < nlibs; ++i) {
    LdCacheRecord r;
    r.flags = static_cast<int32_t>(entries.u32_at(i * kOldEntrySize));
    r.entry.name = std::string(strings.cstring_at(entries.u32_at(i * kOldEntrySize + 4)));
    r.entry.path = std::string(strings.cstring_at(entries.u32_at(i * kOldEntrySize + 8)));
    r.entry.arch = ld_cache_arch_name(r.flags);
    out.records.push_back(std::move(r));
  }
  return out;
}

}  // namespace

const char* ld_cache_format_name(LdCacheFormat f) {
  switch (f) {
    case LdCacheFormat::kOld: return "old";
    case LdCacheFormat::kNew: return "new";
    case LdCacheFormat::kCompat: break;
  }
  return "compat";
}

std::vector<LdCacheEntry> LdCache::entries() const {
  std::vector<LdCacheEntry> out;
  out.reserve(records.size());
  for (const auto& r : records) out.push_back(r.entry);
  return out;
}

Result<LdCache> parse_ld_cache(std::string_view bytes, std::string_view name) {
  if (!bytes.starts_with(kNewMagic) && !bytes.starts_with(kOldMagic))
    return fail(not_this_format(name, "not an ld.so.cache file"));
  try {
    return parse(bytes);
  } catch (const ParseError& e) {
    return fail(parse_error_to_error(name, e));
  }
}

// Flag values: glibc elf/ldconfig.h / sysdeps/generic/ldconfig.h (FLAG_*).
std::string ld_cache_arch_name(int32_t flags) {
  switch (flags & 0xff) {
    case 0x00: return "libc4";
    case 0x01: return "elf";
    case 0x02: return "libc5";
    case 0x03: break;  // FLAG_ELF_LIBC6
    default: return fmt::format("unknown-{}", flags & 0xff);
  }
  switch (flags & 0xff00) {
    case 0x0000: return "i386";
    case 0x0100: return "sparc64";
    case 0x0200: return "ia64";
    case 0x0300: return "x86-64";
    case 0x0400: return "s390x";
    case 0x0500: return "ppc64";
    case 0x0600: return "mips64-n32";
    case 0x0700: return "mips64";
    case 0x0800: return "x32";
    case 0x0900: return "arm-hf";
    case 0x0a00: return "aarch64";
    case 0x0b00: return "arm-sf";
    case 0x0c00: return "mips-nan2008";
    case 0x0d00: return "mips64-n32-nan2008";
    case 0x0e00: return "mips64-nan2008";
    case 0x0f00: return "riscv-soft";
    case 0x1000: return "riscv-double";
    case 0x1100: return "loongarch-soft";
    case 0x1200: return "loongarch-double";
    default: break;
  }
  return fmt::format("libc6-{}", (flags & 0xff00) >> 8);
}

// As ldconfig's print_entry (elf/cache.c) writes it.
std::string ldconfig_flags_text(int32_t flags) {
  std::string s;
  switch (flags & 0xff) {
    case 0x00: s = "libc4"; break;
    case 0x01: s = "ELF"; break;
    case 0x02: s = "libc5"; break;
    case 0x03: s = "libc6"; break;
    default: s = "unknown"; break;
  }
  switch (flags & 0xff00) {
    case 0x0000: break;
    case 0x0100: s += ",64bit"; break;
    case 0x0200: s += ",IA-64"; break;
    case 0x0300: s += ",x86-64"; break;
    case 0x0400: s += ",64bit"; break;
    case 0x0500: s += ",64bit"; break;
    case 0x0600: s += ",N32"; break;
    case 0x0700: s += ",64bit"; break;
    case 0x0800: s += ",x32"; break;
    case 0x0900: s += ",hard-float"; break;
    case 0x0a00: s += ",AArch64"; break;
    case 0x0b00: s += ",soft-float"; break;
    case 0x0c00: s += ",nan2008"; break;
    case 0x0d00: s += ",N32,nan2008"; break;
    case 0x0e00: s += ",64bit,nan2008"; break;
    case 0x0f00: s += ",soft-float"; break;
    case 0x1000: s += ",double-float"; break;
    case 0x1100: s += ",soft-float"; break;
    case 0x1200: s += ",double-float"; break;
    default: s += fmt::format(",{}", flags & 0xff00); break;
  }
  return s;
}

}  // namespace tfgpu::binfmt
