#include "host/cpuid.h"

#include <cstring>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TFGPU_HAVE_CPUID 1
#endif

#include "util/strings.h"

namespace tfgpu {

namespace {

bool bit(uint32_t reg, int n) { return ((reg >> n) & 1u) != 0; }

std::string regs_text(std::initializer_list<uint32_t> regs) {
  std::string out;
  for (uint32_t r : regs) {
    char c[4];
    std::memcpy(c, &r, 4);  // x86 is little-endian: the bytes are the characters in order
    out.append(c, 4);
  }
  return out;
}

// Up to the first NUL, without the padding spaces Intel puts before the brand.
std::string clean(std::string s) {
  s = s.substr(0, s.find('\0'));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  return std::string(trim(s));
}

}  // namespace

CpuFeatures decode_cpuid(const CpuidDump& d) {
  CpuFeatures f;
  f.vendor = clean(regs_text({d.leaf0.ebx, d.leaf0.edx, d.leaf0.ecx}));
  if (d.max_extended >= 0x80000004u) {
    std::string b;
    for (const auto& l : d.brand) b += regs_text({l.eax, l.ebx, l.ecx, l.edx});
    f.brand = clean(b);
  }
  if (d.leaf0.eax < 1) return f;
  bool osxsave = bit(d.leaf1.ecx, 27);
  // XCR0 bit 1 = SSE (XMM) state, bit 2 = AVX (upper YMM) state; bits 5-7 = opmask,
  // upper ZMM0-15 and ZMM16-31 (AVX-512).
  bool os_ymm = osxsave && (d.xcr0 & 0x6u) == 0x6u;
  bool os_zmm = os_ymm && (d.xcr0 & 0xE0u) == 0xE0u;
  f.avx = os_ymm && bit(d.leaf1.ecx, 28);
  f.fma = os_ymm && bit(d.leaf1.ecx, 12);
  if (d.leaf0.eax >= 7) {
    f.avx2 = os_ymm && bit(d.leaf7.ebx, 5);
    f.avx512f = os_zmm && bit(d.leaf7.ebx, 16);
  }
  return f;
}

Result<CpuFeatures> read_cpuid() {
#ifdef TFGPU_HAVE_CPUID
  CpuidDump d;
  auto leaf = [](uint32_t n, uint32_t sub, CpuidLeaf& out) { __cpuid_count(n, sub, out.eax, out.ebx, out.ecx, out.edx); };
  leaf(0, 0, d.leaf0);
  if (d.leaf0.eax >= 1) leaf(1, 0, d.leaf1);
  if (d.leaf0.eax >= 7) leaf(7, 0, d.leaf7);
  CpuidLeaf ext;
  leaf(0x80000000u, 0, ext);
  d.max_extended = ext.eax;
  if (d.max_extended >= 0x80000004u)
    for (uint32_t i = 0; i < 3; ++i) leaf(0x80000002u + i, 0, d.brand[i]);
  if (bit(d.leaf1.ecx, 27)) {  // XGETBV faults unless the OS set CR4.OSXSAVE
    uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    d.xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
  }
  return decode_cpuid(d);
#else
  return fail(Error::not_found("CPUID exists only on x86"));
#endif
}

}  // namespace tfgpu
