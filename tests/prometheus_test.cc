// `tfgpu probe --prometheus`: the doctor's judgement of every scenario as node_exporter
// textfile metrics (docs/prometheus.md). The values follow the verdicts and findings;
// prometheus_promtool_posix_test.cc checks the format with the real promtool.
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "report/prometheus.h"
#include "support/doctor_scenarios.h"
#include "util/error.h"

namespace tfgpu {
namespace {

std::string metrics_of(const std::string& scenario) {
  Snapshot s = testing::load_scenario(scenario);
  DoctorReport r = diagnose(s, testing::test_kb());
  std::string text = report::render_prometheus(r, "9.9.9");
  return text;
}

// The value of the one sample whose line starts with `prefix`.
std::optional<std::string> value_of(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::optional<std::string> found;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(prefix)) {
      EXPECT_FALSE(found) << "two samples start with " << prefix;
      found = line.substr(line.rfind(' ') + 1);
    }
  }
  return found;
}

TEST(Prometheus, HealthyPipInstallIsReadyWithItsGpuCount) {
  Snapshot s = testing::load_scenario("linux_pip_and_cuda_good");
  DoctorReport r = diagnose(s, testing::test_kb());
  ASSERT_FALSE(r.verdicts.empty());
  ASSERT_EQ(r.verdicts[0].kind, VerdictKind::kWillUseGpu);
  std::string m = report::render_prometheus(r, "9.9.9");
  std::string labels = "env=\"" + report::prometheus_label_value(r.verdicts[0].env) + "\",package=\"" +
                       r.verdicts[0].tf_package + "\",tf=\"" + r.verdicts[0].tf_version + "\",verdict=\"will_use_gpu\"";
  EXPECT_EQ(value_of(m, "tfgpu_tensorflow_gpu_ready{" + labels + "}"), "1") << m;
  EXPECT_EQ(value_of(m, "tfgpu_tensorflow_gpus{"), std::to_string(r.verdicts[0].gpu_count)) << m;
  EXPECT_EQ(value_of(m, "tfgpu_driver_loaded "), "1");
  EXPECT_EQ(value_of(m, "tfgpu_driver_info{version=\"" + s.driver.version + "\",cuda=\"" + s.driver.cuda_version + "\"}"),
            "1")
      << m;
  EXPECT_EQ(value_of(m, "tfgpu_findings_by_severity{severity=\"blocker\"}"), "0");
  EXPECT_EQ(value_of(m, "tfgpu_info{version=\"9.9.9\"}"), "1");
}

TEST(Prometheus, BrokenMachineIsNotReadyAndCountsItsBlockersById) {
  Snapshot s = testing::load_scenario("linux_driver_too_old");
  DoctorReport r = diagnose(s, testing::test_kb());
  std::string m = report::render_prometheus(r, "9.9.9");
  ASSERT_FALSE(r.verdicts.empty());
  EXPECT_EQ(r.verdicts[0].kind, VerdictKind::kWillNotUseGpu);
  EXPECT_NE(m.find("verdict=\"will_not_use_gpu\"} 0\n"), std::string::npos) << m;
  int blockers = 0;
  for (const auto& f : r.findings) blockers += f.severity == Severity::kBlocker;
  ASSERT_GT(blockers, 0);
  EXPECT_EQ(value_of(m, "tfgpu_findings_by_severity{severity=\"blocker\"}"), std::to_string(blockers));
  for (const auto& f : r.findings)
    EXPECT_NE(m.find("tfgpu_findings{id=\"" + f.id + "\",severity=\"" + to_string(f.severity) + "\""), std::string::npos)
        << f.id;
}

TEST(Prometheus, NoDriverNoGpuNoTensorflowStillWritesTheMachineFamilies) {
  std::string m = metrics_of("linux_no_gpu_no_tf");
  EXPECT_EQ(value_of(m, "tfgpu_tensorflow_environments "), "0");
  EXPECT_EQ(m.find("tfgpu_tensorflow_gpu_ready"), std::string::npos);  // no environment, no series
  EXPECT_EQ(value_of(m, "tfgpu_driver_loaded "), "0");
  EXPECT_EQ(value_of(m, "tfgpu_gpus "), "0");
}

// Every family has HELP and TYPE before its samples, every line is a comment or a
// sample with a numeric value, and every scenario's output passes this.
TEST(Prometheus, EveryScenarioIsWellFormedExposition) {
  const std::regex sample(R"(^([a-z_]+)(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? -?[0-9.e+]+$)");
  for (const auto& name : testing::scenario_names()) {
    std::string m = metrics_of(name);
    std::set<std::string> typed;
    std::istringstream in(m);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("# TYPE ")) {
        typed.insert(line.substr(7, line.find(' ', 7) - 7));
        continue;
      }
      if (line.starts_with("# HELP ")) continue;
      std::smatch mm;
      ASSERT_TRUE(std::regex_match(line, mm, sample)) << name << ": " << line;
      EXPECT_TRUE(typed.count(mm[1].str())) << name << ": sample before its TYPE: " << line;
    }
  }
}

TEST(Prometheus, LabelValuesAreEscapedAndValidUtf8) {
  EXPECT_EQ(report::prometheus_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(report::prometheus_label_value("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(report::prometheus_label_value("x\xff" "y"), "x\xef\xbf\xbdy");        // invalid byte
  EXPECT_EQ(report::prometheus_label_value("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");  // overlong '/'
  EXPECT_EQ(report::prometheus_label_value("\x1b[31m"), "\xef\xbf\xbd[31m");        // control
  EXPECT_EQ(report::prometheus_label_value("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // cut short
}

TEST(Prometheus, ProbeFlagRefusesJsonAndMarkdown) {
  FakeHost host;
  // --markdown is refused by probe as such (it is not one of probe's outputs); --json is
  // an output of probe, and refused together with --prometheus.
  for (const char* fmt : {"--json", "--markdown"}) {
    std::ostringstream out, err;
    int code = run_cli({fmt, "probe", "--prometheus"}, host, out, err, false);
    EXPECT_EQ(code, kExitUsage) << fmt;
    EXPECT_NE(err.str().find(fmt == std::string("--json") ? "--prometheus" : "--markdown"), std::string::npos)
        << err.str();
    EXPECT_EQ(out.str(), "");
  }
}

TEST(Prometheus, ProbeWritesMetricsOfThisMachine) {
  FakeHost host;  // an empty machine: no GPU, no driver, no Python
  std::ostringstream out, err;
  int code = run_cli({"probe", "--prometheus"}, host, out, err, false);
  EXPECT_EQ(code, kExitOk) << err.str();
  EXPECT_NE(out.str().find("# TYPE tfgpu_info gauge\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("tfgpu_driver_loaded 0\n"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace tfgpu
