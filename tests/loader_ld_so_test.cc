// The ld.so model on hand-made snapshots: each test is one rule of ld.so(8) /
// glibc elf/dl-load.c, asserting which file won and why the others were passed over.
#include <gtest/gtest.h>

#include "loader/ld_so.h"

namespace tfgpu::loader {
namespace {

LibraryFile lib(std::string path, std::string soname = "", std::vector<std::string> needed = {},
                std::vector<std::string> rpath = {}, std::vector<std::string> runpath = {}) {
  LibraryFile f;
  f.path = std::move(path);
  f.name = f.path.substr(f.path.rfind('/') + 1);
  f.format = "elf";
  f.elf.bits = 64;
  f.elf.machine = "x86-64";
  f.elf.soname = std::move(soname);
  f.elf.needed = std::move(needed);
  f.elf.rpath = std::move(rpath);
  f.elf.runpath = std::move(runpath);
  return f;
}

Snapshot base_snapshot() {
  Snapshot s;
  s.origin = "test";
  s.host.arch = "x86_64";
  s.loader.default_dirs = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"};
  s.loader.ld_cache_state.status = ProbeStatus::kOk;
  return s;
}

// python, /sp/tf/python/_pywrap.so (dlopened by python: no l_loader), /sp/tf/libtf.so.2
// (its DT_NEEDED); libtf.so.2 calls dlopen, as TensorFlow's DSO loader does.
LinuxProcess tf_like_process(ElfInfo pywrap, ElfInfo framework, ElfInfo main = {}) {
  LinuxProcess p;
  main.bits = 64;
  main.machine = "x86-64";
  p.objects.push_back({"/usr/bin/python3.11", main, -1, {}});
  pywrap.bits = framework.bits = 64;
  p.objects.push_back({"/sp/tf/python/_pywrap.so", pywrap, -1, {"/sp/tf/python/_pywrap.so"}});
  p.objects.push_back({"/sp/tf/libtf.so.2", framework, 1, {"libtf.so.2"}});
  p.caller = 2;
  p.cwd = "/home/u";
  return p;
}

std::vector<Why> whys(const Resolution& r) {
  std::vector<Why> out;
  for (const auto& s : r.trail) out.push_back(s.why);
  return out;
}

TEST(LdSo, RunpathOfTheCallerDisablesEveryRpath) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/r/libx.so.1", "libx.so.1"), lib("/u/libx.so.1", "libx.so.1")};
  auto ld = LdSo::create(s, tf_like_process({.rpath = {"/r"}}, {.runpath = {"/u"}}, {.rpath = {"/r"}}));
  ASSERT_TRUE(ld.has_value()) << ld.error().message;
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.outcome, Outcome::kFound);
  EXPECT_EQ(r.path, "/u/libx.so.1");
  ASSERT_EQ(r.trail.size(), 1u);  // neither the loader's nor the executable's DT_RPATH was searched
  EXPECT_EQ(r.trail[0].source, "DT_RUNPATH of /sp/tf/libtf.so.2");
}

TEST(LdSo, RpathOfTheLoadersChainAppliesWhenTheCallerHasNone) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/sp/p/libx.so.1", "libx.so.1")};
  auto ld = LdSo::create(s, tf_like_process({.rpath = {"$ORIGIN/../../p"}}, {}));
  ASSERT_TRUE(ld.has_value());
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/sp/tf/python/../../p/libx.so.1");  // $ORIGIN of _pywrap.so, spelled as ld.so spells it
  EXPECT_EQ(r.trail.back().source, "DT_RPATH of /sp/tf/python/_pywrap.so");
  EXPECT_EQ(r.file, &s.libraries[0]);
}

TEST(LdSo, AnObjectsRpathIsIgnoredWhenItHasRunpathButTheChainGoesOn) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/ignored/libx.so.1"), lib("/main/libx.so.1")};
  // libtf.so.2 has no RUNPATH; _pywrap has both (its RPATH is dropped); python's RPATH counts.
  auto ld = LdSo::create(s, tf_like_process({.rpath = {"/ignored"}, .runpath = {"/nowhere"}}, {}, {.rpath = {"/main"}}));
  ASSERT_TRUE(ld.has_value());
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/main/libx.so.1");
  EXPECT_EQ(r.trail.back().source, "DT_RPATH of /usr/bin/python3.11");
}

