// kb/signatures.toml: every signature's examples match it and its counter-examples do
// not; the file's cross-references resolve; malformed files are clear errors.
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "explain/scanner.h"
#include "explain/signatures.h"
#include "kb/embedded.h"
#include "support/shipped_kb.h"
#include "support/signature_toml.h"

namespace tfgpu::explain {
namespace {

using testing::shipped_signatures;

TEST(ExplainSignatures, EmbeddedFileLoads) {
  auto s = load_signatures(embedded_kb_files());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_GE(s->signatures().size(), 40u);
  EXPECT_NE(s->finding("harmless_warning_only"), nullptr);
}

// One scan per signature over its lines (one per line): line -> the ids that matched it.
// (A scan keeps a bounded number of hits per signature; broad signatures such as
// crash_marker match many other signatures' examples, so all examples in one scan would
// hide some of their hits.)
std::map<int, std::set<std::string>> matches_by_line(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  ScanResult r = scan_text(shipped_signatures(), text);
  std::map<int, std::set<std::string>> out;
  for (const auto& h : r.hits) out[h.line].insert(h.signature->id);
  return out;
}

TEST(ExplainSignatures, EveryExampleMatchesItsSignature) {
  for (const auto& sig : shipped_signatures().signatures()) {
    ASSERT_FALSE(sig.examples.empty()) << sig.id;
    auto hits = matches_by_line(sig.examples);
    for (size_t i = 0; i < sig.examples.size(); ++i)
      EXPECT_TRUE(hits[static_cast<int>(i + 1)].count(sig.id)) << sig.id << ": " << sig.examples[i];
  }
}

TEST(ExplainSignatures, NoCounterExampleMatchesItsSignature) {
  for (const auto& sig : shipped_signatures().signatures()) {
    auto hits = matches_by_line(sig.counter_examples);
    for (size_t i = 0; i < sig.counter_examples.size(); ++i)
      EXPECT_FALSE(hits[static_cast<int>(i + 1)].count(sig.id)) << sig.id << " wrongly matches: " << sig.counter_examples[i];
  }
}

TEST(ExplainSignatures, LineMatchesAgreesWithTheScanForOneLine) {
  const Signature* sig = shipped_signatures().signature("cudnn_runtime_compiled_mismatch");
  ASSERT_NE(sig, nullptr);
  EXPECT_TRUE(line_matches(shipped_signatures(), *sig, sig->examples.front()));
  EXPECT_FALSE(line_matches(shipped_signatures(), *sig, sig->counter_examples.front()));
}

TEST(ExplainSignatures, EveryCauseAndSymptomNamesAFindingWithAFix) {
  for (const auto& sig : shipped_signatures().signatures()) {
    if (sig.kind != SignatureKind::kCause && sig.kind != SignatureKind::kSymptom) continue;
    const FindingInfo* f = shipped_signatures().finding(sig.finding);
    ASSERT_NE(f, nullptr) << sig.id;
    EXPECT_FALSE(f->fix.empty()) << f->id;
    EXPECT_GT(sig.weight, 0.0) << sig.id;
  }
}

TEST(ExplainSignatures, EveryRowCitesASource) {
  for (const auto& sig : shipped_signatures().signatures()) EXPECT_FALSE(sig.source.empty()) << sig.id;
  for (const auto& f : shipped_signatures().findings()) EXPECT_FALSE(f.source.empty()) << f.id;
}

TEST(ExplainSignatures, EveryCaseVocabularyIdHasAFinding) {
  for (const char* id :
       {"windows_native_gpu_unsupported_tf_ge_2_11", "macos_gpu_unsupported", "cudart_missing", "cuda_version_mismatch",
        "cudnn_missing", "cudnn_version_mismatch", "zlibwapi_missing", "driver_too_old", "driver_missing",
        "driver_library_mismatch", "no_device_visible", "container_gpu_runtime_missing",
        "compute_capability_unsupported", "ptx_jit_slow", "python_version_unsupported", "python_32bit",
        "msvc_runtime_missing", "cpu_no_avx", "multiple_cuda_on_path", "wrong_package", "conda_cuda_conflict",
        "pip_nvidia_libs_not_found", "wsl_libcuda", "gpu_memory_preallocation", "oom", "harmless_warning_only",
        "xla_ptxas_or_libdevice_missing", "env_path_not_set"})
    EXPECT_NE(shipped_signatures().finding(id), nullptr) << id;
}

TEST(ExplainSignatures, PlatformFixReplacesTheGenericOne) {
  const FindingInfo* f = shipped_signatures().finding("cudart_missing");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->fix_on("windows"), f->fix_on("linux"));
  EXPECT_EQ(&f->fix_on("macos"), &f->fix);  // no macOS-specific steps: the generic ones
}

TEST(ExplainSignatures, MalformedTomlIsAnInputErrorWithTheLine) {
  auto r = parse_signatures("[[signature]]\nid = \"x\"\nkind = ", "bad.toml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInput);
  EXPECT_NE(r.error().message.find("bad.toml"), std::string::npos);
}

TEST(ExplainSignatures, SignatureWithoutLiteralsIsRejected) {
  const std::string text = std::string(testing::kHarmlessFindingToml) + R"(
[[signature]]
id = "empty"
kind = "noise"
patterns = { all = [] }
meaning = "m"
examples = ["e"]
source = ["s"]
)";
  auto r = parse_signatures(text, "t.toml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("empty"), std::string::npos);
  EXPECT_NE(r.error().message.find("literal"), std::string::npos);
}

TEST(ExplainSignatures, ACheckIsATableWithRunAndMeans) {
  const std::string head = testing::kHarmlessFindingToml;
  auto ok = parse_signatures(head + "check = { run = 'nvidia-smi', means = 'fails' }\n", "t.toml");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->finding("harmless_warning_only")->check_run, "nvidia-smi");
  EXPECT_EQ(ok->finding("harmless_warning_only")->check_means, "fails");
  auto bare = parse_signatures(head + "check = 'nvidia-smi'\n", "t.toml");
  ASSERT_FALSE(bare);
  EXPECT_NE(bare.error().message.find("check"), std::string::npos);
  // A platform's own check replaces the generic one when the log names that platform.
  auto win = parse_signatures(head + "check = { run = 'A=1 cmd', means = 'm' }\ncheck_windows = { run = 'cmd', means = 'w' }\n",
                              "t.toml");
  ASSERT_TRUE(win) << win.error().message;
  EXPECT_EQ(win->finding("harmless_warning_only")->check_on("windows").first, "cmd");
  EXPECT_EQ(win->finding("harmless_warning_only")->check_on("linux").first, "A=1 cmd");
  EXPECT_EQ(win->finding("harmless_warning_only")->check_on("").second, "m");
  auto half = parse_signatures(head + "check = { run = 'nvidia-smi' }\n", "t.toml");
  ASSERT_FALSE(half);
  EXPECT_NE(half.error().message.find("means"), std::string::npos);
}

TEST(ExplainSignatures, UnknownFindingReferenceIsRejected) {
  const std::string text = std::string(testing::kHarmlessFindingToml) + R"(
[[signature]]
id = "x"
kind = "cause"
finding = "no_such_finding"
weight = 0.5
patterns = { any = ["abc"] }
meaning = "m"
examples = ["abc"]
source = ["s"]
)";
  auto r = parse_signatures(text, "t.toml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no_such_finding"), std::string::npos);
}

TEST(ExplainSignatures, AFindingsPlatformsAreLinuxWindowsOrMacos) {
  const std::string text = std::string(testing::kHarmlessFindingToml) + "platforms = [\"windows\", \"beos\"]\n";
  auto r = parse_signatures(text, "t.toml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("beos"), std::string::npos);
  // The shipped rows: the MSVC runtime is a Windows cause, WSL's libcuda a Linux one.
  const FindingInfo* msvc = testing::shipped_signatures().finding("msvc_runtime_missing");
  ASSERT_NE(msvc, nullptr);
  EXPECT_EQ(msvc->platforms, std::vector<std::string>{"windows"});
}

}  // namespace
}  // namespace tfgpu::explain
