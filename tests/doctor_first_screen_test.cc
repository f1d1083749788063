// Doctor's first screen as a user reads it: with a blocker the findings come first, the
// layer marks agree with the verdict, and the Keras next to TensorFlow is shown.
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

std::string doctor_text(const std::string& scenario, const std::string& lang = "C.UTF-8") {
  FakeHost host;
  host.set_env("LANG", lang);
  host.set_env("COLUMNS", "400");  // one line per fact: the assertions read whole lines
  host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/" + scenario + ".json"));
  std::ostringstream out, err;
  run_cli({"doctor", "--snapshot", "/s.json"}, host, out, err);
  return out.str();
}

TEST(DoctorFirstScreen, WithABlockerTheFindingsComeBeforeTheMachine) {
  std::string t = doctor_text("win_classic_guide_tf212");
  size_t findings = t.find("Findings");
  size_t machine = t.find("Machine");
  size_t verdict = t.find("Verdict");
  ASSERT_NE(findings, std::string::npos) << t;
  ASSERT_NE(machine, std::string::npos) << t;
  EXPECT_LT(findings, machine);
  EXPECT_LT(machine, verdict);
  EXPECT_LT(t.find("windows_native_gpu_unsupported_tf_ge_2_11"), t.find("hardware"));
}

TEST(DoctorFirstScreen, WithoutABlockerTheMachineComesFirst) {
  std::string t = doctor_text("linux_pip_and_cuda_good");
  EXPECT_EQ(t.find("Machine"), std::string::npos) << t;
  EXPECT_LT(t.find("hardware"), t.find("Verdict"));
}

TEST(DoctorFirstScreen, FrameworkIsNotMarkedOkWhenNoEnvironmentHasTensorflow) {
  std::string t = doctor_text("linux_no_gpu_no_tf");
  EXPECT_NE(t.find("! framework"), std::string::npos) << t;
  EXPECT_EQ(t.find("✓ framework"), std::string::npos) << t;
  std::string ascii = doctor_text("linux_no_gpu_no_tf", "C");
  EXPECT_NE(ascii.find("[!]  framework"), std::string::npos) << ascii;
}

TEST(DoctorFirstScreen, KerasNextToTensorflowIsShown) {
  std::string t = doctor_text("real_tf2161_cuda_as_installed");
  EXPECT_NE(t.find("tensorflow 2.16.1, keras 3.15.1"), std::string::npos) << t;
}

}  // namespace
}  // namespace tfgpu
