// `tfgpu explain` on the command line: text and JSON output, exit codes, and bad or
// hostile files (missing, a directory, empty, NUL-filled, binary) each get a sane answer.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "host/fake_host.h"
#include "util/error.h"
#include "support/cli_run.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;

using testing::run;

fs::path write_temp(const std::string& name, const std::string& bytes) {
  fs::path p = fs::path(TFGPU_TEST_BINARY_DIR) / ("explain_cli_" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

constexpr const char* kWindowsReport =
    "OS Platform and Distribution: Windows 10\n"
    "TensorFlow version: 2.12.0\n"
    "2023-04-01 10:00:00.000000: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is "
    "optimized to use available CPU instructions in performance-critical operations.\n"
    "print(tf.config.list_physical_devices('GPU'))\n"
    "[]\n";

TEST(ExplainCli, TextNamesTheRootCauseTheFixAndTheNoise) {
  auto p = write_temp("windows.txt", kWindowsReport);
  auto r = run({"explain", p.string()});
  EXPECT_EQ(r.code, kExitProblems);  // the top finding is a blocker
  EXPECT_NE(r.out.find("windows_native_gpu_unsupported_tf_ge_2_11"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("WSL2"), std::string::npos);
  EXPECT_NE(r.out.find("Harmless lines"), std::string::npos);
  EXPECT_NE(r.out.find("line     3"), std::string::npos);
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(ExplainCli, JsonListsFindingsMostLikelyFirstWithIdSeverityEvidenceFix) {
  auto p = write_temp("windows.json.txt", kWindowsReport);
  auto r = run({"--json", "explain", p.string()});
  EXPECT_EQ(r.code, kExitProblems);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["findings"].is_array());
  ASSERT_FALSE(j["findings"].empty());
  const auto& top = j["findings"][0];
  EXPECT_EQ(top["id"], "windows_native_gpu_unsupported_tf_ge_2_11");
  EXPECT_EQ(top["severity"], "blocker");
  EXPECT_TRUE(top["evidence"].is_array());
  EXPECT_TRUE(top["fix"].is_array());
  double prev = 2.0;
  for (const auto& f : j["findings"]) {
    EXPECT_LE(f["score"].get<double>(), prev);
    prev = f["score"].get<double>();
  }
  ASSERT_EQ(j["noise"].size(), 1u);
  EXPECT_EQ(j["noise"][0]["line"], 3);
  EXPECT_EQ(j["facts"]["tensorflow"]["value"], "2.12.0");
  EXPECT_EQ(j["snapshot"]["origin"], "log");
  EXPECT_EQ(j["input"]["lines"], 5);
  // Sure of the top finding: nothing to tell apart.
  ASSERT_TRUE(j["checks"].is_array());
  EXPECT_TRUE(j["checks"].empty());
}

// A report that says only that the GPU is unused: the findings are guesses, and explain
// lists what to run on the machine to tell them apart (one entry per command).
TEST(ExplainCli, AGuessComesWithTheChecksThatTellTheCandidatesApart) {
  auto p = write_temp("thin.txt", "Training runs but tensorflow does not use my GPU, everything runs on the CPU.\n");
  auto j = nlohmann::json::parse(run({"--json", "explain", p.string()}).out);
  ASSERT_FALSE(j["findings"].empty());
  EXPECT_LT(j["findings"][0]["score"].get<double>(), 0.5);
  ASSERT_FALSE(j["checks"].empty());
  std::set<std::string> runs, answered;
  for (const auto& c : j["checks"]) {
    EXPECT_TRUE(runs.insert(c["run"].get<std::string>()).second) << "one entry per command";
    for (const auto& a : c["answers"]) answered.insert(a["finding"].get<std::string>());
  }
  for (size_t i = 0; i < 3 && i < j["findings"].size(); ++i)
    EXPECT_TRUE(answered.count(j["findings"][i]["id"].get<std::string>())) << j["findings"][i]["id"];
  auto text = run({"explain", p.string()}).out;
  EXPECT_NE(text.find("Not sure yet"), std::string::npos);
  EXPECT_NE(text.find("is_built_with_cuda"), std::string::npos);
  auto md = run({"--markdown", "explain", p.string()});
  EXPECT_NE(md.out.find("Not sure yet"), std::string::npos) << md.out << md.err;
}

// On native Windows the checks are Windows commands (no shell-variable syntax).
TEST(ExplainCli, AWindowsGuessComesWithWindowsChecks) {
  auto p = write_temp("dll.txt",
                      "Windows 10, Python 3.8\nImportError: DLL load failed while importing "
                      "_pywrap_tensorflow_internal: The specified module could not be found.\n");
  auto j = nlohmann::json::parse(run({"--json", "explain", p.string()}).out);
  std::set<std::string> runs;
  for (const auto& c : j["checks"]) runs.insert(c["run"].get<std::string>());
  EXPECT_TRUE(runs.count("where msvcp140_1.dll")) << j["checks"].dump();
  for (const auto& r : runs) EXPECT_EQ(r.find("TF_CPP_MAX_VLOG_LEVEL=3 "), std::string::npos) << r;
}

TEST(ExplainCli, OnlyHarmlessLinesExitZero) {
  auto p = write_temp("noise.txt",
                      "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n");
  auto r = run({"--json", "explain", p.string()});
  EXPECT_EQ(r.code, kExitOk);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["findings"][0]["id"], "harmless_warning_only");
}

TEST(ExplainCli, MissingFileIsAUsageErrorOnOneLine) {
  auto r = run({"explain", (fs::path(TFGPU_TEST_BINARY_DIR) / "no_such_log.txt").string()});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_EQ(r.err.find("tfgpu explain: cannot open"), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
}

TEST(ExplainCli, DirectoryIsAUsageError) {
  auto r = run({"explain", TFGPU_TEST_BINARY_DIR});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos);
}

TEST(ExplainCli, EmptyFileSaysNothingWasRecognised) {
  auto p = write_temp("empty.txt", "");
  auto r = run({"explain", p.string()});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("No known problem recognised"), std::string::npos);
  auto j = nlohmann::json::parse(run({"--json", "explain", p.string()}).out);
  EXPECT_TRUE(j["findings"].empty());
  EXPECT_EQ(j["input"]["bytes"], 0);
}

TEST(ExplainCli, ACrashWithOnlyHarmlessLinesBesideItIsNotCalledNothingMatched) {
  // Harmless lines recognised, plus a traceback explain knows no cause for: no finding (never
  // "only harmless messages"), and the text says there is an error it does not know.
  auto p = write_temp("unknown_crash.txt",
                      "I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to "
                      "use available CPU instructions\nTraceback (most recent call last):\n  File \"x.py\", line "
                      "1\nZeroDivisionError: division by zero\n");
  auto r = run({"explain", p.string()});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_NE(r.out.find("an error or a crash"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Nothing in the input matches"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Only harmless messages"), std::string::npos) << r.out;
  EXPECT_EQ(nlohmann::json::parse(run({"--json", "explain", p.string()}).out)["input"]["crash"], true);
  // Windows ends a process that crashed in native code with a status, not a traceback.
  auto win = write_temp("win_crash.txt", "Epoch 1/10\nProcess finished with exit code -1073740791 (0xC0000409)\n");
  EXPECT_NE(run({"explain", win.string()}).out.find("an error or a crash"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(run({"--json", "explain", win.string()}).out)["input"]["crash"], true);
  auto empty = write_temp("no_crash.txt", "hello\n");
  EXPECT_EQ(nlohmann::json::parse(run({"--json", "explain", empty.string()}).out)["input"]["crash"], false);
}

TEST(ExplainCli, NulFilledFileIsReportedAsBinaryNotACrash) {
  auto p = write_temp("nul.bin", std::string(1 << 16, '\0'));
  auto r = run({"--json", "explain", p.string()});
  EXPECT_EQ(r.code, kExitOk);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["input"]["binary"], true);
  EXPECT_TRUE(j["findings"].empty());
}

TEST(ExplainCli, BinaryBytesInAMatchedLineStayValidJsonAndText) {
  std::string log = "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR \xff\xfe\x01\x1b[31m\n";
  auto p = write_temp("binary.txt", log);
  auto r = run({"--json", "explain", p.string()});
  auto j = nlohmann::json::parse(r.out);  // throws on invalid UTF-8
  EXPECT_EQ(j["findings"][0]["id"], "gpu_memory_preallocation");
  EXPECT_EQ(j["input"]["valid_utf8"], false);
  auto t = run({"explain", p.string()});
  EXPECT_EQ(t.out.find('\x1b'), std::string::npos);  // no terminal escapes from the log
}

TEST(ExplainCli, MarkdownHasTheTopFindingAndItsFix) {
  auto p = write_temp("md.txt", kWindowsReport);
  auto r = run({"--markdown", "explain", p.string()});
  EXPECT_NE(r.out.find("### Most likely: `windows_native_gpu_unsupported_tf_ge_2_11`"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Fix:"), std::string::npos);
}

// The top finding's id and its fix steps (as JSON text) for a report written to a file.
std::pair<std::string, std::string> top_finding_and_fix(const char* file, std::string_view report) {
  auto p = write_temp(file, std::string(report));
  auto r = run({"--json", "explain", p.string()});
  auto j = nlohmann::json::parse(r.out);
  if (j["findings"].empty()) return {"", ""};
  return {j["findings"][0]["id"].get<std::string>(), j["findings"][0]["fix"].dump()};
}

// A report that states its TF release gets fix steps with that release's CUDA / cuDNN and
// the commands for its platform (KB + packaging rows), before the generic steps.
TEST(ExplainCli, FixNamesTheCudaAndCudnnOfTheStatedRelease) {
  auto [id, fix] = top_finding_and_fix("win210.txt",
                                       "Windows 10, TensorFlow 2.10.0, the GPU is not detected\n"
                                       "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
                                       "dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n");
  EXPECT_EQ(id, "cudart_missing");
  EXPECT_NE(fix.find("CUDA 11.2 and cuDNN 8.1"), std::string::npos) << fix;
  EXPECT_NE(fix.find("cudatoolkit=11.2 cudnn=8.1.0"), std::string::npos) << fix;
  EXPECT_NE(fix.find("CUDA\\\\v11.2\\\\bin"), std::string::npos) << fix;
}

// The generic steps below the release's own name no other release's CUDA as if it were this one's.
TEST(ExplainCli, GenericStepsNameNoOtherReleasesCudaAsThisOnes) {
  auto [id, fix] = top_finding_and_fix("win20.txt",
                                       "Windows 10. Installed CUDA 10.0 and TensorFlow 2.0, the GPU is not used.\n"
                                       "cudaGetDevice() failed. Status: cudaGetErrorString symbol not found.\n");
  EXPECT_EQ(id, "cudart_missing");
  EXPECT_NE(fix.find("CUDA 10.0 and cuDNN 7.4"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("CUDA\\\\v11.2\\\\bin"), std::string::npos) << fix;
  EXPECT_NE(fix.find("2.5-2.10"), std::string::npos) << fix;  // CUDA 11.2 only with the releases it is for
}

TEST(ExplainCli, WithoutAReleaseTheFixNamesTheFirstReleaseBuiltForTheGpu) {
  // RTX 3070 = compute capability 8.6 (KB); CUDA 11.1 is the first to build for it; the
  // first release built with CUDA >= 11.1 is TF 2.5 (CUDA 11.2).
  auto [id, fix] = top_finding_and_fix("ampere.txt", "GPU Nvidia RTX 3070 8GB on Ubuntu 20.04.\nThe tool only runs with "
                                                     "CUDA 10.1; I tried CUDA 11.0 too, the GPU is not used.\n");
  EXPECT_EQ(id, "cuda_version_mismatch");
  EXPECT_NE(fix.find("compute capability 8.6 needs CUDA 11.1 or newer: use TensorFlow 2.5 or newer"), std::string::npos)
      << fix;
}

// No release stated, but TensorFlow names the file it could not open: the KB's library sets
// say which releases open it and with which CUDA (TF 1.5-1.12's self-check on Windows).
TEST(ExplainCli, WithoutAReleaseTheFixNamesWhatOpensTheFailedFile) {
  auto [id, fix] = top_finding_and_fix("tf1win.txt",
                                       "ImportError: Could not find 'cudart64_90.dll'. TensorFlow requires that this DLL "
                                       "be installed in a directory that is named in your %PATH% environment variable.\n"
                                       "I have CUDA 9.2 on Windows 10.\n");
  EXPECT_EQ(id, "cuda_version_mismatch");
  EXPECT_NE(fix.find("cudart64_90.dll is what TensorFlow 1.5-1.12 open (built with CUDA 9.0): install CUDA 9.0"),
            std::string::npos)
      << fix;
}

TEST(ExplainCli, AStatedToolkitNotOnPathNamesTheDllsItsReleasesLoad) {
  auto [id, fix] = top_finding_and_fix("tf1dll.txt",
                                       "Windows 10, CUDA/cuDNN version: 8.0/5.1\n"
                                       "ImportError: DLL load failed: The specified module could not be found.\n");
  EXPECT_EQ(id, "env_path_not_set");
  EXPECT_NE(fix.find("TensorFlow 1.0-1.2 (built for CUDA 8.0 and cuDNN 5.1) loads cublas64_80.dll and cudnn64_5.dll"),
            std::string::npos)
      << fix;
  EXPECT_NE(fix.find("where cublas64_80.dll and where cudnn64_5.dll"), std::string::npos) << fix;
}

}  // namespace
}  // namespace tfgpu
