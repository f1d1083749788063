// The knowledge base: invariants every table must keep (sorted, sourced, every
// cross-reference resolves, names follow the platform's rules) and facts pinned from
// shared/facts/tensorflow.md and nvidia.md, including every cell where the popular
// blog table is wrong (tensorflow.md section 1e).
#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "kb/kb.h"
#include "kb/matrix.h"
#include "support/shipped_kb.h"
#include "util/strings.h"

namespace tfgpu::kb {
namespace {

using testing::shipped_kb;

const TfRelease& tf(std::string_view v) {
  auto r = shipped_kb().find_tf(v);
  if (!r) throw std::runtime_error("no TF " + std::string(v) + ": " + r.error().message);
  return *r->release;
}

std::string tf_lib(std::string_view version, Platform p, std::string_view component) {
  auto libs = shipped_kb().tf_libraries(tf(version), p);
  for (const auto& l : libs.libraries)
    if (l.component == component) return l.file;
  return "";
}

bool tf_must_load(std::string_view version, Platform p, std::string_view component) {
  for (const auto& l : shipped_kb().tf_libraries(tf(version), p).libraries)
    if (l.component == component) return l.must_load;
  return false;
}

bool contains(std::string_view haystack, std::string_view needle) { return haystack.find(needle) != std::string_view::npos; }

std::string py(std::string_view version, Platform p) {
  const auto* list = tf(version).python_on(p);
  return list ? compact_versions(*list) : "";
}

Version V(std::string_view s) { return *Version::parse(s); }

// Every Provenance in the KB, labelled.
std::vector<std::pair<std::string, const Provenance*>> all_provenance() {
  const auto& kb = shipped_kb();
  std::vector<std::pair<std::string, const Provenance*>> out;
  for (const auto& r : kb.tf_releases()) {
    out.emplace_back("tensorflow " + r.version.str(), &r.prov);
    if (!r.compute_capabilities.empty()) out.emplace_back("tensorflow cc " + r.version.str(), &r.cc_prov);
    if (!r.import_prov.source.empty()) out.emplace_back("tensorflow import " + r.version.str(), &r.import_prov);
  }
  for (const auto& r : kb.yanked()) out.emplace_back("yanked " + r.version.str(), &r.prov);
  for (const auto& r : kb.library_sets()) out.emplace_back("library_set " + r.id, &r.prov);
  for (const auto& r : kb.packages()) out.emplace_back("package " + r.name, &r.prov);
  for (const auto& r : kb.and_cuda()) out.emplace_back("and_cuda " + r.tf.str(), &r.prov);
  for (const auto& r : kb.platform_notes()) out.emplace_back("platform_note", &r.prov);
  for (const auto& r : kb.tfjs_node_releases()) out.emplace_back("tfjs_node " + r.tfjs.str(), &r.prov);
  for (const auto& r : kb.cuda_releases()) {
    out.emplace_back("cuda " + r.version.str(), &r.prov);
    out.emplace_back("cuda cc " + r.version.str(), &r.cc_prov);
    if (!r.libraries.empty()) out.emplace_back("cuda libs " + r.version.str(), &r.lib_prov);
  }
  for (const auto& r : kb.cuda_families()) out.emplace_back("family " + std::to_string(r.major), &r.prov);
  for (const auto& r : kb.cudnn_majors()) out.emplace_back("cudnn major " + std::to_string(r.major), &r.prov);
  for (const auto& r : kb.cudnn_releases()) out.emplace_back("cudnn " + r.version.str(), &r.prov);
  for (const auto& r : kb.gpus()) {
    out.emplace_back("gpu " + r.pci_id, &r.prov);
    if (r.peak) out.emplace_back("gpu peak " + r.pci_id, &r.peak->prov);
  }
  for (const auto& r : kb.architectures()) out.emplace_back("architecture " + r.name, &r.prov);
  return out;
}

// ---- invariants ------------------------------------------------------------------

TEST(Kb, EmbeddedKnowledgeBaseLoadsEveryTable) {
  const auto& kb = shipped_kb();
  EXPECT_GE(kb.tf_releases().size(), 25u);
  EXPECT_GE(kb.cuda_releases().size(), 27u);
  EXPECT_GE(kb.cudnn_releases().size(), 20u);
  EXPECT_GE(kb.gpus().size(), 80u);
  EXPECT_FALSE(kb.sources().empty());
  EXPECT_FALSE(kb.library_sets().empty());
}

TEST(Kb, EveryRowHasASourceThatResolves) {
  // A source is a kb/sources.toml id, a URL, or owner/repo:path[@commit].
  const std::regex repo_ref(R"(^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+:[^\s]+$)");
  for (const auto& [row, prov] : all_provenance()) {
    ASSERT_FALSE(prov->source.empty()) << row;
    for (const auto& s : prov->source) {
      bool ok = shipped_kb().source(s) != nullptr || starts_with(s, "https://") || std::regex_match(s, repo_ref);
      EXPECT_TRUE(ok) << row << ": source '" << s << "' is neither a known id nor a URL / repo:path";
    }
  }
}

TEST(Kb, TfjsNodeRangesAreDisjointAndDownloadAKnownRelease) {
  const auto& kb = shipped_kb();
  ASSERT_FALSE(kb.tfjs_node_releases().empty());
  for (const auto& r : kb.tfjs_node_releases()) {
    // Its libtensorflow is a TensorFlow release the KB has a row for (CUDA, cuDNN, capabilities).
    EXPECT_NE(kb.find_tf(r.libtensorflow), nullptr) << r.tfjs.str();
    ASSERT_TRUE(r.tfjs.lo().has_value()) << r.tfjs.str();
    EXPECT_EQ(kb.find_tfjs_node(*r.tfjs.lo()), &r) << r.tfjs.str() << " overlaps an earlier row";
  }
  // Release tags of tensorflow/tfjs, read for the rows: 2.0.1 downloads 1.15.0, 3.21.0 2.9.1.
  ASSERT_NE(kb.find_tfjs_node(*Version::parse("2.0.1")), nullptr);
  EXPECT_EQ(kb.find_tfjs_node(*Version::parse("2.0.1"))->libtensorflow.str(), "1.15.0");
  EXPECT_EQ(kb.find_tfjs_node(*Version::parse("3.21.0"))->libtensorflow.str(), "2.9.1");
  EXPECT_EQ(kb.find_tfjs_node(*Version::parse("0.2.3")), nullptr);  // before the monorepo: not known
}

TEST(Kb, SourceIdsAreUniqueAndHaveUrls) {
  std::set<std::string> ids;
  for (const auto& s : shipped_kb().sources()) {
    EXPECT_TRUE(ids.insert(s.id).second) << s.id;
    EXPECT_TRUE(starts_with(s.url, "https://")) << s.id;
  }
}

TEST(Kb, TfReleasesAreSortedWithOneRowPerMinor) {
  auto rel = shipped_kb().tf_releases();
  for (size_t i = 1; i < rel.size(); ++i) EXPECT_LT(rel[i - 1].series(), rel[i].series()) << rel[i].version.str();
  EXPECT_EQ(rel.front().version.str(), "1.0.0");
  EXPECT_EQ(rel.back().version.str(), "2.21.0");
}

// The tensorflow_gpu 1.0-1.12 rows, as the real PyPI wheels link and check them (readelf,
// objdump; see kb/tensorflow.toml's derivations): known to matrix and explain, never planned.
TEST(Kb, TensorflowGpu1xRowsAreWhatTheWheelsLoad) {
  const auto& kb = shipped_kb();
  auto row = [&](const std::string& v) {
    const kb::TfRelease* r = kb.find_tf(*Version::parse(v));
    EXPECT_NE(r, nullptr) << v;
    return r;
  };
  auto name = [&](const kb::TfRelease* r, Platform p, std::string_view component) {
    for (const auto& l : kb.tf_libraries(*r, p).libraries)
      if (l.component == component) return l.file;
    return std::string();
  };
  for (int minor = 0; minor <= 12; ++minor) {
    const kb::TfRelease* r = row("1." + std::to_string(minor));
    ASSERT_NE(r, nullptr) << minor;
    EXPECT_FALSE(r->plan) << r->version.str();
    EXPECT_EQ(r->cuda.str(), minor <= 4 ? "8.0" : "9.0") << r->version.str();
  }
  const kb::TfRelease* r112 = row("1.12");
  EXPECT_EQ(r112->cudnn.str(), "7.1");  // compiled against 7.1.4, though the r1.12 page said 7.2
  EXPECT_EQ(name(r112, Platform::kLinux, "cudart"), "libcudart.so.9.0");
  EXPECT_EQ(name(r112, Platform::kWindows, "cudnn"), "cudnn64_7.dll");
  EXPECT_EQ(row("1.11")->cudnn.str(), "7.2");
  // 1.5-1.7 compare major*1000 + minor*100 with 7000: only cuDNN 7.0.x; 1.8 on take a higher minor.
  for (const char* v : {"1.5", "1.6", "1.7"}) EXPECT_TRUE(row(v)->cudnn_minor_exact) << v;
  EXPECT_FALSE(row("1.8")->cudnn_minor_exact);
  EXPECT_TRUE(row("1.6")->loads_cudnn(*Version::parse("7.0.5")));
  EXPECT_FALSE(row("1.6")->loads_cudnn(*Version::parse("7.1.2")));
  EXPECT_TRUE(row("1.8")->loads_cudnn(*Version::parse("7.1.2")));
  EXPECT_FALSE(row("1.12")->loads_cudnn(*Version::parse("7.0.5")));  // compiled against 7.1.4
  EXPECT_FALSE(row("1.8")->loads_cudnn(*Version::parse("8.0.5")));   // another major
  // Read from the win_amd64 wheels (imports of the .pyd; self_check.py from 1.4) and RELEASE.md.
  using M = TfRelease::MissingDll;
  EXPECT_EQ(row("1.0")->windows_missing_cuda_dll, M::kLoggedAtRunTime);
  for (const char* v : {"1.1", "1.2", "1.3"}) EXPECT_EQ(row(v)->windows_missing_cuda_dll, M::kDllLoadFailed) << v;
  for (const char* v : {"1.4", "1.5"}) EXPECT_EQ(row(v)->windows_missing_cuda_dll, M::kNamedAtImport) << v;
  EXPECT_EQ(row("2.10")->windows_missing_cuda_dll, M::kUnknown);
  for (const char* v : {"1.0", "1.5"}) EXPECT_FALSE(row(v)->avx) << v;
  for (const char* v : {"1.6", "2.10"}) EXPECT_TRUE(row(v)->avx) << v;
  EXPECT_EQ(shipped_kb().cite_import(*row("1.2")).sources.size(), 2u);
  EXPECT_EQ(name(row("1.4"), Platform::kLinux, "cudnn"), "libcudnn.so.6");
  EXPECT_EQ(name(row("1.2"), Platform::kWindows, "cublas"), "cublas64_80.dll");
  // The last CUDA builds for macOS were 1.0 and 1.1.
  EXPECT_TRUE(row("1.1")->has_gpu_build(Platform::kMacos));
  EXPECT_EQ(name(row("1.1"), Platform::kMacos, "cudnn"), "libcudnn.5.dylib");
  EXPECT_FALSE(row("1.2")->has_gpu_build(Platform::kMacos));
  EXPECT_TRUE(row("1.13")->plan);
  // 1.0-1.12 link CUDA (a missing library fails the import); 1.14 on open it at run time.
  EXPECT_TRUE(kb.tf_libraries(*r112, Platform::kLinux).linked);
  EXPECT_TRUE(kb.tf_libraries(*r112, Platform::kWindows).linked);
  EXPECT_FALSE(kb.tf_libraries(*row("2.5"), Platform::kLinux).linked);
}

TEST(Kb, EveryTfMinorFrom113To221IsPresent) {
  for (int minor = 13; minor <= 15; ++minor)
    EXPECT_NE(shipped_kb().find_tf(Version({1, minor})), nullptr) << "1." << minor;
  for (int minor = 0; minor <= 21; ++minor)
    EXPECT_NE(shipped_kb().find_tf(Version({2, minor})), nullptr) << "2." << minor;
}

TEST(Kb, EveryCudaNamedByTfExists) {
  for (const auto& r : shipped_kb().tf_releases())
    EXPECT_NE(shipped_kb().find_cuda(r.cuda), nullptr) << "TF " << r.version.str() << " names CUDA " << r.cuda.str();
}

TEST(Kb, EveryCudnnNamedByTfExists) {
  for (const auto& r : shipped_kb().tf_releases())
    EXPECT_NE(shipped_kb().find_cudnn(r.cudnn), nullptr)
        << "TF " << r.version.str() << " names cuDNN " << r.cudnn.str();
}

TEST(Kb, EveryTfCudnnSupportsTheTfCuda) {
  for (const auto& r : shipped_kb().tf_releases()) {
    const CudnnRelease* c = shipped_kb().find_cudnn(r.cudnn);
    ASSERT_NE(c, nullptr);
    EXPECT_TRUE(c->supports_cuda(r.cuda)) << "TF " << r.version.str() << ": cuDNN " << c->version.str()
                                          << " does not list CUDA " << r.cuda.str();
  }
}

TEST(Kb, EveryLibrarySetNamedByTfExistsAndCoversItsGpuPlatforms) {
  for (const auto& r : shipped_kb().tf_releases()) {
    const LibrarySet* s = shipped_kb().library_set(r.library_set);
    ASSERT_NE(s, nullptr) << r.version.str() << " -> " << r.library_set;
    for (Platform p : r.gpu_platforms) EXPECT_TRUE(s->names.contains(p)) << r.version.str() << " " << platform_name(p);
  }
}

TEST(Kb, EveryMustLoadComponentIsNamedOnEveryPlatform) {
  for (const auto& s : shipped_kb().library_sets()) {
    for (const auto& [p, names] : s.names) {
      for (const auto& c : s.must_load) {
        bool named = std::any_of(names.begin(), names.end(), [&](const LibraryName& n) { return n.component == c; });
        EXPECT_TRUE(named) << s.id << " " << platform_name(p) << ": " << c;
      }
      EXPECT_EQ(names.front().component, "driver") << s.id;
    }
  }
}

TEST(Kb, VerifiedMustLoadSetsSayHowEachReleaseWasChecked) {
  // must_load_verified = true only where every release naming the set was checked
  // against the real thing, and the row says how.
  for (const auto& s : shipped_kb().library_sets()) {
    if (!s.must_load_verified) continue;
    for (const auto& r : shipped_kb().tf_releases()) {
      if (r.library_set != s.id) continue;
      bool derived = std::any_of(s.derivations.begin(), s.derivations.end(),
                                 [&](const LibrarySetDerivation& d) { return d.tf == r.version; });
      EXPECT_TRUE(derived) << s.id << " is verified but has no derivation for TF " << r.version.str();
    }
  }
}

TEST(Kb, EveryDerivationNamesAReleaseOfItsSetAMethodAndHow) {
  const std::set<std::string> methods = {"wheel", "run", "source"};
  size_t n = 0;
  for (const auto& s : shipped_kb().library_sets()) {
    for (const auto& d : s.derivations) {
      ++n;
      auto r = shipped_kb().find_tf(d.tf.str());
      ASSERT_TRUE(r.has_value()) << s.id << ": TF " << d.tf.str();
      EXPECT_EQ(r->release->version, d.tf) << s.id << ": derivation for a release the KB does not list";
      EXPECT_EQ(r->release->library_set, s.id) << s.id << ": TF " << d.tf.str() << " names another set";
      EXPECT_TRUE(methods.contains(d.method)) << s.id << " " << d.tf.str() << ": method " << d.method;
      EXPECT_FALSE(d.how.empty()) << s.id << " " << d.tf.str();
    }
  }
  EXPECT_GE(n, 18u);  // 2.1-2.21 on Linux: one per release
}

TEST(Kb, PlatformInitStartsWithTheDriverAndIsNamedOnEveryPlatform) {
  for (const auto& s : shipped_kb().library_sets()) {
    ASSERT_FALSE(s.platform_init.empty()) << s.id;
    EXPECT_EQ(s.platform_init.front(), "driver") << s.id;
    for (const auto& c : s.platform_init) {
      EXPECT_EQ(std::count(s.must_load.begin(), s.must_load.end(), c), 0) << s.id << ": " << c << " is in both";
      for (const auto& [p, names] : s.names)
        EXPECT_TRUE(std::any_of(names.begin(), names.end(), [&](const LibraryName& n) { return n.component == c; }))
            << s.id << " " << platform_name(p) << ": " << c;
    }
  }
}

TEST(Kb, TfLibraryNamesAreShippedByTheTfCuda) {
  // What TF asks the loader for must be a file its own CUDA release ships.
  for (const auto& r : shipped_kb().tf_releases()) {
    const CudaRelease* c = shipped_kb().find_cuda(r.cuda);
    ASSERT_NE(c, nullptr);
    for (Platform p : r.gpu_platforms) {
      for (const auto& l : shipped_kb().tf_libraries(r, p).libraries) {
        if (l.platform_init || l.component == "cudnn") continue;
        auto shipped = c->library(p, l.component);
        if (!shipped) continue;  // toolkit names not sourced for this release
        EXPECT_EQ(*shipped, l.file) << "TF " << r.version.str() << " " << platform_name(p) << " " << l.component;
      }
    }
  }
}

TEST(Kb, LinuxLibraryNamesAreVersionedSonames) {
  const std::regex soname(R"(^lib[A-Za-z_-]+\.so\.\d+(\.\d+)?$)");
  auto check = [&](const std::string& file, const std::string& where) {
    EXPECT_TRUE(std::regex_match(file, soname)) << where << ": " << file;
  };
  for (const auto& s : shipped_kb().library_sets())
    if (s.names.contains(Platform::kLinux))
      for (const auto& n : s.names.at(Platform::kLinux)) check(n.file, s.id);
  for (const auto& c : shipped_kb().cuda_releases())
    if (c.libraries.contains(Platform::kLinux))
      for (const auto& n : c.libraries.at(Platform::kLinux)) check(n.file, "cuda " + c.version.str());
  for (const auto& m : shipped_kb().cudnn_majors())
    for (const auto& f : m.libraries.at(Platform::kLinux)) check(f, "cudnn major");
}

TEST(Kb, WindowsLibraryNamesFollowTheDllRule) {
  // <name>64_<N>.dll (nvrtc64_112_0.dll), nvJitLink_<N>_0.dll, and the driver nvcuda.dll.
  const std::regex dll(R"(^([A-Za-z_]+64_\d+(_\d+)?|nvJitLink_\d+_0|nvcuda)\.dll$)");
  auto check = [&](const std::string& file, const std::string& where) {
    EXPECT_TRUE(std::regex_match(file, dll)) << where << ": " << file;
  };
  for (const auto& s : shipped_kb().library_sets())
    if (s.names.contains(Platform::kWindows))
      for (const auto& n : s.names.at(Platform::kWindows)) check(n.file, s.id);
  for (const auto& c : shipped_kb().cuda_releases())
    if (c.libraries.contains(Platform::kWindows))
      for (const auto& n : c.libraries.at(Platform::kWindows)) check(n.file, "cuda " + c.version.str());
  for (const auto& m : shipped_kb().cudnn_majors())
    for (const auto& f : m.libraries.at(Platform::kWindows)) check(f, "cudnn major");
}

TEST(Kb, CudaReleasesAreSortedUniqueMajorMinor) {
  auto rel = shipped_kb().cuda_releases();
  for (size_t i = 0; i < rel.size(); ++i) {
    EXPECT_EQ(rel[i].version.size(), 2u) << rel[i].version.str();
    if (i) EXPECT_LT(rel[i - 1].version, rel[i].version);
  }
  EXPECT_EQ(rel.front().version.str(), "8.0");
  EXPECT_EQ(rel.back().version.major(), 13);
}

TEST(Kb, CudaToolkitDriversNeverGoDown) {
  auto rel = shipped_kb().cuda_releases();
  for (size_t i = 1; i < rel.size(); ++i) {
    EXPECT_LE(rel[i - 1].driver_linux, rel[i].driver_linux) << rel[i].version.str();
    if (rel[i - 1].driver_windows && rel[i].driver_windows)
      EXPECT_LE(*rel[i - 1].driver_windows, *rel[i].driver_windows) << rel[i].version.str();
    for (const auto& u : rel[i].updates)  // an RC (11.0.1) precedes its GA; updates follow it
      if (contains(u.label, "Update")) EXPECT_LE(rel[i].driver_linux, u.driver_linux) << u.label;
  }
}

TEST(Kb, CudaArchitectureRangesAreOrdered) {
  auto rel = shipped_kb().cuda_releases();
  for (size_t i = 0; i < rel.size(); ++i) {
    EXPECT_LE(rel[i].sass_min, rel[i].sass_max) << rel[i].version.str();
    if (i) EXPECT_LE(rel[i - 1].sass_min, rel[i].sass_min) << rel[i].version.str();
    for (const auto& d : rel[i].dropped) EXPECT_LT(d, rel[i].sass_min) << rel[i].version.str();
  }
}

TEST(Kb, EveryCudaMajorHasADriverFamily) {
  for (const auto& c : shipped_kb().cuda_releases()) {
    const CudaFamily* f = shipped_kb().cuda_family(c.version.major());
    ASSERT_NE(f, nullptr) << c.version.str();
    if (f->minor_version_compat) EXPECT_TRUE(f->driver_linux && f->driver_windows) << f->major;
    // Running a toolkit never needs more than the driver bundled with it.
    for (Platform p : {Platform::kLinux, Platform::kWindows}) {
      auto compat = shipped_kb().min_driver(c.version, p, DriverPolicy::kMinorVersionCompat);
      auto exact = shipped_kb().min_driver(c.version, p, DriverPolicy::kToolkitExact);
      ASSERT_TRUE(compat && exact) << c.version.str();
      EXPECT_LE(compat->min_driver, exact->min_driver) << c.version.str() << " " << platform_name(p);
    }
  }
}

TEST(Kb, CudnnReleasesAreSortedAndTheirCudaRangesDoNotOverlap) {
  auto rel = shipped_kb().cudnn_releases();
  for (size_t i = 0; i < rel.size(); ++i) {
    if (i) EXPECT_LT(rel[i - 1].version, rel[i].version);
    EXPECT_NE(shipped_kb().cudnn_major(rel[i].version.major()), nullptr) << rel[i].version.str();
    ASSERT_FALSE(rel[i].cuda.empty()) << rel[i].version.str();
    for (size_t a = 0; a < rel[i].cuda.size(); ++a)
      for (size_t b = a + 1; b < rel[i].cuda.size(); ++b) {
        const auto& x = rel[i].cuda[a];
        const auto& y = rel[i].cuda[b];
        bool overlap = x.contains(*y.lo()) || x.contains(*y.hi()) || y.contains(*x.lo()) || y.contains(*x.hi());
        EXPECT_FALSE(overlap) << rel[i].version.str() << ": " << x.str() << " / " << y.str();
      }
    for (const auto& r : rel[i].cuda) {
      EXPECT_NE(shipped_kb().find_cuda(*r.lo()), nullptr) << rel[i].version.str() << " " << r.str();
      EXPECT_NE(shipped_kb().find_cuda(*r.hi()), nullptr) << rel[i].version.str() << " " << r.str();
    }
  }
}

TEST(Kb, GpuPciIdsAreUniqueAndLowerCase) {
  std::set<std::pair<uint16_t, uint16_t>> seen;
  for (const auto& g : shipped_kb().gpus()) {
    EXPECT_TRUE(seen.insert({g.vendor, g.device}).second) << g.pci_id;
    EXPECT_EQ(g.pci_id, to_lower(g.pci_id));
    EXPECT_EQ(g.vendor, 0x10de) << g.pci_id;
  }
}

TEST(Kb, EveryGpuHasAnArchitecture) {
  for (const auto& g : shipped_kb().gpus()) EXPECT_FALSE(shipped_kb().architecture_name(g.cc).empty()) << g.pci_id;
}

TEST(Kb, ArchitectureRangesDoNotOverlap) {
  auto a = shipped_kb().architectures();
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = i + 1; j < a.size(); ++j)
      EXPECT_FALSE(a[i].cc.contains(*a[j].cc.lo()) || a[j].cc.contains(*a[i].cc.lo())) << a[i].name << " / " << a[j].name;
}

TEST(Kb, TfCompiledArchitecturesParse) {
  for (const auto& r : shipped_kb().tf_releases())
    for (const auto& c : r.compute_capabilities) {
      EXPECT_TRUE(starts_with(c, "sm_") || starts_with(c, "compute_")) << r.version.str() << " " << c;
      EXPECT_TRUE(ComputeCapability::parse(c).has_value()) << c;
    }
}

TEST(Kb, PackageAndNoteRangesNameKnownReleases) {
  auto known = [](const Version& v) { return shipped_kb().find_tf(v) != nullptr; };
  for (const auto& p : shipped_kb().packages()) {
    ASSERT_TRUE(p.tf.lo() && p.tf.hi()) << p.name;
    EXPECT_TRUE(known(*p.tf.lo()) && known(*p.tf.hi())) << p.name << " " << p.tf.str();
    EXPECT_TRUE(p.role == "gpu" || p.role == "cpu" || p.role == "alias" || p.role == "installer" || p.role == "removed")
        << p.role;
  }
  for (const auto& n : shipped_kb().platform_notes()) EXPECT_TRUE(known(*n.tf.lo()) && known(*n.tf.hi())) << n.tf.str();
  for (const auto& a : shipped_kb().and_cuda()) EXPECT_TRUE(known(*a.tf.lo()) && known(*a.tf.hi())) << a.tf.str();
}

TEST(Kb, PackageRangesDoNotOverlapForTheSameNameAndPlatform) {
  auto pk = shipped_kb().packages();
  for (size_t i = 0; i < pk.size(); ++i)
    for (size_t j = i + 1; j < pk.size(); ++j) {
      if (pk[i].name != pk[j].name) continue;
      for (Platform p : pk[i].platforms) {
        if (std::find(pk[j].platforms.begin(), pk[j].platforms.end(), p) == pk[j].platforms.end()) continue;
        bool overlap = pk[i].tf.contains(*pk[j].tf.lo()) || pk[j].tf.contains(*pk[i].tf.lo());
        EXPECT_FALSE(overlap) << pk[i].name << " " << pk[i].tf.str() << " / " << pk[j].tf.str();
      }
    }
}

TEST(Kb, PlatformNotesCoverEveryTfWithoutAGpuBuild) {
  for (const auto& r : shipped_kb().tf_releases())
    for (Platform p : {Platform::kWindows, Platform::kMacos})
      if (!r.has_gpu_build(p))
        EXPECT_NE(shipped_kb().platform_note(r, p), nullptr) << r.version.str() << " " << platform_name(p);
}

TEST(Kb, YankedReleasesPointToARow) {
  for (const auto& y : shipped_kb().yanked()) {
    const TfRelease* r = shipped_kb().find_tf(y.use);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->version, y.use);
  }
}

