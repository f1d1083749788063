// ld.so.cache reader rules: checked against ldconfig's own listing (`ldconfig -p`) of this
// machine's cache and of caches ldconfig writes in the test run in each format it supports.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "binfmt/ld_cache.h"
#include "host/host.h"
#include "support/binfmt_fixtures.h"
#include "support/ld_cache_builder.h"
#include "util/strings.h"

namespace tfgpu::binfmt {
namespace {

using test::build_shared_library;
using test::read_binary_file;
using test::ScratchDir;

// One line of `ldconfig -p`: "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1";
// the parentheses may add ", hwcap: ..." or ", OS ABI: ..." after the flags.
struct PrintedEntry {
  std::string name, flags, path;
  bool operator==(const PrintedEntry&) const = default;
};

std::ostream& operator<<(std::ostream& os, const PrintedEntry& e) {
  return os << e.name << " (" << e.flags << ") => " << e.path;
}

std::optional<std::vector<PrintedEntry>> ldconfig_print(const std::vector<std::string>& extra) {
  ProcessSpec spec;
  spec.argv = {"ldconfig", "-p"};
  for (const auto& a : extra) spec.argv.push_back(a);
  // ldconfig lives in /sbin, which a non-root PATH may lack.
  for (const char* p : {"/sbin/ldconfig", "/usr/sbin/ldconfig"})
    if (std::filesystem::exists(p)) spec.argv[0] = p;
  auto r = make_system_host()->run(spec);
  if (!r || !r->exited || r->exit_code != 0) return std::nullopt;
  std::vector<PrintedEntry> out;
  for (const std::string& raw : split(r->out, '\n')) {
    if (!raw.starts_with("\t")) continue;
    std::string line(trim(raw));
    size_t open = line.find(" ("), close = line.find(") => ");
    if (open == std::string::npos || close == std::string::npos) continue;
    std::string flags = line.substr(open + 2, close - open - 2);
    flags = flags.substr(0, flags.find(", "));
    out.push_back({line.substr(0, open), flags, line.substr(close + 5)});
  }
  return out;
}

std::vector<PrintedEntry> as_printed(const LdCache& cache) {
  std::vector<PrintedEntry> out;
  for (const auto& r : cache.records) out.push_back({r.entry.name, ldconfig_flags_text(r.flags), r.entry.path});
  return out;
}

TEST(LdCacheLive, ThisMachinesCacheMatchesLdconfigListing) {
  const std::string path = "/etc/ld.so.cache";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path << " on this machine";
  auto printed = ldconfig_print({});
  if (!printed) GTEST_SKIP() << "ldconfig -p is not runnable here";
  auto cache = parse_ld_cache(read_binary_file(path), path);
  ASSERT_TRUE(cache) << cache.error().message;
  EXPECT_EQ(as_printed(*cache), *printed);
  EXPECT_GT(cache->records.size(), 0u);
}

// Builds libfoo.so.1 and libbar.so.2 in a directory, runs ldconfig in a chroot of the
// scratch dir (so neither /etc nor /var/cache/ldconfig of the machine are touched), and
// returns the cache file's path.
class LdCacheGenerated : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "ldconfig -r (chroot) needs root; skipped as non-root";
    std::string error;
    std::filesystem::create_directories(dir_.file("opt/tf/lib"));
    std::filesystem::create_directories(dir_.file("etc"));
    if (build_shared_library(dir_, "opt/tf/lib/libfoo.so.1", {"-Wl,-soname,libfoo.so.1"}, &error).empty() ||
        build_shared_library(dir_, "opt/tf/lib/libbar.so.2", {"-Wl,-soname,libbar.so.2"}, &error).empty())
      GTEST_SKIP() << "gcc could not build fixtures: " << error;
    dir_.write("etc/ld.so.conf", "/opt/tf/lib\n");
  }

  std::optional<std::string> make_cache(const std::string& format) {
    ProcessSpec spec;
    spec.argv = {"ldconfig", "-X", "-r", dir_.path(), "-c", format};
    for (const char* p : {"/sbin/ldconfig", "/usr/sbin/ldconfig"})
      if (std::filesystem::exists(p)) spec.argv[0] = p;
    auto r = make_system_host()->run(spec);
    if (!r || !r->exited || r->exit_code != 0) return std::nullopt;
    return dir_.file("etc/ld.so.cache");
  }

  void check(const std::string& format, LdCacheFormat expected) {
    auto file = make_cache(format);
    if (!file) GTEST_SKIP() << "ldconfig -c " << format << " is not supported here";
    auto cache = parse_ld_cache(read_binary_file(*file), *file);
    ASSERT_TRUE(cache) << cache.error().message;
    EXPECT_EQ(cache->format, expected);
    auto printed = ldconfig_print({"-C", *file});
    ASSERT_TRUE(printed);
    EXPECT_EQ(as_printed(*cache), *printed);
    // Our two libraries are there with their directory and the machine's arch.
    std::vector<std::string> names;
    for (const auto& e : cache->entries()) {
      if (e.path.starts_with("/opt/tf/lib/")) names.push_back(e.name + " " + e.path + " " + e.arch);
    }
    std::sort(names.begin(), names.end());
#if defined(__x86_64__)
    EXPECT_EQ(names, (std::vector<std::string>{"libbar.so.2 /opt/tf/lib/libbar.so.2 x86-64",
                                               "libfoo.so.1 /opt/tf/lib/libfoo.so.1 x86-64"}));
#endif
  }

