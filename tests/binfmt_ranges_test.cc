// Ranged header reads: the ELF / PE readers walk headers -> program headers / section
// table -> dynamic section / import directory -> strings by ranges of the file, so what
// they read does not grow with the file; a failed read is "unknown", never "invalid".
#include <gtest/gtest.h>

#include <algorithm>

#include "binfmt/binary_file.h"
#include "binfmt/elf.h"
#include "binfmt/pe.h"
#include "support/elf_builder.h"
#include "support/pe_builder.h"

namespace tfgpu::binfmt {
namespace {

using test::ElfBuilder;

// A file of built.size() + b.hole bytes whose hole reads as zeros without being stored;
// counts what was read.
struct HoleFile {
  std::string built;
  uint64_t hole_at = 0, hole = 0;
  uint64_t bytes_read = 0;
  int reads = 0;

  uint64_t size() const { return built.size() + hole; }
  RangeFn reader() {
    return [this](uint64_t offset, uint64_t length) -> Result<std::string> {
      ++reads;
      std::string out;
      for (uint64_t at = offset; at < offset + length && at < size(); ++at) {
        if (at < hole_at) out += built[at];
        else if (at < hole_at + hole) out += '\0';
        else out += built[at - hole];
      }
      bytes_read += out.size();
      return out;
    };
  }
};

TEST(ElfRanges, DynamicSectionNearTheEndOfAHugeFileIsReadFromAFewKiB) {
  ElfBuilder b;
  b.soname = "libcublasLt.so.13";
  b.needed = {"libcublas.so.13", "libc.so.6"};
  b.runpath = "$ORIGIN:$ORIGIN/../lib";
  b.hole = uint64_t{408} << 20;  // libcublasLt.so.13: the dynamic section at 408 MiB of 516
  HoleFile file{b.build()};
  file.hole_at = b.hole_at;
  file.hole = b.hole;
  auto f = parse_elf_ranges(file.size(), file.reader(), "libcublasLt.so.13");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->soname, "libcublasLt.so.13");
  EXPECT_EQ(f->needed, (std::vector<std::string>{"libcublas.so.13", "libc.so.6"}));
  EXPECT_EQ(f->runpath, (std::vector<std::string>{"$ORIGIN", "$ORIGIN/../lib"}));
  EXPECT_LT(file.bytes_read, 64u << 10) << "read " << file.bytes_read << " bytes in " << file.reads << " reads";
}

TEST(ElfRanges, RangedAndWholeBufferParsesAgree) {
  for (int bits : {32, 64}) {
    for (auto order : {ElfBuilder::Order::kLittle, ElfBuilder::Order::kBig}) {
      ElfBuilder b;
      b.bits = bits;
      b.order = order;
      b.soname = "libx.so.1";
      b.needed = {"liby.so.2"};
      b.rpath = "/opt/r";
      b.interpreter = "/lib/ld.so";
      std::string bytes = b.build();
      auto whole = parse_elf(bytes, "libx.so.1");
      HoleFile file{bytes};
      auto ranged = parse_elf_ranges(file.size(), file.reader(), "libx.so.1");
      ASSERT_TRUE(whole && ranged);
      EXPECT_EQ(ranged->soname, whole->soname);
      EXPECT_EQ(ranged->needed, whole->needed);
      EXPECT_EQ(ranged->rpath, whole->rpath);
      EXPECT_EQ(ranged->interpreter, whole->interpreter);
      EXPECT_EQ(ranged->bits, bits);
    }
  }
}

TEST(ElfRanges, MalformedIsAnInputErrorWithTheSameMessageAsTheWholeBufferParse) {
  ElfBuilder b;
  b.soname = "libcut.so";
  std::string bytes = b.build();
  bytes.resize(b.dynamic_offset + 4);  // cut inside the dynamic section
  auto whole = parse_elf(bytes, "libcut.so");
  HoleFile file{bytes};
  auto ranged = parse_elf_ranges(file.size(), file.reader(), "libcut.so");
  ASSERT_FALSE(whole);
  ASSERT_FALSE(ranged);
  EXPECT_EQ(ranged.error().kind, ErrorKind::kInput);
  EXPECT_EQ(ranged.error().message, whole.error().message);
}

TEST(ElfRanges, AFailedReadIsAnIoErrorNotAMalformedFile) {
  ElfBuilder b;
  b.soname = "libio.so";
  std::string bytes = b.build();
  RangeFn read = [&](uint64_t offset, uint64_t length) -> Result<std::string> {
    if (offset >= b.dynamic_offset) return fail(Error::io("cannot read libio.so: Input/output error"));
    return bytes.substr(offset, length);
  };
  auto f = parse_elf_ranges(bytes.size(), read, "libio.so");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kIo);
  EXPECT_NE(f.error().message.find("Input/output error"), std::string::npos);
}

