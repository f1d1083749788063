#pragma once
// Little-endian integers written into a byte string: the test builders of binary formats
// (ELF, ld.so.cache, PE) lay out their images with these.
#include <cstddef>
#include <cstdint>
#include <string>

namespace tfgpu::test {

// Appends the low `width` bytes of `v`, least significant first.
inline void put_le(std::string& s, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}

// Overwrites `width` bytes at `off` (which must already exist) with `v`.
inline void put_le_at(std::string& s, size_t off, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) s[off + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

}  // namespace tfgpu::test