TEST(LdSo, RpathComesBeforeLdLibraryPathAndRunpathAfterIt) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/rp/libx.so.1"), lib("/llp/libx.so.1"), lib("/run/libx.so.1")};
  auto with_rpath = tf_like_process({}, {.rpath = {"/rp"}});
  with_rpath.ld_library_path = "/llp";
  auto ld1 = LdSo::create(s, with_rpath);
  EXPECT_EQ(ld1->find("libx.so.1", 2).path, "/rp/libx.so.1");
  auto with_runpath = tf_like_process({}, {.runpath = {"/run"}});
  with_runpath.ld_library_path = "/llp";
  auto ld2 = LdSo::create(s, with_runpath);
  EXPECT_EQ(ld2->find("libx.so.1", 2).path, "/llp/libx.so.1");
}

TEST(LdSo, RunpathIsNotInheritedByDependencies) {
  Snapshot s = base_snapshot();
  // libtf's RUNPATH finds liba; liba needs libb, which only libtf's RUNPATH dir has.
  s.libraries = {lib("/nv/liba.so.1", "liba.so.1", {"libb.so.1"}), lib("/nv/libb.so.1", "libb.so.1")};
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/nv"}}));
  LoadResult r = ld->dlopen("liba.so.1");
  EXPECT_EQ(r.root.path, "/nv/liba.so.1");
  EXPECT_EQ(r.outcome, Outcome::kFailed);
  EXPECT_EQ(r.error, "libb.so.1: cannot open shared object file: No such file or directory");
  ASSERT_EQ(r.closure.size(), 1u);
  EXPECT_EQ(r.closure[0].needed_by, "/nv/liba.so.1");
  EXPECT_EQ(ld->index_of("/nv/liba.so.1"), -1);  // a failed dlopen leaves nothing loaded
}

TEST(LdSo, TheCallersRpathDoesNotReachWhatTheDlopenedLibraryNeeds) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/nv/liba.so.1", "liba.so.1", {"libb.so.1"}), lib("/nv/libb.so.1", "libb.so.1")};
  auto ld = LdSo::create(s, tf_like_process({}, {.rpath = {"/nv"}}));
  LoadResult r = ld->dlopen("liba.so.1");
  EXPECT_EQ(r.root.path, "/nv/liba.so.1");
  EXPECT_EQ(r.outcome, Outcome::kFailed);  // dlopen keeps no l_loader: libtf's DT_RPATH is not inherited
  EXPECT_EQ(r.error, "libb.so.1: cannot open shared object file: No such file or directory");
}

TEST(LdSo, RpathIsInheritedDownADtNeededChain) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/nv/liba.so.1", "liba.so.1", {"libb.so.1"}, {"/deep"}),
                 lib("/deep/libb.so.1", "libb.so.1", {"libc3.so.1"}), lib("/deep/libc3.so.1", "libc3.so.1")};
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/nv"}}));
  LoadResult r = ld->dlopen("liba.so.1");
  EXPECT_EQ(r.outcome, Outcome::kFound) << r.error;
  EXPECT_EQ(r.newly_loaded(), (std::vector<std::string>{"/nv/liba.so.1", "/deep/libb.so.1", "/deep/libc3.so.1"}));
  // libc3 was found through the DT_RPATH of liba, the object that loaded libb.
  EXPECT_EQ(r.closure[1].resolution.trail.back().source, "DT_RPATH of /nv/liba.so.1");
  EXPECT_GE(ld->index_of("/deep/libc3.so.1"), 0);
}

TEST(LdSo, EmptyLdLibraryPathEntryMeansTheCurrentDirectory) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/home/u/libx.so.1"), lib("/b/libx.so.1")};
  auto p = tf_like_process({}, {});
  p.ld_library_path = "/a::/b";
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "libx.so.1");  // relative, as ld.so opens it
  EXPECT_EQ(r.file, &s.libraries[0]);
  EXPECT_EQ(r.trail[0].path, "/a/libx.so.1");
  EXPECT_EQ(r.trail[0].why, Why::kAbsent);
}

TEST(LdSo, LdLibraryPathSplitsAtSemicolonsTooAndDropsDuplicates) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/b/libx.so.1")};
  auto p = tf_like_process({}, {});
  p.ld_library_path = "/a;/a/:/b";
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/b/libx.so.1");
  EXPECT_EQ(r.trail.size(), 2u);  // "/a/" is "/a" again
}

