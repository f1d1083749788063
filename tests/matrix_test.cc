// `tfgpu matrix`: the pure query (kb::run_matrix), its text and JSON renderings, and
// the command's exit codes. Values asserted come from shared/facts.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "kb/matrix.h"
#include "report/matrix_report.h"
#include "support/cli_run.h"
#include "support/shipped_kb.h"

namespace tfgpu::kb {
namespace {

using testing::shipped_kb;

MatrixResult ask(MatrixQuery q) {
  auto r = run_matrix(shipped_kb(), q);
  if (!r) throw std::runtime_error(r.error().message);
  return std::move(*r);
}

std::vector<std::string> row_versions(const MatrixResult& r) {
  std::vector<std::string> out;
  for (const auto& row : r.rows) out.push_back(row.release->version.str());
  return out;
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

TEST(Matrix, Tf12OnWindowsSaysHowAMissingDllFailsAndCitesTheWheels) {
  auto r = ask({.platform = Platform::kWindows, .tf = "1.2"});
  ASSERT_TRUE(r.tf);
  EXPECT_EQ(r.tf->first_avx->series().str(), "1.6");
  bool import_cited = false;
  for (const auto& c : r.citations) import_cited = import_cited || c.row == "tensorflow 1.2.0 import";
  EXPECT_TRUE(import_cited);
  EXPECT_EQ(ask({.platform = Platform::kWindows, .tf = "2.10"}).tf->first_avx, nullptr);
}

TEST(Matrix, Tf210OnWindowsGivesPythonsCudaCudnnDriverAndExactDlls) {
  auto r = ask({.platform = Platform::kWindows, .tf = "2.10"});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(compact_versions(r.rows[0].python), "3.7-3.10");
  EXPECT_EQ(driver_version_str(r.rows[0].driver_compat->min_driver), "452.39");
  EXPECT_EQ(driver_version_str(r.rows[0].driver_exact->min_driver), "460.82");
  std::string text = tfgpu::render_matrix_text(r);
  for (const char* s : {"Python        3.7-3.10", "CUDA          11.2", "cuDNN         8.1", ">= 452.39", "cudart64_110.dll",
                        "cublasLt64_11.dll", "cusolver64_11.dll", "cudnn64_8.dll", "nvcuda.dll", "GeForce RTX 3090"})
    EXPECT_TRUE(contains(text, s)) << s << "\n" << text;
  EXPECT_TRUE(contains(text, "* cudart    cudart64_110.dll")) << "build_info's cudart64_112.dll is not what TF loads";
  // The supported-GPU groups: Kepler K80 has SASS (sm_35), RTX 30xx only PTX (compute_80).
  const auto& d = *r.tf;
  auto has = [](const std::vector<const Gpu*>& v, std::string_view id) {
    return std::any_of(v.begin(), v.end(), [&](const Gpu* g) { return g->pci_id == id; });
  };
  EXPECT_TRUE(has(d.gpus_native, "10de:102d"));
  EXPECT_TRUE(has(d.gpus_ptx_jit, "10de:2504"));
  EXPECT_TRUE(has(d.gpus_ptx_jit, "10de:2684"));  // RTX 4090 (8.9) JIT from compute_80
}

TEST(Matrix, Tf212OnWindowsSaysCpuOnlyAndGivesTheAlternatives) {
  auto r = ask({.platform = Platform::kWindows, .tf = "2.12"});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_FALSE(r.rows[0].gpu_build);
  ASSERT_NE(r.tf->no_gpu_note, nullptr);
  std::string text = tfgpu::render_matrix_text(r);
  for (const char* s : {"GPU build     NO", "CPU-only", "TensorFlow 2.10 natively", "WSL2", "DirectML"})
    EXPECT_TRUE(contains(text, s)) << s << "\n" << text;
  EXPECT_FALSE(contains(text, "cudart64")) << "no DLL list for a CPU-only wheel";
  auto j = tfgpu::matrix_to_json(r);
  EXPECT_EQ(j["tf"]["gpu_build"], false);
  EXPECT_EQ(j["tf"]["no_gpu"]["alternatives"].size(), 3u);
}

TEST(Matrix, Cuda118OnLinuxListsReleasesThatLoadItsLibrariesButNotTf24) {
  auto r = ask({.platform = Platform::kLinux, .cuda = "11.8"});
  EXPECT_EQ(row_versions(r), (std::vector<std::string>{"2.14.0", "2.13.0", "2.12.0", "2.11.0", "2.10.0", "2.9.0",
                                                       "2.8.0", "2.7.0", "2.6.0", "2.5.0"}));
  EXPECT_EQ(r.rows.front().why.front(), "built with CUDA 11.8");
  EXPECT_TRUE(contains(r.rows.back().why.front(), "loads with CUDA 11.8"));
  EXPECT_EQ(driver_version_str(r.cuda->driver_compat->min_driver), "450.80.02");
  EXPECT_EQ(driver_version_str(r.cuda->driver_exact->min_driver), "520.61.05");
  std::string text = tfgpu::render_matrix_text(r);
  EXPECT_TRUE(contains(text, ">= 450.80.02 (any CUDA 11.x application")) << text;
  EXPECT_TRUE(contains(text, "libcusolver.so.11")) << text;
}

TEST(Matrix, CudaMajorMatchesTheWholeFamily) {
  auto r = ask({.platform = Platform::kLinux, .cuda = "12"});
  EXPECT_EQ(row_versions(r).size(), 7u);  // 2.15 .. 2.21
  EXPECT_EQ(r.cuda->release, nullptr);
}

TEST(Matrix, Cudnn86AcceptsTheReleasesBuiltWithAnOlderMinorOfTheSameMajor) {
  auto r = ask({.platform = Platform::kLinux, .cudnn = "8.6"});
  EXPECT_EQ(row_versions(r), (std::vector<std::string>{"2.13.0", "2.12.0", "2.11.0", "2.10.0", "2.9.0", "2.8.0",
                                                       "2.7.0", "2.6.0", "2.5.0", "2.4.0"}));
  EXPECT_EQ(r.rows.front().why.front(), "built with cuDNN 8.6");
}

TEST(Matrix, Python312ListsTf216AndNewer) {
  auto r = ask({.platform = Platform::kLinux, .python = "3.12"});
  EXPECT_EQ(row_versions(r), (std::vector<std::string>{"2.21.0", "2.20.0", "2.19.0", "2.18.0", "2.17.0", "2.16.1"}));
}

TEST(Matrix, Driver52206OnWindowsRunsCuda118AndEveryWindowsGpuRelease) {
  auto r = ask({.platform = Platform::kWindows, .driver = "522.06"});
  ASSERT_TRUE(r.driver);
  EXPECT_EQ(r.driver->newest_cuda_toolkit_exact->str(), "11.8");
  EXPECT_EQ(r.driver->newest_cuda_minor_compat->str(), "11.8");
  auto v = row_versions(r);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.front(), "2.10.0");
  EXPECT_EQ(v.back(), "1.0.0");  // the tensorflow_gpu 1.x wheels (CUDA 8.0 / 9.0) run on it too
  EXPECT_EQ(v.size(), 27u);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_EQ(r.notes.back(), "in WSL2 this driver also runs the Linux wheels up to TensorFlow 2.14.0 (CUDA 11.8)");
}

TEST(Matrix, OldDriverOnLinuxStopsAtCuda10) {
  auto r = ask({.platform = Platform::kLinux, .driver = "440.33"});
  EXPECT_EQ(r.driver->newest_cuda_minor_compat->str(), "10.2");
  EXPECT_EQ(row_versions(r).front(), "2.3.0");
}

TEST(Matrix, GpuRtx3060ByNameGroupsReleasesBySupport) {
  auto r = ask({.platform = Platform::kLinux, .gpu = "RTX 3060"});
  ASSERT_TRUE(r.gpu);
  EXPECT_EQ(r.gpu->cc.str(), "8.6");
  EXPECT_EQ(r.gpu->architecture, "Ampere");
  auto strs = [](const std::vector<Version>& v) {
    std::vector<std::string> s;
    for (const auto& x : v) s.push_back(x.str());
    return s;
  };
  // build_info.py of the real wheels: sm_80 SASS (binary compatible with 8.6) from 2.16.1 on;
  // before that, compute_80 PTX at most (JIT at start-up).
  EXPECT_EQ(strs(r.gpu->tf_native), (std::vector<std::string>{"2.21.0", "2.20.0", "2.19.0", "2.18.0", "2.17.0", "2.16.1"}));
  EXPECT_EQ(strs(r.gpu->tf_ptx_jit),
            (std::vector<std::string>{"2.15.0", "2.14.0", "2.13.0", "2.12.0", "2.11.0", "2.10.0", "2.9.0", "2.8.0",
                                      "2.7.0", "2.6.0", "2.5.0", "2.4.0", "2.3.0", "2.2.0", "2.1.0"}));
  EXPECT_TRUE(r.gpu->tf_ignored.empty());
}

TEST(Matrix, GpuByPciIdMatchesTheSameCard) {
  auto r = ask({.platform = Platform::kLinux, .gpu = "10de:2504"});
  ASSERT_EQ(r.gpu->gpus.size(), 1u);
  EXPECT_EQ(r.gpu->cc.str(), "8.6");
  auto maxwell = ask({.platform = Platform::kLinux, .gpu = "GTX 980"});
  ASSERT_FALSE(maxwell.gpu->tf_ignored.empty());
  EXPECT_EQ(maxwell.gpu->tf_ignored.back().str(), "2.17.0");  // 2.17.0's wheel starts at sm_60
}

TEST(Matrix, OptionsIntersect) {
  auto r = ask({.platform = Platform::kLinux, .cuda = "12.5", .python = "3.13"});
  EXPECT_EQ(row_versions(r), (std::vector<std::string>{"2.21.0", "2.20.0"}));
  auto none = ask({.platform = Platform::kWindows, .tf = "2.10", .python = "3.12"});
  EXPECT_TRUE(none.rows.empty());
  EXPECT_FALSE(none.notes.empty());
}

TEST(Matrix, NoFiltersListsEveryReleaseNewestFirst) {
  auto r = ask({.platform = Platform::kLinux});
  EXPECT_EQ(r.rows.size(), shipped_kb().tf_releases().size());
  EXPECT_EQ(r.rows.front().release->version.str(), "2.21.0");
  std::string text = tfgpu::render_matrix_text(r);
  EXPECT_TRUE(contains(text, "2.15.0   3.9-3.11           12.2   8.9    yes         525.60.13")) << text;
  auto win = ask({.platform = Platform::kWindows});
  EXPECT_TRUE(contains(tfgpu::render_matrix_text(win), "no (CPU)"));
}

TEST(Matrix, UnknownOrMalformedValuesAreErrorsWithSuggestions) {
  auto tf = run_matrix(shipped_kb(), {.platform = Platform::kLinux, .tf = "2.22"});
  ASSERT_FALSE(tf);
  EXPECT_EQ(tf.error().message, "unknown TensorFlow version 2.22 (did you mean 2.21, 2.20?)");
  auto cuda = run_matrix(shipped_kb(), {.platform = Platform::kLinux, .cuda = "11.9"});
  ASSERT_FALSE(cuda);
  EXPECT_EQ(cuda.error().message, "unknown CUDA version 11.9 (did you mean 11.8, 12.0?)");
  auto py = run_matrix(shipped_kb(), {.platform = Platform::kLinux, .python = "3.14"});
  ASSERT_FALSE(py);
  EXPECT_TRUE(contains(py.error().message, "did you mean 3.13")) << py.error().message;
  auto bad = run_matrix(shipped_kb(), {.platform = Platform::kLinux, .driver = "latest"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kInput);
  auto ambiguous = run_matrix(shipped_kb(), {.platform = Platform::kLinux, .gpu = "RTX"});
  ASSERT_FALSE(ambiguous);
  EXPECT_TRUE(contains(ambiguous.error().message, "be more specific"));
}

TEST(Matrix, JsonCarriesSchemaVersionAndCitations) {
  auto r = ask({.platform = Platform::kWindows, .tf = "2.10"});
  auto j = tfgpu::matrix_to_json(r);
  EXPECT_EQ(j["schema_version"], tfgpu::kMatrixJsonSchemaVersion);
  EXPECT_EQ(j["query"]["os"], "windows");
  EXPECT_EQ(j["tensorflow"][0]["version"], "2.10.0");
  EXPECT_EQ(j["tensorflow"][0]["min_driver"]["min_driver"], "452.39");
  bool cudart = false;
  for (const auto& l : j["tf"]["libraries"])
    if (l["component"] == "cudart") cudart = l["file"] == "cudart64_110.dll" && l["must_load"] == true;
  EXPECT_TRUE(cudart);
  ASSERT_FALSE(j["citations"].empty());
  for (const auto& c : j["citations"]) EXPECT_FALSE(c["sources"].empty()) << c.dump();
}

// ---- the command ----------------------------------------------------------------------

using testing::CliRun;

using testing::run;

TEST(MatrixCommand, UnknownVersionExitsTwoWithOneLine) {
  auto r = run({"matrix", "--tf", "2.99"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_EQ(r.err, "tfgpu matrix: unknown TensorFlow version 2.99 (did you mean 2.21, 2.20?)\n");
  EXPECT_EQ(run({"matrix", "--os", "beos"}).code, kExitUsage);
}

TEST(MatrixCommand, OsDefaultsToTheHostPlatform) {
  auto r = run({"matrix", "--tf", "2.10"}, Platform::kWindows);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_TRUE(contains(r.out, "cudart64_110.dll"));
}

TEST(MatrixCommand, JsonOutputParses) {
  auto r = run({"matrix", "--gpu", "10de:2504", "--json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gpu"]["compute_capability"], "8.6");
}

TEST(MatrixCommand, KbDirReadsTheSameFilesFromDisk) {
  FakeHost host;
  for (const auto& f : embedded_kb_files()) host.add_file("/kb/" + std::string(f.name), std::string(f.text));
  std::ostringstream out, err;
  EXPECT_EQ(run_cli({"matrix", "--kb", "/kb", "--cuda", "11.8"}, host, out, err), kExitOk) << err.str();
  std::ostringstream out2, err2;
  EXPECT_EQ(run_cli({"matrix", "--kb", "/nowhere", "--cuda", "11.8"}, host, out2, err2), kExitUsage);
  EXPECT_TRUE(contains(err2.str(), "--kb /nowhere")) << err2.str();
}

// --kb DIR is the whole knowledge base: a missing file or a signature with an empty
// pattern is exit 2 naming the file, never a silent fallback to the built-in copy.
TEST(MatrixCommand, KbDirWithAFileMissingIsAnErrorNamingIt) {
  for (const auto& missing : embedded_kb_files()) {
    FakeHost host;
    for (const auto& f : embedded_kb_files())
      if (f.name != missing.name) host.add_file("/kb/" + std::string(f.name), std::string(f.text));
    std::ostringstream out, err;
    EXPECT_EQ(run_cli({"matrix", "--kb", "/kb", "--cuda", "11.8"}, host, out, err), kExitUsage) << missing.name;
    const std::string e = err.str();
    EXPECT_TRUE(contains(e, "/kb/" + std::string(missing.name) + " is missing")) << e;
    EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
  }
}

TEST(MatrixCommand, KbDirWithAnEmptySignaturePatternIsAnErrorNamingTheFile) {
  FakeHost host;
  for (const auto& f : embedded_kb_files()) {
    std::string text(f.text);
    if (f.name == "signatures.toml") {
      auto at = text.find("any = [\"");
      ASSERT_NE(at, std::string::npos);
      text.replace(at, 8, "any = [\"\", \"");
    }
    host.add_file("/kb/" + std::string(f.name), text);
  }
  std::ostringstream out, err;
  EXPECT_EQ(run_cli({"explain", "--kb", "/kb", "-"}, host, out, err), kExitUsage);
  EXPECT_TRUE(contains(err.str(), "/kb/signatures.toml")) << err.str();
  EXPECT_TRUE(contains(err.str(), "empty literal")) << err.str();
}

}  // namespace
}  // namespace tfgpu::kb