TEST(Kb, PythonListsAreAscendingAndUnique) {
  for (const auto& r : shipped_kb().tf_releases())
    for (const auto& [p, list] : r.python)
      for (size_t i = 1; i < list.size(); ++i) EXPECT_LT(list[i - 1], list[i]) << r.version.str();
}

TEST(Kb, MalformedTomlIsAnInputErrorNamingTheFile) {
  EmbeddedFile bad[] = {{"tensorflow.toml", "[[release]]\nversion = \"2.x\"\n"}};
  auto kb = load_texts(bad);
  ASSERT_FALSE(kb);
  EXPECT_EQ(kb.error().kind, ErrorKind::kInput);
  EXPECT_NE(kb.error().message.find("tensorflow.toml"), std::string::npos) << kb.error().message;
  EmbeddedFile syntax[] = {{"cuda.toml", "[[release]\n"}};
  EXPECT_FALSE(load_texts(syntax));
}

TEST(Kb, UnknownWindowsMissingDllBehaviourIsRejected) {
  EmbeddedFile files[] = {{"tensorflow.toml",
                           "[[release]]\nversion = \"1.2.0\"\ncuda = \"8.0\"\ncudnn = \"5.1\"\n"
                           "gpu_platforms = [\"windows\"]\nlibrary_set = \"x\"\nsource = [\"s\"]\n"
                           "import_source = [\"s\"]\nwindows_missing_cuda_dll = \"crashes\"\n"}};
  auto kb = load_texts(files);
  ASSERT_FALSE(kb);
  EXPECT_NE(kb.error().message.find("windows_missing_cuda_dll"), std::string::npos) << kb.error().message;
}

