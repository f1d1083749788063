#pragma once
// CPUID, for hosts without /proc/cpuinfo (Windows): the raw leaves are read by
// read_cpuid() on x86, and decode_cpuid() turns them into CpuFeatures. Decoding is pure
// so tests cover it with register values of real and odd CPUs on any machine.
// An instruction set counts only when the OS also saves its registers on a context
// switch (XCR0 via XGETBV), as Intel SDM vol. 1 §14.3 requires before using AVX.

#include <array>
#include <cstdint>

#include "host/machine_facts.h"

namespace tfgpu {

struct CpuidLeaf {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

struct CpuidDump {
  CpuidLeaf leaf0;  // max basic leaf (eax), vendor string (ebx, edx, ecx)
  CpuidLeaf leaf1;  // feature flags (ecx: FMA bit 12, OSXSAVE bit 27, AVX bit 28)
  CpuidLeaf leaf7;  // structured extended flags, subleaf 0 (ebx: AVX2 bit 5, AVX512F bit 16)
  uint32_t max_extended = 0;              // cpuid(0x80000000).eax
  std::array<CpuidLeaf, 3> brand{};       // cpuid(0x80000002..4): the brand string
  uint64_t xcr0 = 0;                      // XGETBV(0), read only when OSXSAVE is set
};

CpuFeatures decode_cpuid(const CpuidDump& d);

// The CPU this process runs on; not_found on non-x86 builds.
Result<CpuFeatures> read_cpuid();

}  // namespace tfgpu
