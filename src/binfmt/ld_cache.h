#pragma once
// /etc/ld.so.cache reader: the old format ("ld.so-1.7.0"), the new one
// ("glibc-ld.so.cache1.1") and the compat layout (new embedded after old). Pure.
// Layout: glibc sysdeps/generic/dl-cache.h (struct cache_file, cache_file_new).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::binfmt {

enum class LdCacheFormat {
  kOld,     // "ld.so-1.7.0" only
  kNew,     // "glibc-ld.so.cache1.1" only (glibc >= 2.32 default)
  kCompat,  // old header and entries, then the new cache (entries read from the new part)
};
const char* ld_cache_format_name(LdCacheFormat f);  // "old", "new", "compat"

struct LdCacheRecord {
  LdCacheEntry entry;       // name, path, arch (ld_cache_arch_name(flags))
  int32_t flags = 0;        // FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 ...
  uint32_t os_version = 0;  // new format only
  uint64_t hwcap = 0;       // new format only
};

struct LdCache {
  LdCacheFormat format = LdCacheFormat::kNew;
  std::vector<LdCacheRecord> records;  // in file order (ld.so's lookup order)

  // Just the snapshot entries, in file order.
  std::vector<LdCacheEntry> entries() const;
};

// Errors: kNotFound "NAME: not an ld.so.cache file" when neither magic is present;
//         kInput "NAME: truncated cache entries at offset 0x..." and similar.
Result<LdCache> parse_ld_cache(std::string_view bytes, std::string_view name = {});

// The architecture a cache entry is for, as the snapshot names it: "x86-64", "aarch64",
// "x32", "i386" (libc6 without a 64-bit ABI flag: i386 on x86 machines, 32-bit otherwise),
// "ia64", "sparc64", "s390x", "ppc64", "mips64-n32", "mips64", "arm-hf", "arm-sf",
// "riscv-soft", "riscv-double", "loongarch-soft", "loongarch-double";
// "libc5" / "libc4" / "elf" for ancient non-libc6 entries.
std::string ld_cache_arch_name(int32_t flags);

// The flag text exactly as `ldconfig -p` prints it between the parentheses, without the
// hwcap / OS ABI parts: "libc6,x86-64", "libc6", "libc6,AArch64", "libc6,x32".
std::string ldconfig_flags_text(int32_t flags);

}  // namespace tfgpu::binfmt