TEST(Kb, RowWithoutSourceIsRejected) {
  EmbeddedFile files[] = {{"tensorflow.toml",
                           "[[release]]\nversion = \"2.10.0\"\ncuda = \"11.2\"\ncudnn = \"8.1\"\n"
                           "gpu_platforms = [\"linux\"]\nlibrary_set = \"x\"\n"}};
  auto kb = load_texts(files);
  ASSERT_FALSE(kb);
  EXPECT_NE(kb.error().message.find("source"), std::string::npos) << kb.error().message;
}

// ---- facts: the blog table's wrong cells (tensorflow.md 1e) ----------------------

TEST(KbFacts, Tf212And213UseCudnn86NotTheBlogs87) {
  EXPECT_EQ(tf("2.12").cudnn.str(), "8.6");
  EXPECT_EQ(tf("2.13").cudnn.str(), "8.6");
  EXPECT_EQ(tf("2.14").cudnn.str(), "8.7");
}

TEST(KbFacts, Tf215IsCuda122Cudnn89Python39To311) {
  EXPECT_EQ(tf("2.15").cuda.str(), "12.2");
  EXPECT_EQ(tf("2.15").cudnn.str(), "8.9");
  EXPECT_EQ(py("2.15", Platform::kLinux), "3.9-3.11");
}

