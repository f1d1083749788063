// The rule table itself: names and ids are unique and well-formed, and no rule
// concludes anything from a Snapshot in which nothing was probed.
#include <set>

#include <gtest/gtest.h>

#include "rules/rule_list.h"
#include "rules/rules.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

TEST(RuleTable, NamesAreUniqueAndEveryRuleDeclaresItsIds) {
  std::set<std::string> names;
  for (const auto& r : rule_table()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_FALSE(r.ids.empty()) << r.name;
    EXPECT_NE(r.run, nullptr) << r.name;
    for (const char* id : r.ids) EXPECT_EQ(std::string(id).find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_"), std::string::npos) << id;
  }
}

TEST(RuleTable, EmittedIdsAreDeclaredByTheRuleThatEmitsThem) {
  for (const auto& name : testing::scenario_names()) {
    Snapshot s = testing::load_scenario(name);
    for (const auto& r : rule_table())
      for (const auto& f : r.run(s, testing::test_kb())) {
        bool declared = false;
        for (const char* id : r.ids) declared = declared || f.id == id;
        EXPECT_TRUE(declared) << r.name << " emitted undeclared id " << f.id << " on " << name;
      }
  }
}

TEST(RuleTable, NothingProbedMeansNothingConcluded) {
  Snapshot s;  // every ProbeState is kNotProbed
  s.origin = "log";
  s.host.os = "linux";
  PythonEnv py;
  py.version = "3.10";
  py.tensorflow.push_back({"tensorflow", "2.15.0", "", {}, {}});
  s.pythons.push_back(py);
  EXPECT_TRUE(run_rules(s, testing::test_kb()).empty());
  s.host.os = "windows";
  s.pythons[0].tensorflow[0].version = "2.10.0";
  EXPECT_TRUE(run_rules(s, testing::test_kb()).empty());
}

TEST(RuleTable, BlockersComeFirstThenWarningsThenInfo) {
  auto f = run_rules(testing::load_scenario("win_cudart_missing"), testing::test_kb());
  for (size_t i = 1; i < f.size(); ++i) EXPECT_LE(f[i - 1].severity, f[i].severity) << f[i].id;
}

TEST(RuleTable, FundamentalRankFollowsTheTable) {
  EXPECT_LT(fundamental_rank("windows_native_gpu_unsupported_tf_ge_2_11"), fundamental_rank("cudnn_missing"));
  EXPECT_LT(fundamental_rank("driver_missing"), fundamental_rank("cudart_missing"));
  EXPECT_LT(fundamental_rank("no_nvidia_gpu"), fundamental_rank("driver_too_old"));
  EXPECT_GT(fundamental_rank("not_an_id"), fundamental_rank("tensorflow_not_installed"));
}

// Garbage values in well-typed fields (a hand-edited snapshot) give no crash.
TEST(RuleTable, GarbageFactsDoNotCrashAnyRule) {
  for (const char* name : {"linux_pip_and_cuda_good", "win_tf210_good", "wsl2_good"}) {
    Snapshot s = testing::load_scenario(name);
    s.driver.version = "not-a-version";
    s.driver.device_count = -7;
    for (auto& g : s.gpus) {
      g.compute_capability = "x.y";
      g.pci_id = "zzzz:qqqq";
    }
    for (auto& py : s.pythons) {
      py.version = "";
      for (auto& t : py.tensorflow) t.version = "banana";
      for (auto& p : py.packages) p.version = "..";
    }
    for (auto& l : s.libraries) {
      l.version = "9999999999999999999.1";
      l.path = "";
    }
    s.env["CUDA_VISIBLE_DEVICES"] = "99999999999999999999,GPU-";
    s.env["LD_LIBRARY_PATH"] = ":::";
    EXPECT_NO_THROW(run_rules(s, testing::test_kb())) << name;
  }
}

}  // namespace
}  // namespace tfgpu
