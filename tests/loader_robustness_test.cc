// Hostile snapshots and processes through the loader models: random bytes as names,
// paths, RPATH entries and environment, symlink loops, dependency cycles, huge search
// lists. Every call must return an answer (no crash, no hang) that is well formed.
#include <gtest/gtest.h>

#include <random>

#include "loader/ld_so.h"
#include "loader/load_library.h"

namespace tfgpu::loader {
namespace {

std::string random_text(std::mt19937& rng, size_t max_len) {
  static const char kChars[] = "/$.{}:;\\ab_ORIGINLIBPLATFORM0129\0\xff";
  static const std::string alphabet(kChars, sizeof(kChars) - 1);  // NUL and 0xff included
  std::string s;
  size_t n = rng() % (max_len + 1);
  for (size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
  return s;
}

void expect_well_formed(const Resolution& r) {
  if (r.outcome == Outcome::kFound) {
    ASSERT_FALSE(r.trail.empty());
    EXPECT_TRUE(r.trail.back().why == Why::kChosen || r.trail.back().why == Why::kAlreadyLoaded ||
                r.trail.back().why == Why::kKnownDll);
  } else {
    EXPECT_FALSE(r.error.empty());
  }
}

TEST(LoaderRobustness, RandomSnapshotsAndNamesAlwaysGetAWellFormedAnswer) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    Snapshot s;
    s.host.arch = random_text(rng, 8);
    s.loader.default_dirs = {random_text(rng, 12), "/lib"};
    s.loader.system_dir = "C:\\Windows\\System32";
    for (int i = 0; i < 12; ++i) {
      LibraryFile f;
      f.path = (rng() % 2 ? "/" : "") + random_text(rng, 20);
      f.name = random_text(rng, 8);
      f.format = rng() % 3 == 0 ? "elf" : rng() % 2 ? "pe" : "";
      f.elf.bits = static_cast<int>(rng() % 3) * 32;
      f.elf.machine = random_text(rng, 6);
      f.elf.soname = random_text(rng, 6);
      f.elf.needed = {random_text(rng, 6), random_text(rng, 6)};
      f.elf.rpath = {random_text(rng, 16)};
      f.elf.runpath = rng() % 2 ? std::vector<std::string>{random_text(rng, 16)} : std::vector<std::string>{};
      f.pe.bits = f.elf.bits;
      f.pe.imports = {random_text(rng, 6)};
      if (rng() % 4 == 0) f.symlink_target = random_text(rng, 10);
      if (rng() % 5 == 0) f.error = random_text(rng, 10);
      s.libraries.push_back(f);
      s.loader.ld_cache.push_back({random_text(rng, 6), random_text(rng, 12), random_text(rng, 5)});
    }
    LinuxProcess p;
    p.objects.push_back({random_text(rng, 12), s.libraries[0].elf, -1, {}});
    p.objects.push_back({random_text(rng, 12), s.libraries[1].elf, 0, {random_text(rng, 5)}});
    p.caller = 1;
    p.cwd = random_text(rng, 8);
    p.ld_library_path = random_text(rng, 40);
    p.lib_token = random_text(rng, 4);
    p.hwcaps_subdirs = {random_text(rng, 5)};
    auto ld = LdSo::create(s, p);
    ASSERT_TRUE(ld.has_value());
    for (int k = 0; k < 8; ++k) {
      std::string name = k < 4 ? s.libraries[rng() % s.libraries.size()].elf.soname : random_text(rng, 12);
      expect_well_formed(ld->find(name, static_cast<int>(rng() % 5) - 1));
      LoadResult r = ld->dlopen(name);
      expect_well_formed(r.root);
      if (r.outcome != Outcome::kFound) EXPECT_FALSE(r.error.empty());
    }
    WindowsProcess w;
    w.app_dir = random_text(rng, 10) + "x";
    w.cwd = random_text(rng, 6);
    w.path_env = random_text(rng, 40);
    w.user_dirs = {random_text(rng, 8)};
    auto win = WindowsLoader::create(s, w);
    ASSERT_TRUE(win.has_value());
    for (int k = 0; k < 6; ++k) {
      std::string name = random_text(rng, 12);
      expect_well_formed(win->find(name, static_cast<SearchFlags>(rng() & 0x1F08), random_text(rng, 6)));
      expect_well_formed(win->load_library(name, static_cast<SearchFlags>(rng() & 0x1F08)).root);
    }
  }
}

TEST(LoaderRobustness, ASymlinkLoopEndsAsAFileNotAHang) {
  Snapshot s;
  s.loader.default_dirs = {"/l"};
  LibraryFile a, b;
  a.path = "/l/liba.so";
  a.symlink_target = "libb.so";
  b.path = "/l/libb.so";
  b.symlink_target = "/l/liba.so";
  s.libraries = {a, b};
  LinuxProcess p;
  p.objects.push_back({"/bin/x", {}, -1, {}});
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("liba.so", 0);
  EXPECT_NE(r.outcome, Outcome::kUnknown);
  expect_well_formed(r);
}

TEST(LoaderRobustness, ADependencyCycleLoadsEachObjectOnce) {
  Snapshot s;
  s.loader.default_dirs = {"/l"};
  s.loader.ld_cache_state.status = ProbeStatus::kOk;
  LibraryFile a, b;
  a.path = "/l/liba.so";
  a.format = b.format = "elf";
  a.elf = {64, "x86-64", "liba.so", {"libb.so"}, {}, {}};
  b.path = "/l/libb.so";
  b.elf = {64, "x86-64", "libb.so", {"liba.so"}, {}, {}};
  s.libraries = {a, b};
  LinuxProcess p;
  p.objects.push_back({"/bin/x", {64, "x86-64", "", {}, {}, {}}, -1, {}});
  auto ld = LdSo::create(s, p);
  LoadResult r = ld->dlopen("liba.so");
  EXPECT_EQ(r.outcome, Outcome::kFound);
  EXPECT_EQ(r.newly_loaded(), (std::vector<std::string>{"/l/liba.so", "/l/libb.so"}));
}

TEST(LoaderRobustness, AHugeLdLibraryPathIsSearchedInFull) {
  Snapshot s;
  s.loader.ld_cache_state.status = ProbeStatus::kOk;
  LibraryFile f;
  f.path = "/d4999/libx.so";
  f.format = "elf";
  s.libraries = {f};
  std::string llp;
  for (int i = 0; i < 5000; ++i) llp += "/d" + std::to_string(i) + ":";
  LinuxProcess p;
  p.objects.push_back({"/bin/x", {}, -1, {}});
  p.ld_library_path = llp;
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libx.so", 0);
  EXPECT_EQ(r.path, "/d4999/libx.so");
  EXPECT_EQ(r.trail.size(), 5000u);
}

}  // namespace
}  // namespace tfgpu::loader
