// ELF reader rules, checked on hand-built files (ElfBuilder) and on this machine's real
// CUDA runtime where present. Shared objects built by gcc: binfmt_elf_gcc_posix_test.cc.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "binfmt/elf.h"
#include "support/binfmt_fixtures.h"
#include "support/elf_builder.h"

namespace tfgpu::binfmt {
namespace {

using test::ElfBuilder;
using test::read_binary_file;

TEST(Elf, BigEndian32BitFilesAreRead) {
  ElfBuilder b;
  b.bits = 32;
  b.order = ElfBuilder::Order::kBig;
  b.machine = 20;  // EM_PPC
  b.soname = "libbe.so.2";
  b.needed = {"libc.so.6", "libm.so.6"};
  b.runpath = "/be/lib";
  auto f = parse_elf(b.build(), "libbe.so.2");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->bits, 32);
  EXPECT_EQ(f->endian, Endian::kBig);
  EXPECT_EQ(f->machine, "ppc");
  EXPECT_EQ(f->soname, "libbe.so.2");
  EXPECT_EQ(f->needed, (std::vector<std::string>{"libc.so.6", "libm.so.6"}));
  EXPECT_EQ(f->runpath, std::vector<std::string>{"/be/lib"});
}

TEST(Elf, BigEndian64BitFilesAreRead) {
  ElfBuilder b;
  b.order = ElfBuilder::Order::kBig;
  b.machine = 22;  // EM_S390
  b.soname = "libs390.so";
  b.rpath = "/r1::/r2";
  auto f = parse_elf(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->bits, 64);
  EXPECT_EQ(f->machine, "s390x");
  // ld.so skips empty rpath elements (dl-load.c fillin_rpath).
  EXPECT_EQ(f->rpath, (std::vector<std::string>{"/r1", "/r2"}));
}

TEST(Elf, Little32BitI386IsNamedLikeLdconfig) {
  ElfBuilder b;
  b.bits = 32;
  b.machine = 3;
  b.soname = "libx.so";
  auto f = read_elf_info(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->bits, 32);
  EXPECT_EQ(f->machine, "i386");
}

TEST(Elf, DynamicSectionIsFoundThroughSectionHeadersWithoutProgramHeaders) {
  ElfBuilder b;
  b.program_headers = ElfBuilder::ProgramHeaders::kOmit;
  b.soname = "libsec.so";
  b.needed = {"libdep.so"};
  auto f = parse_elf(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->soname, "libsec.so");
  EXPECT_EQ(f->needed, std::vector<std::string>{"libdep.so"});
}

TEST(Elf, InterpreterIsReadFromPtInterp) {
  ElfBuilder b;
  b.type = 2;
  b.interpreter = "/lib64/ld-linux-x86-64.so.2";
  auto f = parse_elf(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->type, ElfType::kExecutable);
  EXPECT_EQ(f->interpreter, "/lib64/ld-linux-x86-64.so.2");
}

TEST(Elf, NonElfInputIsNotFoundRatherThanMalformed) {
  auto f = parse_elf("MZ\x90\x00 this is a PE file", "cudart64_110.dll");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(f.error().message, "cudart64_110.dll: not an ELF file");
}

TEST(Elf, TruncatedDynamicSectionNamesFileAndOffset) {
  ElfBuilder b;
  b.soname = "libfoo.so";
  std::string bytes = b.build();
  // Point PT_DYNAMIC (the second program header) past the end of the file.
  uint64_t p_offset_field = b.phoff + 56 + 8;
  uint64_t bad = 0x1234000;
  for (int i = 0; i < 8; ++i) bytes[p_offset_field + i] = static_cast<char>((bad >> (8 * i)) & 0xff);
  auto f = parse_elf(bytes, "libfoo.so");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kInput);
  EXPECT_EQ(f.error().message, "libfoo.so: truncated dynamic section at offset 0x1234000");
}

TEST(Elf, StringOffsetOutsideTheStringTableIsAnError) {
  ElfBuilder b;
  b.soname = "libfoo.so";
  std::string bytes = b.build();
  // The first dynamic entry is DT_SONAME; give it an offset beyond DT_STRSZ.
  for (int i = 0; i < 8; ++i) bytes[b.dynamic_offset + 8 + i] = i == 0 ? '\x7f' : '\0';
  auto f = parse_elf(bytes, "libfoo.so");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kInput);
  EXPECT_EQ(f.error().message,
            "libfoo.so: truncated dynamic string table at offset 0x" +
                fmt::format("{:x}", b.dynstr_offset + 0x7f));
}

TEST(Elf, BadClassByteIsMalformed) {
  ElfBuilder b;
  std::string bytes = b.build();
  bytes[4] = 9;
  auto f = parse_elf(bytes, "x.so");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message, "x.so: bad ELF class 9 at offset 0x4");
}

TEST(Elf, MachineNamesFollowLdconfigSpelling) {
  EXPECT_EQ(elf_machine_name(62), "x86-64");
  EXPECT_EQ(elf_machine_name(183), "aarch64");
  EXPECT_EQ(elf_machine_name(3), "i386");
  EXPECT_EQ(elf_machine_name(9999), "EM_9999");
}

TEST(ElfLive, RealCudaRuntimeHasSonameLibcudartSo13) {
  const std::string dir = "/usr/local/cuda/lib64";
  std::string found;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) {
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      std::string n = e.path().filename().string();
      if (n.starts_with("libcudart.so.") && e.is_regular_file() && !e.is_symlink()) found = e.path().string();
    }
  }
  if (found.empty()) GTEST_SKIP() << "no real libcudart.so.* under " << dir << " on this machine";
  auto f = parse_elf(read_binary_file(found), found);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->soname, "libcudart.so.13");
  EXPECT_EQ(f->bits, 64);
  EXPECT_EQ(f->type, ElfType::kSharedObject);
  EXPECT_FALSE(f->needed.empty());
}

}  // namespace
}  // namespace tfgpu::binfmt

namespace tfgpu::binfmt {
namespace {

TEST(Elf, PrefixOfAHugeFileIsEnoughForTheDynamicSection) {
  // Probes may read only the first megabytes of a 500 MB libcublasLt: the section header
  // table at the end is then missing, which a whole-file parse reports as truncation.
  test::ElfBuilder b;
  b.soname = "libcublasLt.so.12";
  b.needed = {"libc.so.6"};
  std::string bytes = b.build();
  std::string prefix = bytes.substr(0, b.dynamic_offset + 16 * 5);
  auto whole = parse_elf(prefix, "libcublasLt.so.12");
  ASSERT_FALSE(whole);
  EXPECT_EQ(whole.error().kind, ErrorKind::kInput);
  auto f = parse_elf(prefix, "libcublasLt.so.12", ElfInput::kPrefix);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->soname, "libcublasLt.so.12");
  EXPECT_EQ(f->needed, std::vector<std::string>{"libc.so.6"});
  // A prefix that stops inside the dynamic section is still an error.
  auto cut = parse_elf(bytes.substr(0, b.dynamic_offset + 4), "libcublasLt.so.12", ElfInput::kPrefix);
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().message, "libcublasLt.so.12: truncated dynamic section at offset 0x" +
                                     fmt::format("{:x}", b.dynamic_offset));
}

}  // namespace
}  // namespace tfgpu::binfmt
