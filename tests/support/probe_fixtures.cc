#include "support/probe_fixtures.h"

#include <cstdint>
#include <cstring>

namespace tfgpu::testing {

namespace {
void put16(std::string& b, size_t off, uint16_t v) { std::memcpy(&b[off], &v, 2); }
void put32(std::string& b, size_t off, uint32_t v) { std::memcpy(&b[off], &v, 4); }
void put64(std::string& b, size_t off, uint64_t v) { std::memcpy(&b[off], &v, 8); }

std::string header(uint16_t type) {
  std::string b(64, '\0');
  const char ident[] = {0x7f, 'E', 'L', 'F', 2 /*ELFCLASS64*/, 1 /*LSB*/, 1 /*EV_CURRENT*/};
  std::memcpy(&b[0], ident, sizeof ident);
  put16(b, 16, type);
  put16(b, 18, 62);  // EM_X86_64
  put32(b, 20, 1);
  put16(b, 52, 64);  // e_ehsize
  put16(b, 54, 56);  // e_phentsize
  put16(b, 58, 64);  // e_shentsize
  return b;
}
}  // namespace

std::string elf64_stub() { return header(2 /*ET_EXEC*/); }

std::string elf64_shared_object(const std::string& soname) {
  // ELF header, one PT_DYNAMIC program header, the dynamic section, then the strings.
  std::string b = header(3 /*ET_DYN*/);
  const uint64_t phoff = 64, dyn_off = phoff + 56, dyn_size = 3 * 16, str_off = dyn_off + dyn_size;
  std::string strtab = std::string(1, '\0') + soname + '\0';
  b.resize(str_off + strtab.size(), '\0');
  put64(b, 32, phoff);
  put16(b, 56, 1);  // e_phnum
  // Elf64_Phdr: p_type PT_DYNAMIC(2), p_offset, p_vaddr, p_filesz, p_memsz
  put32(b, phoff + 0, 2);
  put64(b, phoff + 8, dyn_off);
  put64(b, phoff + 16, dyn_off);
  put64(b, phoff + 32, dyn_size);
  put64(b, phoff + 40, dyn_size);
  // DT_STRTAB(5) = str_off (vaddr == offset here), DT_SONAME(14) = 1, DT_NULL
  put64(b, dyn_off + 0, 5);
  put64(b, dyn_off + 8, str_off);
  put64(b, dyn_off + 16, 14);
  put64(b, dyn_off + 24, 1);
  std::memcpy(&b[str_off], strtab.data(), strtab.size());
  // A PT_LOAD mapping would normally translate DT_STRTAB; readers that need one fall
  // back to offset == vaddr for this identity-mapped fixture.
  return b;
}

void add_dist(FakeHost& host, const std::string& site, const std::string& name, const std::string& version) {
  std::string dir_name = name;
  for (char& c : dir_name)
    if (c == '-') c = '_';
  host.add_file(site + "/" + dir_name + "-" + version + ".dist-info/METADATA",
                "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version +
                    "\nSummary: test fixture\nRequires-Python: >=3.9\n\nLong description.\n");
}

void add_tensorflow(FakeHost& host, const std::string& site, const std::string& dist, const std::string& version,
                    const std::string& build_info_py) {
  add_dist(host, site, dist, version);
  host.add_file(site + "/tensorflow/__init__.py", "# tensorflow\n");
  host.add_file(site + "/tensorflow/python/platform/build_info.py", build_info_py);
}

const char* const kLinuxBuildInfo215 =
    "# Copyright 2020 The TensorFlow Authors. All Rights Reserved.\n"
    "#\n"
    "# Licensed under the Apache License, Version 2.0 (the \"License\");\n"
    "# ==============================================================================\n"
    "\"\"\"Auto-generated module providing information about the build.\"\"\"\n"
    "import collections\n"
    "\n"
    "build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-16/bin/clang'), "
    "('cuda_compute_capabilities', ['sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), "
    "('cuda_version', '12.2'), ('cudnn_version', '8'), ('is_cuda_build', True), "
    "('is_rocm_build', False), ('is_tensorrt_build', True)])\n";

}  // namespace tfgpu::testing
