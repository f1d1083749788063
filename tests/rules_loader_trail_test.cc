// The doctor's runtime findings come from the loader model (src/loader), and the
// loader's trail (every place tried, in order, and why it was passed over) reaches the
// evidence in text, JSON and Markdown.
#include <gtest/gtest.h>

#include <algorithm>

#include "report/doctor_report.h"
#include "report/trail_render.h"
#include "rules/rule_support.h"
#include "rules/runtime_loads.h"
#include "support/doctor_scenarios.h"
#include "util/strings.h"

namespace tfgpu {
namespace {

using testing::load_scenario;
using testing::test_kb;

bool contains(std::string_view haystack, std::string_view needle) { return haystack.find(needle) != std::string_view::npos; }

const Finding* find_id(const DoctorReport& r, std::string_view id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

const Evidence* with_trail(const Finding& f) {
  for (const auto& e : f.evidence)
    if (!e.trail.empty()) return &e;
  return nullptr;
}

LibraryFile elf_file(const std::string& path, const std::string& component, const std::string& version) {
  LibraryFile f;
  f.path = path;
  f.name = path.substr(path.rfind('/') + 1);
  f.component = component;
  f.version = version;
  f.format = "elf";
  f.elf.bits = 64;
  f.elf.machine = "x86-64";
  f.elf.soname = f.name;
  return f;
}

// TF 2.15 from pip [and-cuda] (cuDNN 8.9 wheels found through TF's RUNPATH), but
// LD_LIBRARY_PATH names a CUDA 11.8 folder with cuDNN 8.6 first: ld.so searches
// LD_LIBRARY_PATH before DT_RUNPATH, so the old copy wins.
Snapshot cuda11_on_ld_library_path() {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.8/lib64:/usr/local/lib";
  s.libraries.push_back(elf_file("/usr/local/cuda-11.8/lib64/libcudnn.so.8", "cudnn", "8.6.0"));
  s.libraries.push_back(elf_file("/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "cudart", "11.8.89"));
  return s;
}

TEST(RulesLoaderTrail, OldCudartEarlierOnWindowsPathIsNamedWithItsPathPosition) {
  Snapshot s = load_scenario("win_old_cudart_first_on_path");
  DoctorReport r = diagnose(s, test_kb());
  const Finding* f = find_id(r, "cuda_version_mismatch");
  ASSERT_NE(f, nullptr);
  const Evidence* e = with_trail(*f);
  ASSERT_NE(e, nullptr) << "no loader trail in the evidence";
  EXPECT_TRUE(contains(e->fact, "v11.0\\bin\\cudart64_110.dll")) << e->fact;
  EXPECT_TRUE(contains(e->fact, "PATH #1")) << e->fact;
  const TrailStep& last = e->trail.back();
  EXPECT_EQ(last.why, "chosen");
  EXPECT_EQ(last.source, "PATH");
  EXPECT_EQ(last.position, 1);
  EXPECT_TRUE(contains(last.path, "v11.0\\bin\\cudart64_110.dll")) << last.path;
  // Places before PATH were tried first and passed over, in the loader's order.
  ASSERT_GE(e->trail.size(), 3u);
  EXPECT_EQ(e->trail.front().source, "application dir");
  EXPECT_EQ(e->trail.front().why, "absent");
  EXPECT_TRUE(std::any_of(e->trail.begin(), e->trail.end(), [](const TrailStep& t) { return t.source == "System32"; }));
}

TEST(RulesLoaderTrail, LdLibraryPathAheadOfPipWheelsLoadsTheOldCudnn) {
  Snapshot s = cuda11_on_ld_library_path();
  DoctorReport r = diagnose(s, test_kb());
  const Finding* f = find_id(r, "cudnn_version_mismatch");
  ASSERT_NE(f, nullptr);
  const Evidence* e = with_trail(*f);
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(contains(e->fact, "/usr/local/cuda-11.8/lib64/libcudnn.so.8")) << e->fact;
  EXPECT_TRUE(contains(e->fact, "LD_LIBRARY_PATH #1")) << e->fact;
  EXPECT_EQ(e->trail.back().source, "LD_LIBRARY_PATH");
  EXPECT_EQ(e->trail.back().position, 1);
  EXPECT_EQ(e->trail.back().why, "chosen");
  // The right copy is named as shadowed: it sits in a pip nvidia-* dir on TF's RUNPATH.
  bool shadowed = std::any_of(f->evidence.begin(), f->evidence.end(), [](const Evidence& ev) {
    return contains(ev.fact, "shadowed") && contains(ev.fact, "nvidia/cudnn/lib/libcudnn.so.8");
  });
  EXPECT_TRUE(shadowed);
}

TEST(RulesLoaderTrail, CudartPassesTheCuda11DirAsAnotherVersionThenTakesTheWheel) {
  Snapshot s = cuda11_on_ld_library_path();
  auto envs = rules::tf_envs(s, test_kb());
  ASSERT_EQ(envs.size(), 1u);
  rules::Resolution r = rules::resolve(s, &envs.front(), "libcudart.so.12");
  ASSERT_FALSE(r.found_path.empty()) << loader::render_trail(r.loader);
  EXPECT_TRUE(contains(r.found_path, "nvidia/cuda_runtime/lib/libcudart.so.12")) << r.found_path;
  EXPECT_TRUE(starts_with(r.found_via, "DT_RUNPATH")) << r.found_via;
  ASSERT_GE(r.loader.trail.size(), 2u);
  EXPECT_EQ(r.loader.trail.front().source, "LD_LIBRARY_PATH");
  EXPECT_EQ(r.loader.trail.front().why, loader::Why::kOtherVersion);
  EXPECT_TRUE(contains(r.loader.trail.front().detail, "libcudart.so.11.0"));
}

TEST(RulesLoaderTrail, JsonCarriesTheWholeTrailWithPathPositions) {
  Snapshot s = load_scenario("win_old_cudart_first_on_path");
  DoctorReport r = diagnose(s, test_kb());  // keeps a pointer to the snapshot
  nlohmann::json j = doctor_to_json(r);
  const Finding* f = find_id(r, "cuda_version_mismatch");
  ASSERT_NE(f, nullptr);
  size_t want = with_trail(*f)->trail.size();
  bool seen = false;
  for (const auto& jf : j["findings"]) {
    if (jf["id"] != "cuda_version_mismatch") continue;
    for (const auto& ev : jf["evidence"]) {
      if (!ev.contains("trail")) continue;
      seen = true;
      ASSERT_EQ(ev["trail"].size(), want);
      const auto& last = ev["trail"].back();
      EXPECT_EQ(last["why"], "chosen");
      EXPECT_EQ(last["source"], "PATH");
      EXPECT_EQ(last["position"], 1);
      EXPECT_FALSE(ev["trail"].front().contains("position")) << "only PATH / LD_LIBRARY_PATH steps have a position";
    }
  }
  EXPECT_TRUE(seen);
}

TEST(RulesLoaderTrail, TextShowsAShortTrailAndMarkdownRedactsItsHomePaths) {
  Snapshot s = load_scenario("win_old_cudart_first_on_path");
  DoctorReport r = diagnose(s, test_kb());
  std::string text = render_doctor_text(r, Color::kOff);
  EXPECT_TRUE(contains(text, "PATH #1: C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.0\\bin\\cudart64_110.dll, chosen"))
      << text;
  EXPECT_TRUE(contains(text, "1. application dir: C:\\Users\\alice\\")) << text;
  EXPECT_TRUE(contains(text, " more")) << text;
  std::string md = render_doctor_markdown(r);
  EXPECT_TRUE(contains(md, "PATH #1: C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.0\\bin\\cudart64_110.dll, chosen"))
      << md;
  EXPECT_FALSE(contains(md, "alice")) << md;
  EXPECT_TRUE(contains(md, "application dir: C:\\Users\\<user>\\")) << md;
}

TEST(RulesLoaderTrail, ShortTrailKeepsTheFirstPlacesAndTheLast) {
  std::vector<TrailStep> trail;
  for (int i = 0; i < 10; ++i) trail.push_back({"PATH", i + 1, "C:\\d" + std::to_string(i) + "\\x.dll", "absent", ""});
  trail.back().why = "chosen";
  auto lines = short_trail(trail, 4);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "1. PATH #1: C:\\d0\\x.dll, absent");
  EXPECT_EQ(lines[3], "… 6 more");
  EXPECT_EQ(lines[4], "10. PATH #10: C:\\d9\\x.dll, chosen");
  EXPECT_EQ(short_trail(std::vector<TrailStep>(trail.begin(), trail.begin() + 5), 4).size(), 5u);
  EXPECT_TRUE(short_trail({}, 4).empty());
}

TEST(RulesLoaderTrail, LoadsAreComputedOncePerEnvironmentWhileAScopeIsActive) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  auto envs = rules::tf_envs(s, test_kb());
  ASSERT_EQ(envs.size(), 1u);
  {
    rules::LoaderScope scope(s, test_kb());
    auto a = rules::loads_for(s, test_kb(), envs.front());
    auto b = rules::loads_for(s, test_kb(), envs.front());
    EXPECT_EQ(a.get(), b.get());
    ASSERT_TRUE(a->process.has_value()) << a->error;
    EXPECT_FALSE(a->report.loads.empty());
    EXPECT_TRUE(a->report.all_must_load_found);
  }
  auto c = rules::loads_for(s, test_kb(), envs.front());
  auto d = rules::loads_for(s, test_kb(), envs.front());
  EXPECT_NE(c.get(), d.get()) << "without a scope nothing is cached (a later snapshot may reuse the address)";
}

TEST(RulesLoaderTrail, AnUnactivatedCondaEnvRunsWithCondaActivationDirsFirstOnPath) {
  Snapshot s = load_scenario("win_tf210_good");
  auto envs = rules::tf_envs(s, test_kb());
  ASSERT_EQ(envs.size(), 1u);
  auto loads = rules::loads_for(s, test_kb(), envs.front());
  ASSERT_FALSE(loads->path_added.empty());
  EXPECT_TRUE(contains(loads->path_added[3], "envs\\tf\\Library\\bin")) << loads->path_added[3];
}

}  // namespace
}  // namespace tfgpu

namespace tfgpu {
namespace {

const VerdictLibrary* library_named(const Verdict& v, std::string_view file) {
  for (const auto& l : v.libraries)
    if (l.file == file) return &l;
  return nullptr;
}

TEST(RulesLoaderTrail, VerdictListsEachLibraryTfOpensWithTheChosenFileAndThePlaceThatSuppliedIt) {
  DoctorReport r = diagnose(cuda11_on_ld_library_path(), test_kb());
  ASSERT_EQ(r.verdicts.size(), 1u);
  const Verdict& v = r.verdicts.front();
  const VerdictLibrary* cudnn = library_named(v, "libcudnn.so.8");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ(cudnn->component, "cudnn");
  EXPECT_TRUE(cudnn->must_load);
  EXPECT_EQ(cudnn->outcome, "found");
  EXPECT_EQ(cudnn->path, "/usr/local/cuda-11.8/lib64/libcudnn.so.8");  // LD_LIBRARY_PATH beats TF's RUNPATH
  EXPECT_EQ(cudnn->why, "LD_LIBRARY_PATH #1");
  const VerdictLibrary* cudart = library_named(v, "libcudart.so.12");
  ASSERT_NE(cudart, nullptr);
  EXPECT_EQ(cudart->outcome, "found");
  EXPECT_TRUE(contains(cudart->path, "nvidia/cuda_runtime/lib/libcudart.so.12")) << cudart->path;
  EXPECT_TRUE(starts_with(cudart->why, "DT_RUNPATH of ")) << cudart->why;
}

TEST(RulesLoaderTrail, VerdictLibraryMissingFromEveryPlaceIsNotFoundWithTheLoadersWords) {
  Snapshot s = load_scenario("linux_pip_and_cuda_good");
  std::erase_if(s.libraries, [](const LibraryFile& f) { return f.name == "libcufft.so.11"; });
  auto j = doctor_to_json(diagnose(s, test_kb()));
  const auto& libraries = j["verdicts"][0]["libraries"];
  auto it =
      std::find_if(libraries.begin(), libraries.end(), [](const auto& l) { return l["file"] == "libcufft.so.11"; });
  ASSERT_NE(it, libraries.end()) << libraries.dump(1);
  EXPECT_EQ((*it)["outcome"], "not_found");
  EXPECT_EQ((*it)["path"], "");
  EXPECT_TRUE(contains((*it)["why"].get<std::string>(), "libcufft.so.11: cannot open shared object file"))
      << (*it)["why"];
}

}  // namespace
}  // namespace tfgpu