TEST(KbFacts, PythonDroppedAndAddedWhereTheDocsSay) {
  EXPECT_EQ(py("2.14", Platform::kLinux), "3.9-3.11");  // no 3.8 from 2.14 (blog: 3.8-3.11)
  EXPECT_EQ(py("2.13", Platform::kLinux), "3.8-3.11");
  EXPECT_EQ(py("2.10", Platform::kLinux), "3.7-3.10");  // no 3.11 before 2.12 (blog: 3.7-3.11)
  EXPECT_EQ(py("2.11", Platform::kLinux), "3.7-3.10");
  EXPECT_EQ(py("2.7", Platform::kLinux), "3.7-3.9");    // blog: 3.6-3.9
  EXPECT_EQ(py("2.8", Platform::kLinux), "3.7-3.10");
  EXPECT_EQ(py("2.9", Platform::kLinux), "3.7-3.10");
  EXPECT_EQ(py("2.5", Platform::kLinux), "3.6-3.9");
  EXPECT_EQ(py("2.16", Platform::kLinux), "3.9-3.12");
  EXPECT_EQ(py("2.20", Platform::kLinux), "3.9-3.13");
  EXPECT_EQ(py("2.21", Platform::kLinux), "3.10-3.13");
  EXPECT_EQ(py("2.1", Platform::kLinux), "2.7, 3.5-3.7");
}

