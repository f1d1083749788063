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

// DT_GNU_HASH lookups by ranged reads agree with what `nm -D --defined-only` says of the
// same files: defined in the provider, only referenced (undefined) in its user, absent
// from an unrelated library.
TEST_F(ElfGcc, GnuHashLookupFindsDefinedSymbolsOnly) {
  const std::string sym = "_ZN3tsl8internal18LoadDynamicLibraryEPKcPPv";
  std::string decl = "int tf_loader(const char* n, void** h) __asm__(\"" + sym + "\");\n";
  std::string error;
  std::string provider = build_shared_library(dir_, "libprovider.so", {"-Wl,--hash-style=gnu"}, &error, {},
                                              decl + "int tf_loader(const char* n, void** h) { return n != 0 && h != 0; }\n"
                                                     "int other_fn(void) { return 1; }\n");
  ASSERT_FALSE(provider.empty()) << error;
  std::string user = build_shared_library(dir_, "libuser.so", {"-Wl,--hash-style=gnu"}, &error, {provider},
                                          decl + "int use_it(void) { return tf_loader(0, 0); }\n");
  ASSERT_FALSE(user.empty()) << error;
  std::string plain = build_shared_library(dir_, "libplain.so", {"-Wl,--hash-style=gnu"}, &error);
  ASSERT_FALSE(plain.empty()) << error;
  auto lookup = [&](const std::string& path) {
    std::string bytes = read_binary_file(path);
    RangeFn read = [&bytes](uint64_t offset, uint64_t length) -> Result<std::string> {
      return offset >= bytes.size() ? std::string() : bytes.substr(offset, length);
    };
    auto f = parse_elf_ranges(bytes.size(), read, path, {sym, "other_fn", "no_such_symbol"});
    EXPECT_TRUE(f) << (f ? "" : f.error().message);
    return f ? f->symbols : std::map<std::string, bool>{};
  };
  auto p = lookup(provider);
  EXPECT_EQ(p, (std::map<std::string, bool>{{sym, true}, {"other_fn", true}, {"no_such_symbol", false}}));
  auto u = lookup(user);
  EXPECT_EQ(u[sym], false);  // referenced, not defined: not in the hash table's defined part
  EXPECT_EQ(u.count(sym), 1u);
  auto q = lookup(plain);
  EXPECT_EQ(q[sym], false);
  EXPECT_EQ(q.count("other_fn"), 1u);
}

}  // namespace
}  // namespace tfgpu::binfmt
