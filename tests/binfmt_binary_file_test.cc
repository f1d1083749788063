// describe_binary rules: the magic picks the format, errors land in LibraryFile::error.
#include <gtest/gtest.h>

#include "binfmt/binary_file.h"
#include "support/elf_builder.h"
#include "support/pe_builder.h"

namespace tfgpu::binfmt {
namespace {

TEST(BinaryFile, ElfFillsElfInfo) {
  test::ElfBuilder b;
  b.soname = "libcudnn.so.9";
  LibraryFile lib;
  lib.path = "/usr/lib/libcudnn.so.9.1.0";
  describe_binary(b.build(), lib);
  EXPECT_EQ(lib.format, "elf");
  EXPECT_EQ(lib.elf.soname, "libcudnn.so.9");
  EXPECT_EQ(lib.error, "");
}

TEST(BinaryFile, PeFillsPeInfo) {
  test::PeBuilder b;
  b.imports = {"KERNEL32.dll"};
  LibraryFile lib;
  describe_binary(b.build(), lib, "cudnn64_8.dll");
  EXPECT_EQ(lib.format, "pe");
  EXPECT_EQ(lib.pe.imports, std::vector<std::string>{"KERNEL32.dll"});
  EXPECT_EQ(lib.pe.bits, 64);
}

TEST(BinaryFile, MalformedElfKeepsFormatAndSaysWhy) {
  test::ElfBuilder b;
  std::string bytes = b.build();
  LibraryFile lib;
  lib.path = "/x/libcut.so";
  describe_binary(std::string_view(bytes).substr(0, 40), lib);
  EXPECT_EQ(lib.format, "elf");
  EXPECT_EQ(lib.error, "/x/libcut.so: truncated ELF header at offset 0x0");
}

TEST(BinaryFile, TextIsUnknown) {
  LibraryFile lib;
  lib.path = "/x/libfoo.so";
  describe_binary("/* GNU ld script */\nGROUP ( libfoo.so.1 )\n", lib);
  EXPECT_EQ(lib.format, "unknown");
  EXPECT_EQ(lib.error, "/x/libfoo.so: neither ELF nor PE");
}

}  // namespace
}  // namespace tfgpu::binfmt