TEST(LdSo, WrongClassAndWrongMachineAreSkippedAndTheSearchGoesOn) {
  Snapshot s = base_snapshot();
  LibraryFile c32 = lib("/a/libx.so.1");
  c32.elf.bits = 32;
  LibraryFile arm = lib("/b/libx.so.1");
  arm.elf.machine = "aarch64";
  s.libraries = {c32, arm, lib("/c/libx.so.1")};
  auto p = tf_like_process({}, {});
  p.ld_library_path = "/a:/b:/c";
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/c/libx.so.1");
  EXPECT_EQ(whys(r), (std::vector<Why>{Why::kWrongClass, Why::kWrongMachine, Why::kChosen}));
  EXPECT_EQ(r.trail[0].detail, "ELFCLASS32");
}

TEST(LdSo, AFileThatIsNotElfEndsTheSearchWithAnError) {
  Snapshot s = base_snapshot();
  LibraryFile text = lib("/a/libx.so");
  text.format = "unknown";
  text.error = "invalid ELF header";
  s.libraries = {text, lib("/b/libx.so")};
  auto p = tf_like_process({}, {});
  p.ld_library_path = "/a:/b";
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libx.so", 2);
  EXPECT_EQ(r.outcome, Outcome::kFailed);
  EXPECT_EQ(r.error, "/a/libx.so: invalid ELF header");
  EXPECT_EQ(r.trail.size(), 1u);
}

TEST(LdSo, AnUnreadableFileIsSkipped) {
  Snapshot s = base_snapshot();
  LibraryFile locked = lib("/a/libx.so.1");
  locked.error = "unreadable: Permission denied";
  s.libraries = {locked, lib("/b/libx.so.1")};
  auto p = tf_like_process({}, {});
  p.ld_library_path = "/a:/b";
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/b/libx.so.1");
  EXPECT_EQ(r.trail[0].why, Why::kUnreadable);
}

TEST(LdSo, ADirectoryWithOnlyAnotherVersionSaysWhichOne) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/usr/local/cuda/lib64/libcudart.so.12"), lib("/usr/local/cuda/lib64/libcudart.so")};
  auto p = tf_like_process({}, {});
  p.ld_library_path = "/usr/local/cuda/lib64";
  auto ld = LdSo::create(s, p);
  Resolution r = ld->find("libcudart.so.11.0", 2);
  EXPECT_EQ(r.outcome, Outcome::kNotFound);
  EXPECT_EQ(r.trail[0].why, Why::kOtherVersion);
  EXPECT_EQ(r.trail[0].detail, "has libcudart.so, libcudart.so.12");
  EXPECT_EQ(r.error, "libcudart.so.11.0: cannot open shared object file: No such file or directory");
}

TEST(LdSo, CacheComesAfterRunpathAndBeforeTheDefaultDirs) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/opt/cuda/lib64/libx.so.1"), lib("/usr/lib/x86_64-linux-gnu/libx.so.1")};
  s.loader.ld_cache = {{"libx.so.1", "/opt/cuda/lib64/libx.so.1", "x86-64"}};
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/nv"}}));
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/opt/cuda/lib64/libx.so.1");
  EXPECT_EQ(r.trail.back().source, "ld.so.cache");
}

TEST(LdSo, AStaleOrForeignCacheEntryFallsThroughToTheDefaultDirs) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/usr/lib/x86_64-linux-gnu/libx.so.1")};
  s.loader.ld_cache = {{"libx.so.1", "/usr/lib/i386-linux-gnu/libx.so.1", "i386"},
                       {"libx.so.1", "/gone/libx.so.1", "x86-64"}};
  auto ld = LdSo::create(s, tf_like_process({}, {}));
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/usr/lib/x86_64-linux-gnu/libx.so.1");
  ASSERT_GE(r.trail.size(), 3u);
  EXPECT_EQ(r.trail[0].source, "ld.so.cache");
  EXPECT_EQ(r.trail[0].path, "/gone/libx.so.1");  // the i386 entry was not even considered
  EXPECT_EQ(r.trail[0].why, Why::kAbsent);
  EXPECT_EQ(r.trail[1].path, "/lib/x86_64-linux-gnu/libx.so.1");
  EXPECT_EQ(r.trail.back().why, Why::kChosen);
}

