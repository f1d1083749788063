// explain on real TensorFlow's own logs: tests/scenarios/real_<layout>.tf.log is what real TF
// (1.15, 2.10, 2.12, 2.16.1, 2.21 from PyPI, the mock driver; two runs with TF's profiler
// started, whose CUPTI messages are not a problem) logged in a layout of the real tier, recorded
// by tests/real/record_scenarios.py (numpy_abi.py for real_numpy2_tf212) next to that
// layout's probe snapshot and what TF did (real_<layout>.expect.json). Fed only the log, explain must
//   - find nothing to fix where TF registered the GPU (a TensorRT warning is not a problem);
//   - where TF did not, name among its first three findings the cause the layout is defined
//     by (the recording's findings_include) or else what doctor names for the same machine
//     (doctor is checked against the same TF run library by library in
//     doctor_scenarios_test), and never answer "only harmless messages".
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "explain/explain.h"
#include "report/doctor_report.h"
#include "rules/rules.h"
#include "support/doctor_scenarios.h"
#include "support/shipped_kb.h"

namespace tfgpu::explain {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> real_logs() {
  std::vector<std::string> out;
  for (const auto& name : testing::scenario_names())
    if (fs::exists(fs::path(testing::scenario_dir()) / (name + ".tf.log"))) out.push_back(name);
  return out;
}

std::string listing(const ExplainResult& r) {
  std::string s;
  for (const auto& f : r.findings) s += fmt::format(" {}={:.2f}", f.id, f.score);
  return s.empty() ? " (nothing)" : s;
}

class ExplainRealLog : public ::testing::TestWithParam<std::string> {};

TEST_P(ExplainRealLog, AgreesWithWhatTensorflowDidAndWithDoctor) {
  const std::string name = GetParam();
  const std::string log = testing::read_text((fs::path(testing::scenario_dir()) / (name + ".tf.log")).string());
  ASSERT_FALSE(log.empty()) << name;
  const nlohmann::json want = testing::load_expectation(name);
  ASSERT_TRUE(want.contains("tf_verdict")) << name << ": not a scenario recorded from real TensorFlow";
  ExplainResult r = explain_text(log, testing::shipped_signatures(), &testing::shipped_kb());

  if (want["tf_verdict"] == "will_use_gpu") {
    for (const auto& f : r.findings)
      EXPECT_TRUE(f.id == "harmless_warning_only" || f.score < 0.5)
          << name << ": TF registered the GPU, explain says" << listing(r);
    return;
  }
  ASSERT_FALSE(r.findings.empty()) << name << ": TF did not register the GPU, explain finds nothing";
  EXPECT_NE(r.findings.front().id, "harmless_warning_only") << name << listing(r);

  // The cause: what the layout is defined by where the recording says (NumPy 2 under TF 2.12,
  // no NVML; a blocker, not a note such as tensorrt_not_found), else doctor's first blocker
  // for that environment.
  std::string cause;
  DoctorReport d = diagnose(testing::load_scenario(name), testing::test_kb());
  for (const auto& id : want.value("findings_include", nlohmann::json::array()))
    for (const auto& f : d.findings)
      if (cause.empty() && f.id == id.get<std::string>() && f.severity == Severity::kBlocker) cause = f.id;
  if (cause.empty()) {
    const Verdict* v = testing::verdict_for(d, want["env_contains"].get<std::string>());
    ASSERT_NE(v, nullptr) << name;
    ASSERT_FALSE(v->blocker_ids.empty()) << name << ": " << v->sentence;
    cause = v->blocker_ids.front();
  }
  bool in_top3 = false;
  for (size_t i = 0; i < r.findings.size() && i < 3; ++i) in_top3 = in_top3 || r.findings[i].id == cause;
  EXPECT_TRUE(in_top3) << name << ": the cause is " << cause << "; explain says" << listing(r);
}

INSTANTIATE_TEST_SUITE_P(RealTensorflow, ExplainRealLog, ::testing::ValuesIn(real_logs()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// tests/real_logs: real TF's own log of a layout a cause defines (tests/real/release_sweep.py
// --layouts causes: a GPU of compute capability 3.0, a toolkit without cuDNN, no driver), for
// every release 2.5-2.21 (tests/real_logs/README.md). The same fact in each release's own words:
// explain must put the cause first.
std::string real_logs_dir() { return std::string(TFGPU_SOURCE_DIR) + "/tests/real_logs"; }

std::vector<std::string> cause_logs() {
  std::vector<std::string> out;
  if (!fs::exists(real_logs_dir())) return out;
  for (const auto& e : fs::directory_iterator(real_logs_dir())) {
    const std::string f = e.path().filename().string();
    if (f.size() > 7 && f.ends_with(".tf.log")) out.push_back(f.substr(0, f.size() - 7));
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ExplainCauseLog : public ::testing::TestWithParam<std::string> {};

TEST_P(ExplainCauseLog, PutsTheCauseTheLayoutDefinesFirst) {
  const std::string name = GetParam();
  const std::string log = testing::read_text(real_logs_dir() + "/" + name + ".tf.log");
  ASSERT_FALSE(log.empty()) << name;
  const nlohmann::json want =
      nlohmann::json::parse(testing::read_text(real_logs_dir() + "/" + name + ".expect.json"), nullptr, false);
  ASSERT_TRUE(want.is_object() && want.contains("cause")) << name << ".expect.json";
  EXPECT_EQ(want["tf_verdict"], "will_not_use_gpu") << name << ": the layout was meant to keep TF off the GPU";
  ExplainResult r = explain_text(log, testing::shipped_signatures(), &testing::shipped_kb());
  ASSERT_FALSE(r.findings.empty()) << name << ": explain finds nothing";
  EXPECT_EQ(r.findings.front().id, want["cause"].get<std::string>()) << name << ": explain says" << listing(r);
}

INSTANTIATE_TEST_SUITE_P(RealTensorflow, ExplainCauseLog, ::testing::ValuesIn(cause_logs()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(ExplainRealLogs, EveryCauseLogHasItsExpectation) {
  const auto logs = cause_logs();
  EXPECT_GE(logs.size(), 52u)
      << "re-record: tests/real/release_sweep.py --layouts causes --record (and record_wheel_swap.py)";
  for (const auto& name : logs) EXPECT_TRUE(fs::exists(real_logs_dir() + "/" + name + ".expect.json")) << name;
}

TEST(ExplainRealLogs, AtLogLevel2TensorflowsSilenceAboutCudaIsNoEvidence) {
  // Real TF 2.10.1 with the mock driver and no CUDA (tests/real_logs/README.md): at level 0
  // it names every library it could not load; at level 2 none.
  const std::string dir = real_logs_dir() + "/log_level/";
  const std::string level0 = testing::read_text(dir + "real_rel210_level0.tf.log");
  const std::string level2 = testing::read_text(dir + "real_rel210_level2.tf.log");
  ASSERT_NE(level0.find("Could not load dynamic library 'libcudart.so.11.0'"), std::string::npos);
  ASSERT_FALSE(level2.empty());
  EXPECT_EQ(level2.find("Could not load dynamic library"), std::string::npos);
  auto first = [](const ExplainResult& r) {
    return r.findings.empty() ? std::string("(none)") : r.findings.front().id;
  };
  auto score = [](const ExplainResult& r, std::string_view id) {
    for (const auto& f : r.findings)
      if (f.id == id) return f.score;
    return 0.0;
  };
  const auto& sigs = testing::shipped_signatures();
  const auto* kb = &testing::shipped_kb();
  EXPECT_EQ(first(explain_text(level0, sigs, kb)), "cudart_missing");
  // The level-2 log alone, with the GPU said unused: TF's silence reads as a CPU-only package.
  const std::string unused = "The GPU (an RTX 3060) is not used.\n";
  EXPECT_EQ(first(explain_text(level2 + unused, sigs, kb)), "wrong_package");
  // With the setting that hid the warnings in the report, that silence is no evidence.
  auto hidden = explain_text("os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'\n" + level2 + unused, sigs, kb);
  EXPECT_NE(first(hidden), "wrong_package");
  EXPECT_LT(score(hidden, "wrong_package"), 0.25);
}

TEST(ExplainRealLogs, EveryRealScenarioHasItsLog) {
  size_t real = 0;
  for (const auto& name : testing::scenario_names())
    if (name.rfind("real_", 0) == 0) ++real;
  EXPECT_GE(real, 8u);
  EXPECT_EQ(real_logs().size(), real) << "re-record: tests/real/record_scenarios.py";
}

}  // namespace
}  // namespace tfgpu::explain