TEST(BinaryFile, UnreadHeadersAreUnknownAndANonLibraryIsInvalid) {
  LibraryFile io;
  io.path = "/x/libio.so";
  describe_binary_ranges(
      1000, [](uint64_t, uint64_t) -> Result<std::string> { return fail(Error::io("cannot read: EIO")); }, io);
  EXPECT_EQ(io.headers, "unknown");
  EXPECT_EQ(io.error, "cannot read: EIO");

  LibraryFile text;
  text.path = "/x/libtext.so";
  describe_binary("just some text, not a library", text);
  EXPECT_EQ(text.headers, "invalid");
  EXPECT_EQ(text.format, "unknown");

  LibraryFile ok;
  ok.path = "/x/libok.so";
  ElfBuilder b;
  b.soname = "libok.so";
  describe_binary(b.build(), ok);
  EXPECT_EQ(ok.headers, "read");
  EXPECT_EQ(ok.elf.soname, "libok.so");
}

TEST(PeRanges, RangedAndWholeBufferParsesAgree) {
  test::PeBuilder b;
  b.imports = {"cudart64_110.dll", "KERNEL32.dll"};
  b.with_version = true;
  b.file_version = {11, 0, 221, 0};
  b.version_strings = {{"FileVersion", "11.0.221"}};
  std::string bytes = b.build();
  auto whole = parse_pe(bytes, "x.dll");
  HoleFile file{bytes};
  auto ranged = parse_pe_ranges(file.size(), file.reader(), "x.dll");
  ASSERT_TRUE(whole) << whole.error().message;
  ASSERT_TRUE(ranged) << ranged.error().message;
  EXPECT_EQ(ranged->imports, whole->imports);
  EXPECT_EQ(ranged->file_version, whole->file_version);
  EXPECT_EQ(ranged->file_version, "11.0.221.0");
  EXPECT_EQ(ranged->version_strings, whole->version_strings);
  EXPECT_EQ(ranged->bits, whole->bits);
  EXPECT_LE(file.bytes_read, 4096u);  // headers, directories and strings, some read twice
}

}  // namespace
}  // namespace tfgpu::binfmt

namespace tfgpu::binfmt {
namespace {

TEST(ElfRanges, GnuHashLookupAnswersDefinedAbsentAndUnlooked) {
  for (int bits : {32, 64}) {
    for (auto order : {test::ElfBuilder::Order::kLittle, test::ElfBuilder::Order::kBig}) {
      test::ElfBuilder b;
      b.bits = bits;
      b.order = order;
      b.soname = "libtensorflow_framework.so.2";
      b.symbols = {"_ZN3tsl8internal18LoadDynamicLibraryEPKcPPv", "TF_Version"};
      auto f = parse_elf(b.build(), "libtensorflow_framework.so.2", ElfInput::kWholeFile,
                         {"_ZN3tsl8internal18LoadDynamicLibraryEPKcPPv", "TF_Version", "cudaMalloc"});
      ASSERT_TRUE(f) << f.error().message;
      EXPECT_EQ(f->symbols, (std::map<std::string, bool>{{"_ZN3tsl8internal18LoadDynamicLibraryEPKcPPv", true},
                                                         {"TF_Version", true},
                                                         {"cudaMalloc", false}}))
          << bits << "-bit";
      EXPECT_EQ(f->soname, "libtensorflow_framework.so.2");
    }
  }
  // No DT_GNU_HASH: nothing can be said (the map stays empty, not "false").
  test::ElfBuilder plain;
  plain.soname = "libplain.so";
  auto f = parse_elf(plain.build(), "libplain.so", ElfInput::kWholeFile, {"TF_Version"});
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->symbols.empty());
}

}  // namespace
}  // namespace tfgpu::binfmt
