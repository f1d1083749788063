// ELF reader rules checked on shared objects that gcc builds in the test run (POSIX only:
// the Windows test binary has no gcc to call).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>

#include "binfmt/elf.h"
#include "support/binfmt_fixtures.h"
#include "support/elf_builder.h"

namespace tfgpu::binfmt {
namespace {

using test::build_shared_library;
using test::ElfBuilder;
using test::read_binary_file;
using test::ScratchDir;

class ElfGcc : public ::testing::Test {
 protected:
  ElfFile build(const std::string& name, const std::vector<std::string>& flags,
                const std::vector<std::string>& link_with = {}) {
    std::string error;
    std::string path = build_shared_library(dir_, name, flags, &error, link_with);
    if (path.empty()) {
      ADD_FAILURE() << "could not build fixture: " << error;
      return {};
    }
    auto f = parse_elf(read_binary_file(path), name);
    if (!f) {
      ADD_FAILURE() << f.error().message;
      return {};
    }
    return *f;
  }
  ScratchDir dir_;
};

TEST_F(ElfGcc, SonameIsReadFromTheDynamicSection) {
  ElfFile f = build("libfoo.so.1.2", {"-Wl,-soname,libfoo.so.1"});
  EXPECT_EQ(f.soname, "libfoo.so.1");
  EXPECT_EQ(f.type, ElfType::kSharedObject);
  EXPECT_TRUE(f.has_dynamic);
}

TEST_F(ElfGcc, ClassAndMachineMatchTheCompiler) {
  ElfFile f = build("libm64.so", {});
#if defined(__x86_64__)
  EXPECT_EQ(f.bits, 64);
  EXPECT_EQ(f.machine, "x86-64");
  EXPECT_EQ(f.machine_code, 62);
#elif defined(__aarch64__)
  EXPECT_EQ(f.bits, 64);
  EXPECT_EQ(f.machine, "aarch64");
#endif
  EXPECT_EQ(f.endian, Endian::kLittle);
  EXPECT_EQ(f.soname, "");  // no -soname given
}

TEST_F(ElfGcc, RunpathIsReadWhenNewDtagsAreUsed) {
  ElfFile f = build("librp.so", {"-Wl,-rpath,/opt/a:$ORIGIN/../lib", "-Wl,--enable-new-dtags"});
  EXPECT_EQ(f.runpath, (std::vector<std::string>{"/opt/a", "$ORIGIN/../lib"}));
  EXPECT_TRUE(f.rpath.empty());
}

TEST_F(ElfGcc, RpathIsReadWhenOldDtagsAreUsed) {
  ElfFile f = build("librp_old.so", {"-Wl,-rpath,/opt/b", "-Wl,--disable-new-dtags"});
  EXPECT_EQ(f.rpath, (std::vector<std::string>{"/opt/b"}));
  EXPECT_TRUE(f.runpath.empty());
}

TEST_F(ElfGcc, NeededListsDependenciesInLinkOrder) {
  ElfFile dep1 = build("libdep1.so", {"-Wl,-soname,libdep1.so"});
  ElfFile dep2 = build("libdep2.so", {"-Wl,-soname,libdep2.so.7"});
  ElfFile f = build("libtop.so", {"-Wl,-soname,libtop.so", "-Wl,--no-as-needed"},
                    {dir_.file("libdep1.so"), dir_.file("libdep2.so")});
  ASSERT_GE(f.needed.size(), 2u);
  EXPECT_EQ(f.needed[0], "libdep1.so");
  EXPECT_EQ(f.needed[1], "libdep2.so.7");  // the dependency's SONAME, not its file name
  EXPECT_NE(std::find(f.needed.begin(), f.needed.end(), "libc.so.6"), f.needed.end());
}

TEST_F(ElfGcc, ToInfoCarriesEverySnapshotField) {
  ElfFile f = build("libinfo.so", {"-Wl,-soname,libinfo.so.3", "-Wl,-rpath,/x", "-Wl,--enable-new-dtags"});
  ElfInfo info = f.to_info();
  EXPECT_EQ(info.bits, f.bits);
  EXPECT_EQ(info.machine, f.machine);
  EXPECT_EQ(info.soname, "libinfo.so.3");
  EXPECT_EQ(info.runpath, std::vector<std::string>{"/x"});
  EXPECT_EQ(info.needed, f.needed);
}

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

}  // namespace
}  // namespace tfgpu::binfmt
