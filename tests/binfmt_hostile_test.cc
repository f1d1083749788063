// Hostile input through every binfmt parser: every truncation of every valid fixture,
// random bytes (with and without a valid magic), byte mutations, and huge counts and
// offsets written into known fields. The rule: a value or an Error with a one-line
// message, never a crash, a hang or a huge allocation; for the binary formats every
// truncation is an error (a cut-short library must not parse into half-truths).
#include <gtest/gtest.h>

#include <random>

#include "binfmt/cuda_version.h"
#include "binfmt/elf.h"
#include "binfmt/ld_cache.h"
#include "binfmt/ld_so_conf.h"
#include "binfmt/pe.h"
#include "binfmt/py_literal.h"
#include "binfmt/python_metadata.h"
#include "binfmt/tf_build_info.h"
#include "host/fake_host.h"
#include "support/binfmt_fixtures.h"
#include "support/elf_builder.h"
#include "support/ld_cache_builder.h"
#include "support/pe_builder.h"

namespace tfgpu::binfmt {
namespace {

using test::ElfBuilder;
using test::LdCacheBuilder;
using test::PeBuilder;

// Every binary parser behind one signature: nullopt = parsed, else the error.
using BinaryParser = std::optional<Error> (*)(std::string_view);

std::optional<Error> run_elf(std::string_view b) {
  auto r = parse_elf(b, "f");
  return r ? std::nullopt : std::optional<Error>(r.error());
}
std::optional<Error> run_pe(std::string_view b) {
  auto r = parse_pe(b, "f");
  return r ? std::nullopt : std::optional<Error>(r.error());
}
std::optional<Error> run_ld_cache(std::string_view b) {
  auto r = parse_ld_cache(b, "f");
  return r ? std::nullopt : std::optional<Error>(r.error());
}

void expect_one_line(const Error& e, const std::string& context) {
  EXPECT_FALSE(e.message.empty()) << context;
  EXPECT_EQ(e.message.find('\n'), std::string::npos) << context << ": " << e.message;
  EXPECT_TRUE(e.kind == ErrorKind::kInput || e.kind == ErrorKind::kNotFound) << context << ": " << e.message;
}

struct Fixture {
  std::string name;
  std::string bytes;
  BinaryParser parse;
};

std::vector<Fixture> binary_fixtures(const test::ScratchDir& dir) {
  std::vector<Fixture> out;
  {
    ElfBuilder b;
    b.soname = "libx.so.1";
    b.needed = {"libc.so.6"};
    b.runpath = "$ORIGIN:/opt/x";
    out.push_back({"elf64le", b.build(), run_elf});
    b.bits = 32;
    b.order = ElfBuilder::Order::kBig;
    b.interpreter = "/lib/ld.so.1";
    out.push_back({"elf32be", b.build(), run_elf});
    ElfBuilder s;
    s.program_headers = ElfBuilder::ProgramHeaders::kOmit;
    s.soname = "libs.so";
    s.rpath = "/r";
    out.push_back({"elf-sections-only", s.build(), run_elf});
  }
  std::string error;
  std::string so = test::build_shared_library(dir, "libgcc_fixture.so",
                                              {"-Wl,-soname,libgcc_fixture.so.1", "-Wl,-rpath,/a:/b", "-s"}, &error);
  if (!so.empty()) out.push_back({"elf-gcc", test::read_binary_file(so), run_elf});
  {
    PeBuilder b;
    b.imports = {"KERNEL32.dll", "cudart64_110.dll"};
    b.delay_imports = {"nvcuda.dll"};
    b.with_version = true;
    b.file_version = {6, 14, 11, 9000};
    b.version_strings = {{"FileVersion", "6.14.11.9000"}, {"ProductName", "CUDA"}};
    out.push_back({"pe32plus", b.build(), run_pe});
    b.bits = 32;
    b.machine = 0x14c;
    out.push_back({"pe32", b.build(), run_pe});
  }
  for (auto layout : {LdCacheBuilder::Layout::kOld, LdCacheBuilder::Layout::kNew, LdCacheBuilder::Layout::kCompat}) {
    LdCacheBuilder b;
    b.layout = layout;
    b.entries = {{"libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", 0x0303, 0},
                 {"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", 0x0303, 0},
                 {"libcuda.so.1", "/usr/lib/i386-linux-gnu/libcuda.so.1", 0x0003, 0}};
    out.push_back({"ldcache-" + std::to_string(static_cast<int>(layout)), b.build(), run_ld_cache});
  }
  return out;
}

TEST(Hostile, FixturesParseWhole) {
  test::ScratchDir dir;
  for (const auto& f : binary_fixtures(dir)) {
    auto err = f.parse(f.bytes);
    EXPECT_FALSE(err) << f.name << ": " << err->message;
  }
}

TEST(Hostile, EveryTruncationOfEveryBinaryFixtureIsAnError) {
  test::ScratchDir dir;
  for (const auto& f : binary_fixtures(dir)) {
    for (size_t n = 0; n < f.bytes.size(); ++n) {
      auto err = f.parse(std::string_view(f.bytes).substr(0, n));
      ASSERT_TRUE(err) << f.name << " cut to " << n << " of " << f.bytes.size() << " bytes parsed";
      expect_one_line(*err, f.name + " cut to " + std::to_string(n));
    }
  }
}

TEST(Hostile, RandomBytesAreErrors) {
  std::mt19937_64 rng(20261130);
  const std::vector<std::pair<std::string, BinaryParser>> parsers = {
      {"\x7f" "ELF\x02\x01\x01", run_elf}, {"MZ", run_pe}, {"glibc-ld.so.cache1.1", run_ld_cache},
      {std::string("ld.so-1.7.0\0", 12), run_ld_cache}};
  for (int i = 0; i < 3000; ++i) {
    size_t len = rng() % 2048;
    std::string bytes(len, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    for (const auto& [magic, parse] : parsers) {
      auto plain = parse(bytes);
      ASSERT_TRUE(plain) << "random bytes parsed, case " << i;
      expect_one_line(*plain, "random " + std::to_string(i));
      std::string with_magic = magic + bytes;
      auto err = parse(with_magic);
      ASSERT_TRUE(err) << "random bytes after magic parsed, case " << i;
      expect_one_line(*err, "random+magic " + std::to_string(i));
    }
  }
}

TEST(Hostile, MutatedFixturesNeverCrashAndErrorsAreOneLine) {
  test::ScratchDir dir;
  std::mt19937_64 rng(7);
  for (const auto& f : binary_fixtures(dir)) {
    for (int i = 0; i < 3000; ++i) {
      std::string bytes = f.bytes;
      int flips = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < flips; ++k) {
        size_t at = rng() % bytes.size();
        // Bias towards 0x00 / 0xff: the values that make counts and offsets extreme.
        uint64_t pick = rng() % 3;
        bytes[at] = pick == 0 ? '\0' : pick == 1 ? '\xff' : static_cast<char>(rng());
      }
      auto err = f.parse(bytes);
      if (err) expect_one_line(*err, f.name + " mutation " + std::to_string(i));
    }
  }
}

void put_le(std::string& s, size_t at, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

TEST(Hostile, HugeElfCountsAndOffsetsAreErrors) {
  ElfBuilder b;
  b.soname = "libx.so";
  b.needed = {"liby.so"};
  const std::string base = b.build();
  struct Field {
    const char* what;
    size_t at;
    int width;
    uint64_t value;
  };
  const uint64_t ph_dyn = b.phoff + 56;  // the PT_DYNAMIC program header
  const std::vector<Field> fields = {
      {"e_phoff", 32, 8, ~0ull},          {"e_shoff", 40, 8, ~0ull},
      {"e_phoff near end", 32, 8, base.size() - 8},
      {"e_phnum", 56, 2, 0xfffe},         {"e_shnum", 60, 2, 0xfffe},
      {"e_phentsize", 54, 2, 0xffff},     {"e_shentsize", 58, 2, 0xffff},
      {"p_offset", ph_dyn + 8, 8, ~0ull}, {"p_filesz", ph_dyn + 32, 8, ~0ull},
      {"p_offset+size wrap", ph_dyn + 8, 8, ~0ull - 4},
      {"DT_NEEDED offset", b.dynamic_offset + 8, 8, ~0ull},
      {"DT_STRTAB", b.dynamic_offset + 16 * 2 + 8, 8, ~0ull},
      {"DT_STRSZ", b.dynamic_offset + 16 * 3 + 8, 8, ~0ull},
  };
  for (const Field& f : fields) {
    std::string bytes = base;
    put_le(bytes, f.at, f.value, f.width);
    auto r = parse_elf(bytes, "libx.so");
    ASSERT_FALSE(r) << f.what << " accepted";
    EXPECT_EQ(r.error().kind, ErrorKind::kInput) << f.what;
    expect_one_line(r.error(), f.what);
  }
}

TEST(Hostile, HugePeCountsAndOffsetsAreErrors) {
  PeBuilder b;
  b.imports = {"KERNEL32.dll"};
  b.with_version = true;
  b.version_strings = {{"FileVersion", "1.0"}};
  const std::string base = b.build();
  struct Field {
    const char* what;
    size_t at;
    int width;
    uint64_t value;
  };
  const size_t coff = 0x84, opt = 0x98, dirs = opt + 112;
  const std::vector<Field> fields = {
      {"e_lfanew", 0x3c, 4, 0xfffffff0},
      {"NumberOfSections", coff + 2, 2, 0xffff},
      {"SizeOfOptionalHeader", coff + 16, 2, 0xffff},
      {"import RVA", dirs + 8, 4, 0xffffffff},
      {"resource RVA", dirs + 16, 4, 0xfffffff0},
      {"section raw pointer", b.section_table_offset + 20, 4, 0xffffff00},
      {"section raw size", b.section_table_offset + 16, 4, 0xffffffff},
      {"resource named entries", b.resource_offset + 12, 2, 0xffff},
      {"resource subdir offset", b.resource_offset + 20, 4, 0xfffffff0},
      {"version block length", b.version_offset, 2, 0xffff},
  };
  for (const Field& f : fields) {
    std::string bytes = base;
    put_le(bytes, f.at, f.value, f.width);
    auto r = parse_pe(bytes, "x.dll");
    ASSERT_FALSE(r) << f.what << " accepted";
    EXPECT_EQ(r.error().kind, ErrorKind::kInput) << f.what;
    expect_one_line(r.error(), f.what);
  }
}

TEST(Hostile, HugeLdCacheCountsAndOffsetsAreErrors) {
  LdCacheBuilder b;
  b.entries = {{"liba.so.1", "/lib/liba.so.1", 0x0303, 0}};
  const std::string base = b.build();
  const std::vector<std::tuple<const char*, size_t, uint64_t>> fields = {
      {"nlibs", 20, 0xffffffff}, {"len_strings", 24, 0xffffffff}, {"extension_offset", 32, 0xfffffff0},
      {"key", 48 + 4, 0xffffffff}, {"value", 48 + 8, 0xfffffff0}};
  for (const auto& [what, at, value] : fields) {
    std::string bytes = base;
    put_le(bytes, at, value, 4);
    auto r = parse_ld_cache(bytes, "cache");
    ASSERT_FALSE(r) << what << " accepted";
    EXPECT_EQ(r.error().kind, ErrorKind::kInput) << what;
  }
  LdCacheBuilder old;
  old.layout = LdCacheBuilder::Layout::kOld;
  old.entries = b.entries;
  std::string bytes = old.build();
  put_le(bytes, 12, 0xffffffff, 4);
  EXPECT_FALSE(parse_ld_cache(bytes, "cache"));
}

// --- text formats

const char* kBuildInfo =
    "\"\"\"Auto-generated module providing information about the build.\"\"\"\nimport collections\n\n"
    "build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-16/bin/clang'), "
    "('cuda_compute_capabilities', ['sm_35', 'sm_50', 'compute_80']), ('cuda_version', '11.8'), "
    "('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False)])\n";
const char* kOldBuildInfo =
    "from __future__ import print_function\nis_cuda_build = True\ncuda_version_number = '10.1'\n"
    "cudnn_version_number = \"7\"\ncudart_dll_name = 'cudart64_101.dll'\n";
const char* kMetadata =
    "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\nRequires-Python: >=3.9\n"
    "Requires-Dist: numpy <2.0.0,>=1.23.5\n\nLong description\n";
const char* kPyvenv = "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n";
const char* kVersionJson = R"({"cuda": {"name": "CUDA SDK", "version": "12.2.2"}, "cuda_cudart": {"version": "12.2.140"}})";
const char* kCudnnH = "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n";

bool is_prefix(const std::string& part, const std::string& whole) { return whole.starts_with(part); }

TEST(Hostile, TruncatedBuildInfoIsAnErrorOrAPrefixOfTheTruth) {
  for (const char* text : {kBuildInfo, kOldBuildInfo}) {
    const std::string full(text);
    auto whole = parse_tf_build_info(full);
    ASSERT_TRUE(whole) << whole.error().message;
    for (size_t n = 0; n < full.size(); ++n) {
      auto r = parse_tf_build_info(full.substr(0, n), "build_info.py");
      if (!r) {
        expect_one_line(r.error(), "build_info cut to " + std::to_string(n));
        continue;
      }
      // What a cut file yields is never invented: known keys, values cut at most.
      for (const auto& [k, v] : *r) {
        ASSERT_TRUE(whole->contains(k)) << "cut to " << n << " invented key " << k;
        EXPECT_TRUE(is_prefix(v, whole->at(k))) << "cut to " << n << ": " << k << "=" << v;
      }
    }
  }
}

TEST(Hostile, TruncatedMetadataAndVenvConfigAreErrorsOrPrefixes) {
  const std::string md(kMetadata), venv(kPyvenv);
  for (size_t n = 0; n < md.size(); ++n) {
    auto r = parse_dist_metadata(md.substr(0, n));
    if (!r) {
      expect_one_line(r.error(), "metadata");
      continue;
    }
    EXPECT_EQ(r->name, "tensorflow");
    EXPECT_TRUE(is_prefix(r->version, "2.15.0")) << r->version;
  }
  for (size_t n = 0; n < venv.size(); ++n) {
    auto r = parse_pyvenv_cfg(venv.substr(0, n));
    if (!r) {
      expect_one_line(r.error(), "pyvenv");
      continue;
    }
    EXPECT_TRUE(is_prefix(r->home, "/usr/bin")) << r->home;
  }
}

TEST(Hostile, TruncatedVersionFilesAreErrorsOrPrefixes) {
  const std::string json(kVersionJson), cudnn(kCudnnH);
  for (size_t n = 0; n < json.size(); ++n) {
    auto r = parse_cuda_version_json(json.substr(0, n));
    ASSERT_FALSE(r) << "version.json cut to " << n << " parsed";
    expect_one_line(r.error(), "version.json");
  }
  for (size_t n = 0; n < cudnn.size(); ++n) {
    auto r = parse_cudnn_version_header(cudnn.substr(0, n));
    if (!r) {
      expect_one_line(r.error(), "cudnn");
      continue;
    }
    EXPECT_TRUE(r->starts_with("9.1")) << *r;
  }
}

TEST(Hostile, RandomTextNeverCrashesTextParsers) {
  std::mt19937_64 rng(42);
  const std::string alphabet = "[](){}'\"\\#:=,.-_ \n\tabcTrueFalseNone0123456789xuUrb*?!/;";
  for (int i = 0; i < 5000; ++i) {
    size_t len = rng() % 400;
    std::string text(len, ' ');
    for (auto& c : text) c = (rng() % 8 == 0) ? static_cast<char>(rng()) : alphabet[rng() % alphabet.size()];
    auto check = [&](const auto& r, const char* what) {
      if (!r) expect_one_line(r.error(), std::string(what) + " case " + std::to_string(i));
    };
    check(parse_tf_build_info(text), "build_info");
    check(parse_py_literal(text), "literal");
    check(parse_dist_metadata(text), "metadata");
    check(parse_pyvenv_cfg(text), "pyvenv");
    check(parse_cuda_version_json(text), "version.json");
    check(parse_cuda_version_txt(text), "version.txt");
    check(parse_cudnn_version_header(text), "cudnn");
    (void)parse_ld_so_conf_text(text);
    (void)glob_match(text.substr(0, text.size() / 2), text.substr(text.size() / 2));
  }
}

TEST(Hostile, HugeNestingAndLongTokensAreRefusedQuickly) {
  for (const std::string& text : {std::string(200000, '['), std::string(200000, '('), std::string(200000, '{'),
                                  "x = " + std::string(100000, '['), "build_info = dict(" + std::string(100000, '(')}) {
    auto r = parse_tf_build_info(text, "b.py");
    ASSERT_FALSE(r);
    expect_one_line(r.error(), "nesting");
  }
  auto long_string = parse_py_literal("'" + std::string(1 << 20, 'a') + "'");
  ASSERT_TRUE(long_string);
  EXPECT_EQ(long_string->text.size(), 1u << 20);
  EXPECT_FALSE(glob_match(std::string(5000, '*') + "b", std::string(5000, 'a')));
}

TEST(Hostile, LdSoConfWithSelfIncludesAndHugeFilesTerminates) {
  FakeHost host;
  std::string many;
  for (int i = 0; i < 2000; ++i) many += "include /etc/ld.so.conf\n/d" + std::to_string(i % 10) + "\n";
  host.add_file("/etc/ld.so.conf", many);
  host.add_file("/etc/ld.so.conf.d/a.conf", "include /etc/ld.so.conf.d/*.conf\n/a\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(dirs->size(), 10u);
  host.add_file("/etc/big.conf", std::string(2u << 20, 'x'));
  auto big = read_ld_so_conf(host, "/etc/big.conf");
  ASSERT_FALSE(big);  // larger than the 1 MiB a config file may have
  expect_one_line(big.error(), "big");
}

}  // namespace
}  // namespace tfgpu::binfmt