TEST(LdSo, CacheLookupMatchesTheProcessArchitecture) {
  LoaderInfo info;
  info.ld_cache = {{"libz.so.1", "/lib/i386-linux-gnu/libz.so.1", "i386"},
                   {"libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1", "x86-64"}};
  EXPECT_EQ(ld_cache_lookup(info, "libz.so.1", 64, "x86-64")->path, "/lib/x86_64-linux-gnu/libz.so.1");
  EXPECT_EQ(ld_cache_lookup(info, "libz.so.1", 32, "i386")->path, "/lib/i386-linux-gnu/libz.so.1");
  EXPECT_EQ(ld_cache_lookup(info, "libz.so.2", 64, "x86-64"), nullptr);
}

TEST(LdSo, AnObjectAlreadyLoadedAnswersToItsSonameWithoutASearch) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/first/libx.so.1", "libx.so.1"), lib("/nv/libx.so.1", "libx.so.1")};
  auto p = tf_like_process({}, {.runpath = {"/nv"}});
  p.objects.push_back({"/first/libx.so.1", s.libraries[0].elf, 0, {"/first/libx.so.1"}});
  auto ld = LdSo::create(s, p);
  LoadResult r = ld->dlopen("libx.so.1");
  EXPECT_EQ(r.outcome, Outcome::kFound);
  EXPECT_EQ(r.root.path, "/first/libx.so.1");
  EXPECT_EQ(whys(r.root), std::vector<Why>{Why::kAlreadyLoaded});
  EXPECT_TRUE(r.newly_loaded().empty());
}

TEST(LdSo, ASymlinkToALoadedFileIsThatObjectNotASecondCopy) {
  Snapshot s = base_snapshot();
  LibraryFile link = lib("/nv/libx.so");
  link.symlink_target = "libx.so.1";
  s.libraries = {lib("/nv/libx.so.1", "libx.so.1"), link};
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/nv"}}));
  ASSERT_EQ(ld->dlopen("libx.so.1").outcome, Outcome::kFound);
  LoadResult again = ld->dlopen("libx.so");
  EXPECT_EQ(again.root.path, "/nv/libx.so.1");
  EXPECT_EQ(again.root.trail.back().why, Why::kAlreadyLoaded);
  EXPECT_EQ(again.root.trail.back().detail, "same file as /nv/libx.so.1");
}

TEST(LdSo, TheClosureIsBreadthFirstAndMatchesEarlierDependenciesByName) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/l/liba.so", "liba.so", {"libb.so", "libc1.so"}, {"$ORIGIN"}),
                 lib("/l/libb.so", "libb.so", {"libd.so"}, {"$ORIGIN"}), lib("/l/libc1.so", "libc1.so", {"libb.so"}),
                 lib("/l/libd.so", "libd.so")};
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/l"}}));
  LoadResult r = ld->dlopen("liba.so");
  EXPECT_EQ(r.outcome, Outcome::kFound) << r.error;
  EXPECT_EQ(r.newly_loaded(), (std::vector<std::string>{"/l/liba.so", "/l/libb.so", "/l/libc1.so", "/l/libd.so"}));
  // libc1's DT_NEEDED libb.so is the object loaded a moment ago.
  ASSERT_EQ(r.closure.size(), 4u);
  EXPECT_EQ(r.closure[2].needed_by, "/l/libb.so");
  EXPECT_EQ(r.closure[3].needed_by, "/l/libc1.so");
  EXPECT_EQ(r.closure[3].resolution.trail.back().why, Why::kAlreadyLoaded);
}

TEST(LdSo, ANameWithASlashIsOpenedAsGivenAfterOriginExpansion) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/sp/nvidia/cudnn/lib/libcudnn.so.9")};
  auto ld = LdSo::create(s, tf_like_process({}, {}));
  Resolution r = ld->find("$ORIGIN/../nvidia/cudnn/lib/libcudnn.so.9", 2);
  EXPECT_EQ(r.outcome, Outcome::kFound);
  EXPECT_EQ(r.path, "/sp/tf/../nvidia/cudnn/lib/libcudnn.so.9");
}