TEST(KbFacts, NativeWindowsGpuEndsAt210) {
  EXPECT_TRUE(tf("2.10").has_gpu_build(Platform::kWindows));
  for (auto v : {"2.11", "2.12", "2.13", "2.14", "2.15", "2.21"}) {
    EXPECT_FALSE(tf(v).has_gpu_build(Platform::kWindows)) << v;
    EXPECT_TRUE(tf(v).has_gpu_build(Platform::kLinux)) << v;
  }
  EXPECT_FALSE(tf("2.10").has_gpu_build(Platform::kMacos));
  EXPECT_EQ(py("2.10", Platform::kWindows), "3.7-3.10");
}

TEST(KbFacts, Tf216To221UseCuda123Then125) {
  EXPECT_EQ(tf("2.16").cuda.str(), "12.3");
  EXPECT_EQ(tf("2.17").cudnn.str(), "8.9");
  EXPECT_EQ(tf("2.18").cuda.str(), "12.5");
  EXPECT_EQ(tf("2.21").cudnn.str(), "9.3");
  EXPECT_EQ(tf("2.4").cuda.str(), "11.0");
  EXPECT_EQ(tf("1.13").cudnn.str(), "7.4");
}

TEST(KbFacts, Tf2160IsYankedAndMapsTo2161) {
  auto r = shipped_kb().find_tf("2.16.0");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->release->version.str(), "2.16.1");
  EXPECT_NE(r->note.find("yanked"), std::string::npos);
  EXPECT_EQ(shipped_kb().find_tf("2.16")->release->version.str(), "2.16.1");
  EXPECT_EQ(shipped_kb().find_tf("2.10.1")->release->version.str(), "2.10.0");
}

TEST(KbFacts, UnknownTfSuggestsTheNearestReleases) {
  auto r = shipped_kb().find_tf("2.22");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(r.error().message.find("did you mean 2.21, 2.20?"), std::string::npos) << r.error().message;
  auto bad = shipped_kb().find_tf("two");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kInput);
}

// ---- facts: library names (tensorflow.md 3) ----------------------------------------

TEST(KbFacts, WindowsCuda11LoadsCudart110NotBuildInfos112) {
  EXPECT_EQ(tf_lib("2.10", Platform::kWindows, "cudart"), "cudart64_110.dll");
  EXPECT_EQ(tf_lib("2.5", Platform::kWindows, "cudnn"), "cudnn64_8.dll");
  EXPECT_EQ(tf_lib("2.10", Platform::kWindows, "driver"), "nvcuda.dll");
  EXPECT_EQ(tf_lib("2.10", Platform::kLinux, "cudart"), "libcudart.so.11.0");
}

TEST(KbFacts, Tf24WantsCusolver10) {
  EXPECT_EQ(tf_lib("2.4", Platform::kWindows, "cusolver"), "cusolver64_10.dll");
  EXPECT_EQ(tf_lib("2.4", Platform::kLinux, "cusolver"), "libcusolver.so.10");
  EXPECT_EQ(tf_lib("2.5", Platform::kLinux, "cusolver"), "libcusolver.so.11");
  EXPECT_EQ(*shipped_kb().find_cuda(V("11.1"))->library(Platform::kWindows, "cusolver"), "cusolver64_11.dll");
}

TEST(KbFacts, OldCudaNamesUseMajorMinor) {
  EXPECT_EQ(tf_lib("1.13", Platform::kWindows, "cudart"), "cudart64_100.dll");
  EXPECT_EQ(tf_lib("2.0", Platform::kLinux, "cublas"), "libcublas.so.10.0");
  EXPECT_EQ(tf_lib("2.3", Platform::kLinux, "cublas"), "libcublas.so.10");
  EXPECT_EQ(tf_lib("2.3", Platform::kLinux, "cudart"), "libcudart.so.10.1");
}

TEST(KbFacts, CurandLeftTheGateWith214) {
  // TryDlopenCUDALibraries() of the 2.13.0 wheel calls GetCurandDsoHandle; 2.14.0's and
  // every later one's do not, and those libraries have no curand loader at all.
  EXPECT_TRUE(tf_must_load("2.13", Platform::kLinux, "curand"));
  EXPECT_EQ(tf_lib("2.13", Platform::kLinux, "curand"), "libcurand.so.10");
  for (auto v : {"2.14", "2.16.1", "2.17", "2.18", "2.21"}) {
    EXPECT_FALSE(tf_must_load(v, Platform::kLinux, "curand")) << v;
    EXPECT_EQ(tf_lib(v, Platform::kLinux, "curand"), "") << v;
    EXPECT_TRUE(tf_must_load(v, Platform::kLinux, "cublasLt")) << v;
  }
  EXPECT_EQ(tf_lib("2.14", Platform::kLinux, "cudart"), "libcudart.so.11.0");
  EXPECT_EQ(tf_lib("2.16.1", Platform::kLinux, "cudnn"), "libcudnn.so.8");
}

