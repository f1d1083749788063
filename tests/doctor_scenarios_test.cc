// Scenario tests: every snapshot in tests/scenarios gives exactly the expected finding
// ids and verdicts (tests/scenarios/<name>.expect.json; recipe: make_scenarios.py).
#include <filesystem>

#include <gtest/gtest.h>

#include "report/doctor_report.h"
#include "rules/rules.h"
#include "support/doctor_scenarios.h"
#include "util/strings.h"

namespace tfgpu {
namespace {

using testing::ids;
using testing::load_expectation;
using testing::load_scenario;
using testing::scenario_names;
using testing::test_kb;

class DoctorScenario : public ::testing::TestWithParam<std::string> {};

// A scenario recorded from a real probe (tests/real/record_scenarios.py) expects what real
// TensorFlow did in that environment: the verdict for that env, and per library whether TF
// loaded it (from which file) or could not; plus ids the layout is defined by.
void expect_what_real_tensorflow_did(const std::string& name, const DoctorReport& r, const nlohmann::json& want) {
  const std::string env = want["env_contains"].get<std::string>();
  const Verdict* v = testing::verdict_for(r, env);
  ASSERT_NE(v, nullptr) << name << ": no verdict for " << env;
  EXPECT_EQ(to_string(v->kind), want["tf_verdict"].get<std::string>()) << name << ": " << v->sentence;
  for (const auto& [file, tf] : want["libraries"].items()) {
    const VerdictLibrary* lib = nullptr;
    for (const auto& l : v->libraries)
      if (l.file == file) lib = &l;
    if (tf["tf"] == "loaded") {
      ASSERT_NE(lib, nullptr) << name << ": TF loaded " << file << ", doctor does not list it";
      EXPECT_EQ(lib->outcome, "found") << name << ": " << file << ": TF: " << tf["words"] << "; doctor: " << lib->why;
      std::string tf_path = tf.value("path", "");
      if (!tf_path.empty() && lib->outcome == "found")
        EXPECT_EQ(std::filesystem::path(lib->path).lexically_normal(), std::filesystem::path(tf_path).lexically_normal())
            << name << ": " << file;
    } else if (lib) {  // TF could not load it (a name TF tries that doctor does not list decides nothing here)
      EXPECT_EQ(lib->outcome, "not_found") << name << ": " << file << ": TF: " << tf["words"] << "; doctor: " << lib->path;
    }
  }
  std::set<std::string> got = ids(r.findings);
  for (const auto& id : want.value("findings_include", nlohmann::json::array()))
    EXPECT_TRUE(got.count(id.get<std::string>())) << name << ": expected finding " << id;
}

TEST_P(DoctorScenario, FindingsAndVerdictsAreTheExpectedOnes) {
  const std::string name = GetParam();
  Snapshot s = load_scenario(name);
  nlohmann::json want = load_expectation(name);
  ASSERT_TRUE(want.is_object()) << name << ".expect.json missing or malformed";
  DoctorReport r = diagnose(s, test_kb());
  if (want.contains("tf_verdict")) return expect_what_real_tensorflow_did(name, r, want);

  std::set<std::string> want_ids;
  for (const auto& id : want["findings"]) want_ids.insert(id.get<std::string>());
  std::string listing;
  for (const auto& f : r.findings) listing += "\n  " + f.id + " [" + to_string(f.severity) + "] " + f.title;
  EXPECT_EQ(ids(r.findings), want_ids) << name << ": " << want["description"].get<std::string>() << listing;

  ASSERT_EQ(r.verdicts.size(), want["verdicts"].size()) << name;
  for (size_t i = 0; i < r.verdicts.size(); ++i) {
    const auto& v = r.verdicts[i];
    const auto& w = want["verdicts"][i];
    EXPECT_EQ(to_string(v.kind), w["kind"].get<std::string>()) << name << ": " << v.sentence;
    if (w.contains("gpu_count")) EXPECT_EQ(v.gpu_count, w["gpu_count"].get<int>()) << name;
    if (w.contains("blocker_ids_start")) {
      auto start = w["blocker_ids_start"].get<std::vector<std::string>>();
      ASSERT_GE(v.blocker_ids.size(), start.size()) << name << ": " << v.sentence;
      for (size_t k = 0; k < start.size(); ++k) EXPECT_EQ(v.blocker_ids[k], start[k]) << name << ": " << v.sentence;
    }
    EXPECT_FALSE(v.sentence.empty());
  }
  EXPECT_EQ(r.exit_code, want["exit_code"].get<int>()) << name;
}

TEST_P(DoctorScenario, EveryBlockerAndWarningSaysWhyAndHowToFixIt) {
  DoctorReport r = diagnose(load_scenario(GetParam()), test_kb());
  for (const auto& f : r.findings) {
    EXPECT_FALSE(f.title.empty()) << f.id;
    EXPECT_FALSE(f.evidence.empty()) << f.id << ": no evidence";
    for (const auto& e : f.evidence) EXPECT_FALSE(e.source.empty()) << f.id << ": evidence without a source: " << e.fact;
    if (f.severity != Severity::kInfo) EXPECT_FALSE(f.fix.empty()) << f.id << ": no fix";
  }
}

// A fixture the real probe cannot produce is a guess (issue 12): every scenario says where
// it comes from: recorded by the real probe (how, on what), or written by hand (and why it
// could not be recorded).
TEST_P(DoctorScenario, SaysWhereItComesFrom) {
  const std::string name = GetParam();
  nlohmann::json want = load_expectation(name);
  ASSERT_TRUE(want.contains("provenance") && want["provenance"].is_object()) << name << ": no provenance";
  const auto& p = want["provenance"];
  std::string kind = p.value("kind", "");
  EXPECT_TRUE(kind == "real-probe" || kind == "hand-written") << name << ": provenance kind '" << kind << "'";
  EXPECT_GE(p.value("reason", "").size(), 20u) << name << ": say how it was recorded, or why it is hand-written";
  if (kind == "real-probe") EXPECT_TRUE(starts_with(name, "real_")) << name << ": recorded scenarios are named real_*";
}

INSTANTIATE_TEST_SUITE_P(All, DoctorScenario, ::testing::ValuesIn(scenario_names()),
                         [](const auto& info) { return info.param; });

TEST(DoctorScenarios, AtLeastThirtyAcrossWindowsLinuxWsl2AndMacos) {
  auto names = scenario_names();
  EXPECT_GE(names.size(), 30u);
  int win = 0, linux = 0, wsl = 0, mac = 0, conda = 0, and_cuda = 0;
  for (const auto& n : names) {
    Snapshot s = load_scenario(n);
    if (s.host.os == "windows") ++win;
    if (s.host.os == "linux" && s.host.wsl2 != Tri::kYes) ++linux;
    if (s.host.wsl2 == Tri::kYes) ++wsl;
    if (s.host.os == "macos") ++mac;
    for (const auto& py : s.pythons) {
      conda += py.kind == "conda";
      for (const auto& p : py.packages) and_cuda += p.name == "nvidia-cudnn-cu12";
    }
  }
  EXPECT_GE(win, 8);
  EXPECT_GE(linux, 12);
  EXPECT_GE(wsl, 3);
  EXPECT_GE(mac, 1);
  EXPECT_GE(conda, 3);
  EXPECT_GE(and_cuda, 5);
}

// Every cause id of the shared vocabulary that a Snapshot can show is produced by some
// rule and expected by some scenario. (`oom` and `harmless_warning_only` exist only in logs.)
TEST(DoctorScenarios, CoverTheCauseVocabulary) {
  // ../shared next to the repository (a git worktree sits one level deeper).
  std::string readme = testing::read_text(std::string(TFGPU_SOURCE_DIR) + "/../shared/cases/README.md");
  if (readme.empty()) readme = testing::read_text(std::string(TFGPU_SOURCE_DIR) + "/../../shared/cases/README.md");
  if (readme.empty()) GTEST_SKIP() << "../shared/cases/README.md not found next to the repository";
  std::set<std::string> expected_somewhere;
  for (const auto& n : scenario_names()) {
    nlohmann::json want = load_expectation(n);  // kept alive: a range-for over a temporary's member dangles
    for (const auto& key : {"findings", "findings_include"})
      if (want.contains(key))
        for (const auto& id : want[key]) expected_somewhere.insert(id.get<std::string>());
  }
  std::set<std::string> in_table;
  for (const auto& r : rule_table())
    for (const char* id : r.ids) in_table.insert(id);
  int seen = 0;
  for (const auto& line : split(readme, '\n')) {
    if (!starts_with(line, "| `")) continue;
    std::string id = line.substr(3, line.find('`', 3) - 3);
    if (id == "oom" || id == "harmless_warning_only") continue;
    // Added to the vocabulary with issue 14 (explain); the doctor rules that could also see
    // them in a snapshot (ptxas version vs GPU, NumPy 2 with TF < 2.18, cuInit after suspend)
    // are not built yet: tracked there, not hidden here.
    if (id == "ptxas_too_old" || id == "numpy_abi_mismatch" || id == "uvm_stale_after_suspend") continue;
    ++seen;
    EXPECT_TRUE(in_table.count(id)) << id << " is in the vocabulary but no rule emits it";
    EXPECT_TRUE(expected_somewhere.count(id)) << id << " is in the vocabulary but no scenario expects it";
  }
  EXPECT_GE(seen, 20);
  // And every id the rule table declares is exercised by a scenario.
  for (const auto& id : in_table) EXPECT_TRUE(expected_somewhere.count(id)) << id << " is never expected by a scenario";
}

}  // namespace
}  // namespace tfgpu
