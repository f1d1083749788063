// The metrics of every scenario, and of the real `tfgpu probe --prometheus` on this
// machine, pass Prometheus's own linter: `promtool check metrics` (Debian's `prometheus`
// package, installed by scripts/setup.sh).
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "report/prometheus.h"
#include "support/doctor_scenarios.h"
#include "support/shell_posix.h"

namespace tfgpu {
namespace {

bool have_promtool() { return testing::run_shell("command -v promtool").code == 0; }

std::string temp_file(const std::string& text) {
  char name[] = "/tmp/tfgpu-prom-XXXXXX";
  int fd = mkstemp(name);
  EXPECT_GE(fd, 0);
  close(fd);
  std::ofstream(name, std::ios::binary) << text;
  return name;
}

TEST(PrometheusPromtool, EveryScenarioPassesCheckMetrics) {
  if (!have_promtool()) GTEST_SKIP() << "promtool not installed (scripts/setup.sh installs Debian's prometheus)";
  for (const auto& name : testing::scenario_names()) {
    Snapshot s = testing::load_scenario(name);
    std::string path = temp_file(report::render_prometheus(diagnose(s, testing::test_kb()), "1.2.3"));
    auto r = testing::run_shell("promtool check metrics < " + path);
    EXPECT_EQ(r.code, 0) << name << ":\n" << r.out;
    std::remove(path.c_str());
  }
}

TEST(PrometheusPromtool, RealProbeOfThisMachinePassesCheckMetrics) {
  if (!have_promtool()) GTEST_SKIP() << "promtool not installed (scripts/setup.sh installs Debian's prometheus)";
  std::string path = temp_file("");
  auto probe = testing::run_shell(std::string(TFGPU_EXE) + " probe --prometheus --out " + path);
  ASSERT_EQ(probe.code, 0) << probe.out;
  auto r = testing::run_shell("promtool check metrics < " + path);
  EXPECT_EQ(r.code, 0) << r.out;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tfgpu