TEST(KbFacts, Tf221InitialisesNvmlWithTheCudaPlatform) {
  // PlatformInitialize() of the 2.21.0 wheel calls cuInit then nvmlInit_v2; 2.20.0's
  // calls cuInit only (a real run without libnvidia-ml.so.1 goes on to load cudart).
  bool nvml_init = false, nvml_must = true;
  for (const auto& l : shipped_kb().tf_libraries(tf("2.21"), Platform::kLinux).libraries)
    if (l.component == "nvml") {
      EXPECT_EQ(l.file, "libnvidia-ml.so.1");
      nvml_init = l.platform_init;
      nvml_must = l.must_load;
    }
  EXPECT_TRUE(nvml_init);
  EXPECT_FALSE(nvml_must);  // not part of the must-load gate: its failure comes earlier
  EXPECT_EQ(tf_lib("2.20", Platform::kLinux, "nvml"), "");
  EXPECT_EQ(tf_lib("2.16.1", Platform::kLinux, "nvml"), "");
  for (const auto& l : shipped_kb().tf_libraries(tf("2.20"), Platform::kLinux).libraries)
    EXPECT_EQ(l.platform_init, l.component == "driver") << l.component;
}

TEST(KbFacts, NewestTfNoLongerGatesOnCurand) {
  EXPECT_FALSE(tf_must_load("2.17", Platform::kLinux, "curand"));
  EXPECT_FALSE(tf_must_load("2.18", Platform::kLinux, "curand"));
  EXPECT_TRUE(tf_must_load("2.18", Platform::kLinux, "cublasLt"));
  EXPECT_FALSE(tf_must_load("2.18", Platform::kLinux, "driver"));
  EXPECT_EQ(tf_lib("2.18", Platform::kLinux, "cudnn"), "libcudnn.so.9");
  EXPECT_EQ(tf_lib("2.15", Platform::kLinux, "cufft"), "libcufft.so.11");
}

TEST(KbFacts, CpuOnlyPlatformHasNoLibrariesButANote) {
  auto libs = shipped_kb().tf_libraries(tf("2.12"), Platform::kWindows);
  EXPECT_FALSE(libs.gpu_build);
  EXPECT_TRUE(libs.libraries.empty());
  ASSERT_FALSE(libs.notes.empty());
  EXPECT_NE(libs.notes.front().find("CPU-only"), std::string::npos);
}

TEST(KbFacts, CudaToolkitLibraryNames) {
  const auto* c12 = shipped_kb().find_cuda(V("12.4"));
  EXPECT_EQ(*c12->library(Platform::kWindows, "cudart"), "cudart64_12.dll");
  EXPECT_EQ(*c12->library(Platform::kLinux, "nvJitLink"), "libnvJitLink.so.12");
  EXPECT_EQ(*shipped_kb().find_cuda(V("11.8"))->library(Platform::kWindows, "nvrtc"), "nvrtc64_112_0.dll");
  EXPECT_EQ(*shipped_kb().find_cuda(V("13.0"))->library(Platform::kLinux, "cusparse"), "libcusparse.so.12");
  EXPECT_EQ(*shipped_kb().find_cuda(V("13.1"))->library(Platform::kLinux, "curand"), "libcurand.so.10");
}

TEST(KbFacts, AndCudaExtraOf214PinsCuda11Wheels) {
  const AndCudaPins* a = shipped_kb().and_cuda_for(tf("2.14"));
  ASSERT_NE(a, nullptr);
  EXPECT_NE(std::find(a->wheels.begin(), a->wheels.end(), "nvidia-cudnn-cu11==8.7.0.84"), a->wheels.end());
  EXPECT_EQ(shipped_kb().and_cuda_for(tf("2.13")), nullptr);
}

TEST(KbFacts, TensorflowGpuIsARemovedStubAt212) {
  auto pk = shipped_kb().packages_for(tf("2.12"), Platform::kLinux);
  bool removed = std::any_of(pk.begin(), pk.end(), [](const TfPackage* p) {
    return p->name == "tensorflow-gpu" && p->role == "removed";
  });
  EXPECT_TRUE(removed);
  auto win = shipped_kb().packages_for(tf("2.11"), Platform::kWindows);
  bool installer = std::any_of(win.begin(), win.end(), [](const TfPackage* p) {
    return p->name == "tensorflow" && p->role == "installer";
  });
  EXPECT_TRUE(installer);
}

// ---- facts: drivers (nvidia.md 1) -----------------------------------------------------

TEST(KbFacts, Cuda112NeedsFamilyOrToolkitDriver) {
  auto compat = shipped_kb().min_driver(V("11.2"), Platform::kWindows, DriverPolicy::kMinorVersionCompat);
  ASSERT_TRUE(compat);
  EXPECT_EQ(compat->min_driver.str(), "452.39");
  auto exact = shipped_kb().min_driver(V("11.2"), Platform::kWindows, DriverPolicy::kToolkitExact);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->min_driver.str(), "460.82");
  EXPECT_EQ(driver_version_str(
                shipped_kb().min_driver(V("11.8"), Platform::kLinux, DriverPolicy::kMinorVersionCompat)->min_driver),
            "450.80.02");
  EXPECT_EQ(shipped_kb().min_driver(V("12.3"), Platform::kLinux, DriverPolicy::kMinorVersionCompat)->min_driver,
            V("525.60.13"));
}

TEST(KbFacts, Cuda110KeepsItsOwnOlderDriverBelowTheFamilyMinimum) {
  // CUDA 11.0 shipped with 450.51.05; 450.80.02 is what the whole 11.x family needs.
  auto d = shipped_kb().min_driver(V("11.0"), Platform::kLinux, DriverPolicy::kMinorVersionCompat);
  ASSERT_TRUE(d);
  EXPECT_EQ(driver_version_str(d->min_driver), "450.51.05");
  EXPECT_EQ(driver_version_str(
                shipped_kb().min_driver(V("11.1"), Platform::kLinux, DriverPolicy::kMinorVersionCompat)->min_driver),
            "450.80.02");
}

TEST(KbFacts, Cuda10HasNoMinorVersionCompatibility) {
  auto d = shipped_kb().min_driver(V("10.1"), Platform::kLinux, DriverPolicy::kMinorVersionCompat);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->min_driver, V("418.39"));
  EXPECT_EQ(d->policy, DriverPolicy::kToolkitExact);
}

TEST(KbFacts, Cuda13OnWindowsFallsBackToTheFamilyMinimum) {
  auto d = shipped_kb().min_driver(V("13.0"), Platform::kWindows, DriverPolicy::kToolkitExact);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->min_driver, V("580"));
  EXPECT_EQ(shipped_kb().min_driver(V("13.0"), Platform::kLinux, DriverPolicy::kToolkitExact)->min_driver,
            V("580.65.06"));
  EXPECT_FALSE(shipped_kb().min_driver(V("12.0"), Platform::kMacos, DriverPolicy::kToolkitExact));
}

TEST(KbFacts, Driver52206OnWindowsRunsUpToCuda118) {
  auto d = shipped_kb().newest_cuda_for_driver(V("522.06"), Platform::kWindows);
  ASSERT_TRUE(d.newest_cuda_toolkit_exact && d.newest_cuda_minor_compat);
  EXPECT_EQ(d.newest_cuda_toolkit_exact->str(), "11.8");
  EXPECT_EQ(d.newest_cuda_minor_compat->str(), "11.8");
  EXPECT_EQ(driver_version_str(*shipped_kb().find_cuda(V("11.8"))->driver_windows), "520.06");  // as printed (sic)
}

