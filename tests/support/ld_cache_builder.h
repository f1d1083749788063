#pragma once
// Writes small ld.so.cache files by hand (old, new or compat layout, glibc dl-cache.h), so
// the cache reader is tested without root or ldconfig. Entries are written in the given
// order; strings are deduplicated into one table after the entries.

#include <cstdint>
#include <string>
#include <vector>

namespace tfgpu::test {

struct LdCacheBuilder {
  enum class Layout { kOld, kNew, kCompat };
  struct Entry {
    std::string name, path;
    int32_t flags = 0x0303;  // libc6, x86-64
    uint64_t hwcap = 0;
  };
  Layout layout = Layout::kNew;
  std::vector<Entry> entries;
  std::string build() const;
};

}  // namespace tfgpu::test