  ScratchDir dir_;
};

TEST_F(LdCacheGenerated, NewFormatIsReadLikeLdconfigPrintsIt) { check("new", LdCacheFormat::kNew); }
TEST_F(LdCacheGenerated, OldFormatIsReadLikeLdconfigPrintsIt) { check("old", LdCacheFormat::kOld); }
TEST_F(LdCacheGenerated, CompatFormatIsReadFromTheEmbeddedNewCache) { check("compat", LdCacheFormat::kCompat); }

TEST(LdCache, OtherFilesAreNotFound) {
  auto c = parse_ld_cache("\x7f" "ELF...", "/etc/ld.so.cache");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(c.error().message, "/etc/ld.so.cache: not an ld.so.cache file");
}

TEST(LdCache, HugeEntryCountIsTruncationNotAllocation) {
  std::string bytes = "glibc-ld.so.cache1.1";
  bytes += std::string("\xff\xff\xff\xff", 4);  // nlibs
  bytes += std::string(24, '\0');
  auto c = parse_ld_cache(bytes, "c");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::kInput);
  EXPECT_EQ(c.error().message, "c: truncated cache entries at offset 0x30");
}

TEST(LdCache, ArchNamesMatchTheSnapshotVocabulary) {
  EXPECT_EQ(ld_cache_arch_name(0x0303), "x86-64");
  EXPECT_EQ(ld_cache_arch_name(0x0003), "i386");
  EXPECT_EQ(ld_cache_arch_name(0x0a03), "aarch64");
  EXPECT_EQ(ld_cache_arch_name(0x0803), "x32");
  EXPECT_EQ(ldconfig_flags_text(0x0303), "libc6,x86-64");
  EXPECT_EQ(ldconfig_flags_text(0x0003), "libc6");
  EXPECT_EQ(ldconfig_flags_text(0x0a03), "libc6,AArch64");
}

}  // namespace
}  // namespace tfgpu::binfmt

namespace tfgpu::binfmt {
namespace {

using test::LdCacheBuilder;

LdCacheBuilder two_entries(LdCacheBuilder::Layout layout) {
  LdCacheBuilder b;
  b.layout = layout;
  b.entries = {{"libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so.12", 0x0303, 0},
               {"libcudart.so.12", "/usr/lib/i386-linux-gnu/libcudart.so.12", 0x0003, 0}};
  return b;
}

TEST(LdCacheBuilt, EachLayoutGivesTheSameEntriesInFileOrder) {
  for (auto layout : {LdCacheBuilder::Layout::kOld, LdCacheBuilder::Layout::kNew, LdCacheBuilder::Layout::kCompat}) {
    auto c = parse_ld_cache(two_entries(layout).build(), "cache");
    ASSERT_TRUE(c) << c.error().message;
    ASSERT_EQ(c->records.size(), 2u);
    EXPECT_EQ(c->records[0].entry.name, "libcudart.so.12");
    EXPECT_EQ(c->records[0].entry.path, "/usr/local/cuda/lib64/libcudart.so.12");
    EXPECT_EQ(c->records[0].entry.arch, "x86-64");
    EXPECT_EQ(c->records[1].entry.path, "/usr/lib/i386-linux-gnu/libcudart.so.12");
    EXPECT_EQ(c->records[1].entry.arch, "i386");
  }
  EXPECT_EQ(parse_ld_cache(two_entries(LdCacheBuilder::Layout::kOld).build())->format, LdCacheFormat::kOld);
  EXPECT_EQ(parse_ld_cache(two_entries(LdCacheBuilder::Layout::kNew).build())->format, LdCacheFormat::kNew);
  EXPECT_EQ(parse_ld_cache(two_entries(LdCacheBuilder::Layout::kCompat).build())->format, LdCacheFormat::kCompat);
}

TEST(LdCacheBuilt, HwcapIsKeptForTheLoaderModel) {
  LdCacheBuilder b;
  b.entries = {{"libm.so.6", "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libm.so.6", 0x0303, 0x4000000000000001ull}};
  auto c = parse_ld_cache(b.build());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->records[0].hwcap, 0x4000000000000001ull);
}

TEST(LdCacheBuilt, StringOffsetPastTheTableIsMalformed) {
  std::string bytes = two_entries(LdCacheBuilder::Layout::kNew).build();
  bytes[48 + 4] = '\x7f', bytes[48 + 5] = '\x7f';  // first entry's key
  auto c = parse_ld_cache(bytes, "/etc/ld.so.cache");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, ErrorKind::kInput);
  EXPECT_EQ(c.error().message, "/etc/ld.so.cache: truncated cache string table at offset 0x7f7f");
}

}  // namespace
}  // namespace tfgpu::binfmt