TEST(KbFacts, Driver45080RunsAll11xButOnlyCuda110Fully) {
  auto d = shipped_kb().newest_cuda_for_driver(V("450.80.02"), Platform::kLinux);
  EXPECT_EQ(d.newest_cuda_toolkit_exact->str(), "11.0");
  EXPECT_EQ(d.newest_cuda_minor_compat->str(), "11.8");
  auto d535 = shipped_kb().newest_cuda_for_driver(V("535.104.05"), Platform::kLinux);
  EXPECT_EQ(d535.newest_cuda_toolkit_exact->str(), "12.2");
  EXPECT_EQ(d535.newest_cuda_minor_compat->str(), "12.9");
}

TEST(KbFacts, CudaArchitectureDrops) {
  const auto* c12 = shipped_kb().find_cuda(V("12.0"));
  EXPECT_EQ(c12->sass_min.str(), "5.0");
  EXPECT_NE(std::find(c12->dropped.begin(), c12->dropped.end(), ComputeCapability{3, 7}), c12->dropped.end());
  EXPECT_EQ(shipped_kb().find_cuda(V("13.0"))->sass_min.str(), "7.5");
  EXPECT_EQ(shipped_kb().find_cuda(V("11.0"))->sass_min.str(), "3.5");
  EXPECT_EQ(shipped_kb().find_cuda(V("11.8"))->sass_max.str(), "9.0");
}

// ---- facts: cuDNN (nvidia.md 3) --------------------------------------------------------

TEST(KbFacts, CudnnVersionEncodingChangedIn9) {
  EXPECT_EQ(shipped_kb().decode_cudnn_version(8907)->str(), "8.9.7");
  EXPECT_EQ(shipped_kb().decode_cudnn_version(7605)->str(), "7.6.5");
  EXPECT_EQ(shipped_kb().decode_cudnn_version(90100)->str(), "9.1.0");
  EXPECT_EQ(shipped_kb().decode_cudnn_version(91001)->str(), "9.10.1");
  EXPECT_FALSE(shipped_kb().decode_cudnn_version(42));
  EXPECT_EQ(shipped_kb().cudnn_major(8)->header, "cudnn_version.h");
  EXPECT_EQ(shipped_kb().cudnn_major(7)->header, "cudnn.h");
}

TEST(KbFacts, CudnnWindowsZlibwapiFrom83NotIn9) {
  EXPECT_EQ(shipped_kb().find_cudnn(V("8.1"))->windows_zlibwapi, Tristate::kNo);
  EXPECT_EQ(shipped_kb().find_cudnn(V("8.3"))->windows_zlibwapi, Tristate::kYes);
  EXPECT_EQ(shipped_kb().find_cudnn(V("9.0"))->windows_zlibwapi, Tristate::kNo);
}

TEST(KbFacts, CudnnCudaSupport) {
  EXPECT_TRUE(shipped_kb().find_cudnn(V("8.1"))->supports_cuda(V("11.2")));
  EXPECT_FALSE(shipped_kb().find_cudnn(V("8.1"))->supports_cuda(V("11.8")));
  EXPECT_TRUE(shipped_kb().find_cudnn(V("7.6.5"))->supports_cuda(V("10.2")));
  EXPECT_FALSE(shipped_kb().find_cudnn(V("7.6.2"))->supports_cuda(V("10.2")));
  const auto* c917 = shipped_kb().find_cudnn(V("9.17"));
  EXPECT_FALSE(c917->supports_cuda(V("11.8")));
  EXPECT_EQ(c917->min_cc->str(), "7.5");
  EXPECT_EQ(shipped_kb().cudnn_major(9)->libraries.at(Platform::kWindows).front(), "cudnn64_9.dll");
}

// ---- facts: GPUs (nvidia.md 4 and 7) ---------------------------------------------------

TEST(KbFacts, GpuLookupByPciIdGivesNameAndCc) {
  auto g = shipped_kb().find_gpu_by_pci("10de:2504");
  ASSERT_TRUE(g);
  EXPECT_EQ((*g)->name, "GeForce RTX 3060 Lite Hash Rate");
  EXPECT_EQ((*g)->cc.str(), "8.6");
  EXPECT_EQ((*shipped_kb().find_gpu_by_pci("PCI\\VEN_10DE&DEV_2335&SUBSYS_18BE10DE"))->name, "H200 SXM 141GB");
  EXPECT_EQ((*shipped_kb().find_gpu_by_pci("0x102D"))->cc.str(), "3.7");  // K80
  EXPECT_FALSE(shipped_kb().find_gpu_by_pci("10de:zzzz"));
  EXPECT_EQ(shipped_kb().find_gpu_by_pci("10de:ffff").error().kind, ErrorKind::kNotFound);
}

TEST(KbFacts, GpuLookupByNameIgnoresVendorWords) {
  auto g = shipped_kb().find_gpus_by_name("NVIDIA GeForce RTX 3060");
  ASSERT_TRUE(g);
  std::vector<std::string> ids;
  for (const Gpu* x : *g) ids.push_back(x->pci_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"10de:2487", "10de:2503", "10de:2544"}));
  EXPECT_EQ(shipped_kb().find_gpus_by_name("rtx 4090")->front()->pci_id, "10de:2684");
  EXPECT_EQ(shipped_kb().find_gpus_by_name("rtx3060")->size(), 3u);
  EXPECT_EQ(shipped_kb().find_gpus_by_name("3060")->front()->name, "GeForce RTX 3060");
  EXPECT_EQ(shipped_kb().find_gpus_by_name("H100 SXM5 80GB")->front()->pci_id, "10de:2330");
  auto missing = shipped_kb().find_gpus_by_name("RTX 9999");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("did you mean"), std::string::npos);
}

TEST(KbFacts, GpuPeaksAndMemory) {
  const Gpu* h200 = shipped_kb().find_gpu(0x10de, 0x2335);
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(*h200->memory_gb, 141);
  EXPECT_EQ(*h200->peak->bandwidth_gbs, 4800);
  EXPECT_FALSE(h200->peak->prov.verified);  // compute figures taken from H100
  const Gpu* h100 = shipped_kb().find_gpu(0x10de, 0x2330);
  EXPECT_DOUBLE_EQ(*h100->peak->bf16_tflops, 989.4);
  EXPECT_DOUBLE_EQ(*h100->peak->tf32_tflops, 494.7);
  const Gpu* a100 = shipped_kb().find_gpu(0x10de, 0x20b0);
  EXPECT_DOUBLE_EQ(*a100->peak->fp16_tflops, 312);
  EXPECT_DOUBLE_EQ(*a100->peak->bandwidth_gbs, 1555);
  EXPECT_DOUBLE_EQ(*shipped_kb().find_gpu(0x10de, 0x2684)->peak->fp32_tflops, 82.6);
  EXPECT_EQ(shipped_kb().find_gpu(0x10de, 0x2182)->tensor_cores, false);  // GTX 1660 Ti
  EXPECT_EQ(shipped_kb().architecture_name({12, 0}), "Blackwell");
  EXPECT_EQ(shipped_kb().architecture_name({8, 9}), "Ada Lovelace");
}

TEST(KbFacts, Tf218IgnoresMaxwellAndJitsHopper) {
  const auto& kb = shipped_kb();
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {5, 2}).support, CcSupport::kIgnored);  // GTX 980
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {5, 2}).min_required->str(), "6.0");
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {9, 0}).support, CcSupport::kPtxJit);  // H100: compute_90 only
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {12, 0}).support, CcSupport::kPtxJit);  // RTX 50xx
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {8, 9}).support, CcSupport::kNative);   // sm_89
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {8, 6}).support, CcSupport::kNative);   // sm_80 runs on 8.6
  EXPECT_EQ(kb.tf_cc_support(tf("2.18"), {7, 5}).support, CcSupport::kNative);   // sm_70 runs on 7.5
}

