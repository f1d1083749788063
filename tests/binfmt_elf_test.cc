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
