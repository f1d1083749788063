// PE reader rules, checked on images written by PeBuilder (recipe in support/pe_builder.h).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "binfmt/pe.h"
#include "support/pe_builder.h"

namespace tfgpu::binfmt {
namespace {

using test::PeBuilder;

PeBuilder cudart_like() {
  PeBuilder b;
  b.imports = {"KERNEL32.dll", "VCRUNTIME140.dll", "api-ms-win-crt-runtime-l1-1-0.dll"};
  b.with_version = true;
  b.file_version = {6, 14, 11, 9000};
  b.product_version = {11, 2, 0, 0};
  b.version_strings = {{"CompanyName", "NVIDIA Corporation"},
                       {"FileDescription", "NVIDIA CUDA Runtime, Version 11.2.152"},
                       {"FileVersion", "6.14.11.9000"},
                       {"ProductVersion", "11.2.152"}};
  return b;
}

TEST(Pe, Pe32PlusIsSixtyFourBitX64) {
  auto f = parse_pe(cudart_like().build(), "cudart64_110.dll");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->bits, 64);
  EXPECT_EQ(f->machine, "x64");
  EXPECT_EQ(f->machine_code, 0x8664);
  EXPECT_TRUE(f->is_dll);
}

TEST(Pe, Pe32IsThirtyTwoBitX86) {
  PeBuilder b;
  b.bits = 32;
  b.machine = 0x14c;
  b.imports = {"KERNEL32.dll"};
  b.kind = PeBuilder::Kind::kExe;
  auto f = parse_pe(b.build(), "nvcuda32.dll");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->bits, 32);
  EXPECT_EQ(f->machine, "x86");
  EXPECT_FALSE(f->is_dll);
  EXPECT_EQ(f->imports, std::vector<std::string>{"KERNEL32.dll"});
}

TEST(Pe, ImportsAreListedInDirectoryOrderAsWritten) {
  auto f = parse_pe(cudart_like().build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->imports, (std::vector<std::string>{"KERNEL32.dll", "VCRUNTIME140.dll",
                                                  "api-ms-win-crt-runtime-l1-1-0.dll"}));
}

TEST(Pe, DelayLoadImportsAreSeparateFromImports) {
  PeBuilder b;
  b.imports = {"KERNEL32.dll"};
  b.delay_imports = {"nvcuda.dll", "cudnn64_8.dll"};
  auto f = parse_pe(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->imports, std::vector<std::string>{"KERNEL32.dll"});
  EXPECT_EQ(f->delay_imports, (std::vector<std::string>{"nvcuda.dll", "cudnn64_8.dll"}));
  // The snapshot lists what must be present to load: the import directory only.
  EXPECT_EQ(f->to_info().imports, std::vector<std::string>{"KERNEL32.dll"});
}

TEST(Pe, FixedFileInfoGivesFileAndProductVersion) {
  auto f = parse_pe(cudart_like().build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->file_version, "6.14.11.9000");
  EXPECT_EQ(f->product_version, "11.2.0.0");
}

TEST(Pe, StringFileInfoValuesAreRead) {
  auto f = parse_pe(cudart_like().build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->version_strings.at("FileVersion"), "6.14.11.9000");
  EXPECT_EQ(f->version_strings.at("ProductVersion"), "11.2.152");
  EXPECT_EQ(f->version_strings.at("CompanyName"), "NVIDIA Corporation");
  EXPECT_EQ(f->version_strings.at("FileDescription"), "NVIDIA CUDA Runtime, Version 11.2.152");
}

TEST(Pe, NoVersionResourceMeansEmptyVersionsNotAnError) {
  PeBuilder b;
  b.imports = {"KERNEL32.dll"};
  auto f = parse_pe(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->file_version, "");
  EXPECT_TRUE(f->version_strings.empty());
}

TEST(Pe, ToInfoFillsTheSnapshotFields) {
  auto info = read_pe_info(cudart_like().build());
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->bits, 64);
  EXPECT_EQ(info->machine, "x64");
  EXPECT_EQ(info->file_version, "6.14.11.9000");
  EXPECT_EQ(info->product_version, "11.2.0.0");
  EXPECT_EQ(info->imports.size(), 3u);
}

TEST(Pe, Arm64MachineIsNamed) {
  PeBuilder b;
  b.machine = 0xaa64;
  auto f = parse_pe(b.build());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->machine, "arm64");
}

TEST(Pe, ElfInputIsNotFoundRatherThanMalformed) {
  auto f = parse_pe(std::string("\x7f" "ELF\x02\x01\x01", 7), "libcudart.so");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(f.error().message, "libcudart.so: not a PE file");
}

TEST(Pe, DosProgramWithoutPeSignatureIsNotFound) {
  std::string dos = "MZ";
  dos.resize(0x80, '\0');
  dos[0x3c] = 0x40;
  auto f = parse_pe(dos, "old.exe");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kNotFound);
}

TEST(Pe, ImportNameOutsideEverySectionNamesTheOffset) {
  PeBuilder b;
  b.imports = {"KERNEL32.dll"};
  std::string bytes = b.build();
  // The first descriptor's Name RVA (descriptor + 12) now points nowhere.
  uint64_t field = b.import_dir_offset + 12;
  bytes[field] = '\0', bytes[field + 1] = '\0', bytes[field + 2] = '\x70', bytes[field + 3] = '\0';
  auto f = parse_pe(bytes, "bad.dll");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kInput);
  EXPECT_EQ(f.error().message, "bad.dll: import name RVA 0x700000 is in no section at offset 0x" +
                                   fmt::format("{:x}", field));
}

TEST(Pe, TruncatedSectionIsMalformed) {
  std::string bytes = cudart_like().build();
  auto f = parse_pe(bytes.substr(0, bytes.size() - 1), "cut.dll");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::kInput);
  EXPECT_EQ(f.error().message, "cut.dll: truncated section .rdata at offset 0x200");
}

TEST(Pe, MachineNamesForUnknownCodesAreHex) {
  EXPECT_EQ(pe_machine_name(0x1234), "0x1234");
  EXPECT_EQ(pe_machine_name(0x8664), "x64");
}

}  // namespace
}  // namespace tfgpu::binfmt