TEST(LdSo, NamesTheProbeDidNotLookForAreUnknownNotMissing) {
  Snapshot s = base_snapshot();
  s.libraries = {lib("/nv/libcudnn.so.9", "libcudnn.so.9", {"libz.so.1", "libcudnn_graph.so.9"})};
  LdSoOptions o;
  o.probed_name = [](std::string_view n) { return n.starts_with("libcu"); };
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/nv"}}), o);
  LoadResult r = ld->dlopen("libcudnn.so.9");
  ASSERT_EQ(r.closure.size(), 2u);
  EXPECT_EQ(r.closure[0].resolution.outcome, Outcome::kUnknown);  // libz: not the probe's business
  EXPECT_EQ(r.closure[1].resolution.outcome, Outcome::kNotFound);  // libcudnn_graph: truly missing
  EXPECT_EQ(r.outcome, Outcome::kFailed);
  EXPECT_EQ(r.error, "libcudnn_graph.so.9: cannot open shared object file: No such file or directory");
}

TEST(LdSo, AMalformedProcessIsRejectedWithAClearError) {
  Snapshot s = base_snapshot();
  EXPECT_FALSE(LdSo::create(s, LinuxProcess{}).has_value());
  auto p = tf_like_process({}, {});
  p.caller = 7;
  auto r = LdSo::create(s, p);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kInput);
  p.caller = 2;
  p.objects[1].loaded_by = 2;
  EXPECT_FALSE(LdSo::create(s, p).has_value());
  p.objects[1].loaded_by = -2;
  EXPECT_FALSE(LdSo::create(s, p).has_value());
}

TEST(LdSoDst, OriginLibAndPlatformExpandLikeGlibc) {
  EXPECT_EQ(expand_dst("$ORIGIN/../lib", "/a/b", "lib64", "x86_64"), "/a/b/../lib");
  EXPECT_EQ(expand_dst("${ORIGIN}/x:$LIB/$PLATFORM", "/o", "lib/x86_64-linux-gnu", "x86_64"),
            "/o/x:lib/x86_64-linux-gnu/x86_64");
  EXPECT_EQ(expand_dst("$ORIGINAL/x", "/o", "lib", "p"), "$ORIGINAL/x");  // not a token: kept
  EXPECT_EQ(expand_dst("$FOO/$", "/o", "lib", "p"), "$FOO/$");
  EXPECT_EQ(expand_dst("${ORIGIN", "/o", "lib", "p"), "${ORIGIN");
  EXPECT_EQ(expand_dst("$ORIGIN/x", "", "lib", "p"), std::nullopt);  // unknown origin: element dropped
}

// The $PLATFORM rule of glibc 2.26..2.42, sysdeps/x86/cpu-features.c init_cpu_features:
// on arch_kind_intel, AVX512CD+AVX512ER+AVX512PF usable -> "xeon_phi"; otherwise AVX2, FMA,
// BMI1, BMI2, LZCNT, MOVBE and POPCNT usable -> "haswell"; otherwise AT_PLATFORM stays.
HostInfo x86_host(std::string vendor, std::string glibc = "2.36") {
  HostInfo h;
  h.arch = "x86_64";
  h.glibc_version = std::move(glibc);
  h.cpu.vendor = std::move(vendor);
  for (Tri* t : {&h.cpu.avx, &h.cpu.avx2, &h.cpu.fma, &h.cpu.bmi1, &h.cpu.bmi2, &h.cpu.lzcnt, &h.cpu.movbe,
                 &h.cpu.popcnt})
    *t = Tri::kYes;  // a Haswell's flags
  for (Tri* t : {&h.cpu.avx512f, &h.cpu.avx512cd, &h.cpu.avx512er, &h.cpu.avx512pf}) *t = Tri::kNo;
  return h;
}

TEST(LdSoPlatform, IntelWithTheHaswellSetIsHaswell) {
  EXPECT_EQ(ld_so_platform(x86_host("GenuineIntel")), "haswell");
  HostInfo skylake_x = x86_host("GenuineIntel");  // AVX512F+CD without ER: not a Xeon Phi, still haswell
  skylake_x.cpu.avx512f = skylake_x.cpu.avx512cd = Tri::kYes;
  EXPECT_EQ(ld_so_platform(skylake_x), "haswell");
  HostInfo glibc_2_42 = x86_host("GenuineIntel", "2.42");
  EXPECT_EQ(ld_so_platform(glibc_2_42), "haswell");
}

