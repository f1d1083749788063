#include "support/ld_cache_builder.h"

#include <map>

#include "support/le_bytes.h"

namespace tfgpu::test {
namespace {

// The new cache (header, entries, strings) with string offsets from its own start.
std::string new_cache(const std::vector<LdCacheBuilder::Entry>& entries) {
  std::string s = "glibc-ld.so.cache1.1";
  put_le(s, entries.size(), 4);
  size_t len_strings_at = s.size();
  put_le(s, 0, 4);
  put_le(s, 2, 1);  // flags: little endian
  put_le(s, 0, 3);
  put_le(s, 0, 4);  // no extensions
  put_le(s, 0, 12);
  size_t first_entry = s.size();
  s.append(entries.size() * 24, '\0');
  size_t strings_at = s.size();
  std::map<std::string, size_t> offsets;
  auto str = [&](const std::string& v) {
    auto it = offsets.find(v);
    if (it != offsets.end()) return it->second;
    size_t off = s.size();
    s += v;
    s += '\0';
    offsets[v] = off;
    return off;
  };
  for (size_t i = 0; i < entries.size(); ++i) {
    size_t e = first_entry + i * 24;
    put_le_at(s, e, static_cast<uint32_t>(entries[i].flags), 4);
    put_le_at(s, e + 4, str(entries[i].name), 4);
    put_le_at(s, e + 8, str(entries[i].path), 4);
    put_le_at(s, e + 16, entries[i].hwcap, 8);
  }
  put_le_at(s, len_strings_at, s.size() - strings_at, 4);
  return s;
}

}  // namespace

std::string LdCacheBuilder::build() const {
  if (layout == Layout::kNew) return new_cache(entries);
  std::string s = "ld.so-1.7.0";
  s += '\0';
  put_le(s, entries.size(), 4);
  size_t first_entry = s.size();
  s.append(entries.size() * 12, '\0');
  size_t strings_at = s.size();  // string[0] of the old format
  std::string tail;
  if (layout == Layout::kCompat) {
    while ((strings_at + tail.size()) % 8) tail += '\0';
    tail += new_cache(entries);
  }
  std::map<std::string, size_t> offsets;
  auto str = [&](const std::string& v) {
    auto it = offsets.find(v);
    if (it != offsets.end()) return it->second;
    size_t off = tail.size();
    tail += v;
    tail += '\0';
    offsets[v] = off;
    return off;
  };
  for (size_t i = 0; i < entries.size(); ++i) {
    size_t e = first_entry + i * 12;
    put_le_at(s, e, static_cast<uint32_t>(entries[i].flags), 4);
    put_le_at(s, e + 4, str(entries[i].name), 4);
    put_le_at(s, e + 8, str(entries[i].path), 4);
  }
  return s + tail;
}

}  // namespace tfgpu::test