TEST(KbFacts, Tf28HasSm35ToCompute80) {
  const auto& kb = shipped_kb();
  EXPECT_EQ(kb.tf_cc_support(tf("2.8"), {8, 6}).support, CcSupport::kPtxJit);  // RTX 30xx: JIT from compute_80
  EXPECT_EQ(kb.tf_cc_support(tf("2.8"), {3, 7}).support, CcSupport::kNative);  // K80 on sm_35
  EXPECT_EQ(kb.tf_cc_support(tf("2.8"), {3, 0}).support, CcSupport::kIgnored);
  EXPECT_TRUE(tf("2.8").cc_prov.verified);
  // 2.11-2.17 from the wheels' build_info.py (kb/derivations/wheel_facts.json).
  EXPECT_EQ(kb.tf_cc_support(tf("2.15"), {8, 6}).support, CcSupport::kPtxJit);
  EXPECT_EQ(kb.tf_cc_support(tf("2.16"), {8, 6}).support, CcSupport::kNative);  // sm_80 runs on 8.6
  EXPECT_EQ(kb.tf_cc_support(tf("2.16"), {5, 2}).support, CcSupport::kNative);  // GTX 960 on sm_50
  EXPECT_EQ(kb.tf_cc_support(tf("2.17"), {5, 2}).support, CcSupport::kIgnored);
  EXPECT_TRUE(tf("2.16").cc_prov.verified);
}

TEST(KbFacts, ComputeCapabilityParsesEveryNvccSpelling) {
  EXPECT_EQ(ComputeCapability::parse("sm_86")->str(), "8.6");
  EXPECT_EQ(ComputeCapability::parse("compute_90")->str(), "9.0");
  EXPECT_EQ(ComputeCapability::parse("sm_120")->str(), "12.0");
  EXPECT_EQ(ComputeCapability::parse("86")->str(), "8.6");
  EXPECT_EQ(ComputeCapability::parse("10.0")->str(), "10.0");
  EXPECT_FALSE(ComputeCapability::parse("sm_x"));
  EXPECT_FALSE(ComputeCapability::parse("8.6.1"));
}

TEST(KbFacts, CitationsResolveSourceIdsToUrls) {
  Citation c = shipped_kb().cite(tf("2.10"));
  ASSERT_FALSE(c.sources.empty());
  EXPECT_EQ(c.sources.front().find("https://www.tensorflow.org/install/source#gpu"), 0u);
  EXPECT_NE(c.sources.front().find("@7c3650212740204359d4ceae481abc79345541be"), std::string::npos);
  EXPECT_TRUE(c.verified);
  EXPECT_FALSE(shipped_kb().cite(*shipped_kb().find_cudnn(V("8.6"))).verified);
}

// The plain `tensorflow` package was the CPU-only build up to 2.0 (tensorflow-gpu was the
// CUDA build); from 2.1 it carries CUDA itself on Linux. Explain reads this from the
// A toolkit ships a file when one of its libraries on that platform is that file: every
// CUDA 12 ships libcusolver.so.11 on Linux (cuSOLVER keeps major 11), CUDA 11.0 ships .so.10.
TEST(Kb, ACudaReleaseShipsTheFilesOfItsLibraries) {
  const auto& kb = shipped_kb();
  const CudaRelease* c120 = kb.find_cuda(*Version::parse("12.0"));
  const CudaRelease* c110 = kb.find_cuda(*Version::parse("11.0"));
  ASSERT_NE(c120, nullptr);
  ASSERT_NE(c110, nullptr);
  EXPECT_TRUE(c120->ships(Platform::kLinux, "libcusolver.so.11"));
  EXPECT_TRUE(c120->ships(Platform::kLinux, "LIBCUSOLVER.SO.11"));
  EXPECT_FALSE(c120->ships(Platform::kWindows, "libcusolver.so.11"));
  EXPECT_FALSE(c110->ships(Platform::kLinux, "libcusolver.so.11"));
  EXPECT_TRUE(c110->ships(Platform::kLinux, "libcusolver.so.10"));
}

// [[package]] rows instead of a version written into the code.
TEST(Kb, PlainTensorflowIsCpuOnlyUpToTwoZero) {
  const auto& kb = shipped_kb();
  for (const auto& r : kb.tf_releases()) {
    const bool before_unified = r.version < *Version::parse("2.1");
    EXPECT_EQ(kb.plain_tensorflow_cpu_only(r), before_unified) << r.version.str();
  }
  ASSERT_NE(kb.gpu_package(tf("1.15"), Platform::kLinux), nullptr);
  EXPECT_EQ(kb.gpu_package(tf("1.15"), Platform::kLinux)->name, "tensorflow-gpu");
}

// The [[tensorrt]] rows say what the derivation files record: which TensorRT files each
// release opened when real TF started (kb/derivations/tensorrt_at_import.txt) and that they
// are the names its wheel's loaders pass (kb/derivations/tensorrt.txt).
std::vector<std::vector<std::string>> derivation_rows(const std::string& file) {
  std::ifstream in(std::string(TFGPU_SOURCE_DIR) + "/kb/derivations/" + file);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    for (const auto& c : split(line, '|')) cells.push_back(std::string(trim(c)));
    rows.push_back(std::move(cells));
  }
  return rows;
}

std::vector<std::string> optional_files(std::string_view version) {
  std::vector<std::string> out;
  for (const auto& l : shipped_kb().tf_libraries(tf(version), Platform::kLinux).optional) out.push_back(l.file);
  return out;
}

TEST(KbFacts, TensorrtRowsAreWhatRealTensorflowOpened) {
  auto rows = derivation_rows("tensorrt_at_import.txt");
  ASSERT_GE(rows.size(), 18u);
  for (const auto& r : rows) {
    ASSERT_EQ(r.size(), 4u);
    const std::string tried = r[2].substr(std::string("tried: ").size());
    std::vector<std::string> want = tried == "-" ? std::vector<std::string>{} : split(tried, ' ');
    EXPECT_EQ(optional_files(r[0]), want) << r[0];
    if (!want.empty()) EXPECT_EQ(shipped_kb().tf_libraries(tf(r[0]), Platform::kLinux).optional_warning, r[3]) << r[0];
  }
  EXPECT_TRUE(optional_files("2.21").empty());  // real tier: TF 2.21 opens no TensorRT
  EXPECT_TRUE(shipped_kb().tf_libraries(tf("2.10"), Platform::kWindows).optional.empty());
}

TEST(KbFacts, TensorrtFilesAreTheNamesTheWheelsLoadersPass) {
  int checked = 0;
  for (const auto& r : derivation_rows("tensorrt.txt")) {
    ASSERT_EQ(r.size(), 5u);
    auto lookup = shipped_kb().find_tf(r[0]);
    if (!lookup) continue;
    auto files = optional_files(r[0]);
    if (files.empty()) continue;
    // build_info has the key from 2.5 on; 2.1's says nothing (None) and opened it all the same.
    EXPECT_NE(r[2], "is_tensorrt_build: False") << r[0];
    EXPECT_EQ((std::vector<std::string>{r[3], r[4]}), files) << r[0];
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

}  // namespace
}  // namespace tfgpu::kb