TEST(LdSoPlatform, IntelWithAvx512ErAndPfIsXeonPhi) {
  HostInfo knl = x86_host("GenuineIntel");  // Knights Landing: the Haswell set and AVX512F/CD/ER/PF
  knl.cpu.avx512f = knl.cpu.avx512cd = knl.cpu.avx512er = knl.cpu.avx512pf = Tri::kYes;
  EXPECT_EQ(ld_so_platform(knl), "xeon_phi");
  knl.cpu.avx512pf = Tri::kNo;  // ER without PF: platform stays NULL there, and the haswell test follows
  EXPECT_EQ(ld_so_platform(knl), "haswell");
}

TEST(LdSoPlatform, AnyMissingHaswellFeatureKeepsAtPlatform) {
  for (Tri CpuInfo::*f : {&CpuInfo::avx2, &CpuInfo::fma, &CpuInfo::bmi1, &CpuInfo::bmi2, &CpuInfo::lzcnt,
                          &CpuInfo::movbe, &CpuInfo::popcnt}) {
    HostInfo h = x86_host("GenuineIntel");
    h.cpu.*f = Tri::kNo;
    EXPECT_EQ(ld_so_platform(h), "x86_64");
  }
}

TEST(LdSoPlatform, OnlyIntelCpusAreRenamed) {
  // cpu_features->basic.kind == arch_kind_intel only for "GenuineIntel"; AMD (this
  // machine: an EPYC with every Haswell feature) and others keep AT_PLATFORM.
  EXPECT_EQ(ld_so_platform(x86_host("AuthenticAMD")), "x86_64");
  EXPECT_EQ(ld_so_platform(x86_host("CentaurHauls")), "x86_64");
  HostInfo arm;
  arm.arch = "aarch64";
  arm.cpu.vendor = "GenuineIntel";
  EXPECT_EQ(ld_so_platform(arm), "aarch64");
}

TEST(LdSoPlatform, GlibcBefore226KeepsAtPlatform) {
  EXPECT_EQ(ld_so_platform(x86_host("GenuineIntel", "2.25")), "x86_64");
  EXPECT_EQ(ld_so_platform(x86_host("GenuineIntel", "2.26")), "haswell");
  EXPECT_EQ(ld_so_platform(x86_host("GenuineIntel", "")), "haswell");  // unknown version: a current glibc
}

TEST(LdSoPlatform, UnknownFlagsKeepAtPlatform) {
  HostInfo old_snapshot;  // written before the flags were recorded
  old_snapshot.arch = "x86_64";
  old_snapshot.cpu.vendor = "GenuineIntel";
  old_snapshot.cpu.avx2 = old_snapshot.cpu.fma = Tri::kYes;
  EXPECT_EQ(ld_so_platform(old_snapshot), "x86_64");
}

TEST(LdSo, PlatformInARunpathExpandsToTheSnapshotsCpuPlatform) {
  Snapshot s = base_snapshot();
  s.host = x86_host("GenuineIntel");
  s.libraries = {lib("/sp/p/x86_64/libx.so.1", "libx.so.1"), lib("/sp/p/haswell/libx.so.1", "libx.so.1")};
  auto ld = LdSo::create(s, tf_like_process({}, {.runpath = {"/sp/p/$PLATFORM"}}));
  ASSERT_TRUE(ld.has_value());
  Resolution r = ld->find("libx.so.1", 2);
  EXPECT_EQ(r.path, "/sp/p/haswell/libx.so.1");
  s.host.cpu.vendor = "AuthenticAMD";
  auto amd = LdSo::create(s, tf_like_process({}, {.runpath = {"/sp/p/$PLATFORM"}}));
  ASSERT_TRUE(amd.has_value());
  EXPECT_EQ(amd->find("libx.so.1", 2).path, "/sp/p/x86_64/libx.so.1");
}

TEST(LdSoDst, PathsNormaliseLexically) {
  EXPECT_EQ(normalize_path("/a/b/../c/./d/"), "/a/c/d");
  EXPECT_EQ(normalize_path("/../a"), "/a");
  EXPECT_EQ(normalize_path("a/../../b"), "../b");
  EXPECT_EQ(normalize_path("/"), "/");
  EXPECT_EQ(normalize_path(""), "");
}

}  // namespace
}  // namespace tfgpu::loader
