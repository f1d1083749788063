// The doctor's renderers: colour only when asked, Markdown redacts what identifies a
// person or a card, JSON carries the documented fields.
#include <gtest/gtest.h>

#include "report/doctor_report.h"
#include "support/doctor_scenarios.h"
#include "util/terminal_text.h"

namespace tfgpu {
namespace {

TEST(DoctorRedact, ReplacesUserNamesInHomePaths) {
  EXPECT_EQ(redact("/home/alice/tf/bin/python3"), "/home/<user>/tf/bin/python3");
  EXPECT_EQ(redact("C:\\Users\\Bob Smith\\miniconda3"), "C:\\Users\\<user>\\miniconda3");
  EXPECT_EQ(redact("c:/users/bob/x"), "c:/users/<user>/x");
  EXPECT_EQ(redact("\"C:\\\\Users\\\\bob\\\\envs\""), "\"C:\\\\Users\\\\<user>\\\\envs\"");
  EXPECT_EQ(redact("/Users/carol/venv"), "/Users/<user>/venv");
  EXPECT_EQ(redact("/usr/local/cuda-11.8/lib64"), "/usr/local/cuda-11.8/lib64");
}

TEST(DoctorRedact, ReplacesGpuUuids) {
  EXPECT_EQ(redact("uuid GPU-5f1c8a3e-2b7d-4c9a-8e61-0d3f4b2a9c7e end"), "uuid GPU-<redacted> end");
  EXPECT_EQ(redact("MIG-5f1c8a3e-2b7d-4c9a-8e61-0d3f4b2a9c7e"), "MIG-<redacted>");
  EXPECT_EQ(redact("GPU-0"), "GPU-0");
}

TEST(Redactor, UserNamesAsAnyPathComponentHostNamesAsWordsAndHomesByTheirLastComponent) {
  report::Redactor r;
  r.add_user("alice");
  r.add_home("/srv/users/u123/");
  r.add_host("gpu01.lab.example.com");
  EXPECT_EQ(r.apply("/data/alice/venv:/mnt/alice:C:\\alice\\x"), "/data/<user>/venv:/mnt/<user>:C:\\<user>\\x");
  EXPECT_EQ(r.apply("/srv/users/u123/tf/bin/python3"), "/srv/users/<user>/tf/bin/python3");
  EXPECT_EQ(r.apply("/opt/alicex/lib and alice's"), "/opt/alicex/lib and alice's") << "only whole path components";
  EXPECT_EQ(r.apply("alice@gpu01:~$ on gpu01.lab.example.com"), "alice@<host>:~$ on <host>");
  EXPECT_EQ(r.apply("/home/bob/x GPU-5f1c8a3e-2b7d-4c9a-8e61-0d3f4b2a9c7e"), "/home/<user>/x GPU-<redacted>");
  report::Redactor learned;
  learned.learn_from("/home/carol/miniconda3 and C:\\Users\\Bob Smith\\x");
  EXPECT_EQ(learned.apply("/scratch/carol/data"), "/scratch/<user>/data") << "a user seen in one home path";
  report::Redactor none;
  none.add_host("localhost");
  none.add_user("a");
  EXPECT_TRUE(none.hosts.empty());
  EXPECT_TRUE(none.users.empty());
}

TEST(DoctorMarkdown, HasNoUserNameAndNoUuid) {
  for (const char* name : {"win_classic_guide_tf212", "linux_pip_and_cuda_good", "macos_tf216"}) {
    Snapshot s = testing::load_scenario(name);
    std::string md = render_doctor_markdown(diagnose(s, testing::test_kb()));
    EXPECT_EQ(md.find("alice"), std::string::npos) << name;
    EXPECT_EQ(md.find("/home/bob"), std::string::npos) << name;
    EXPECT_EQ(md.find("carol"), std::string::npos) << name;
    EXPECT_EQ(md.find("5f1c8a3e"), std::string::npos) << name;
    EXPECT_NE(md.find("**Verdict:**"), std::string::npos) << name;
  }
}

TEST(DoctorText, ColourOnlyWhenAsked) {
  Snapshot s = testing::load_scenario("win_classic_guide_tf212");
  DoctorReport r = diagnose(s, testing::test_kb());
  EXPECT_EQ(render_doctor_text(r, Color::kOff).find('\x1b'), std::string::npos);
  EXPECT_NE(render_doctor_text(r, Color::kOn).find(sgr("31")), std::string::npos);
}

TEST(DoctorText, WithABlockerShowsFindingsThenTheFourLayersThenTheVerdict) {
  Snapshot s = testing::load_scenario("win_classic_guide_tf212");
  std::string t = render_doctor_text(diagnose(s, testing::test_kb()), Color::kOff);
  size_t findings = t.find("Findings"), machine = t.find("\nMachine\n");
  size_t hw = t.find("hardware", machine), drv = t.find("driver ", machine), rt = t.find("runtime", machine),
         fw = t.find("framework", machine), verdict = t.find("Verdict");
  ASSERT_NE(machine, std::string::npos);
  EXPECT_LT(findings, machine);
  EXPECT_LT(hw, drv);
  EXPECT_LT(drv, rt);
  EXPECT_LT(rt, fw);
  EXPECT_LT(fw, verdict);
  EXPECT_NE(t.find("✗ framework"), std::string::npos);
  EXPECT_NE(t.find("✓ driver"), std::string::npos);
}

TEST(DoctorJson, CarriesFindingsVerdictsAndExitCode) {
  Snapshot s = testing::load_scenario("win_classic_guide_tf212");
  auto j = doctor_to_json(diagnose(s, testing::test_kb()));
  EXPECT_EQ(j["schema_version"], kDoctorJsonSchemaVersion);
  EXPECT_EQ(j["exit_code"], 1);
  ASSERT_EQ(j["layers"].size(), 4u);
  EXPECT_EQ(j["layers"][3]["layer"], "framework");
  EXPECT_EQ(j["layers"][3]["status"], "blocked");
  ASSERT_GE(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["id"], "windows_native_gpu_unsupported_tf_ge_2_11");
  EXPECT_EQ(j["findings"][0]["severity"], "blocker");
  EXPECT_EQ(j["verdicts"][0]["kind"], "will_not_use_gpu");
}

// The first screen: plain interpreters without TensorFlow (pyenv, PATH) collapse into one
// line when there are three or more; environments with TF, the active one and named
// venvs / conda envs stay.
TEST(DoctorLayers, PlainPythonsWithoutTensorflowCollapseIntoOneLine) {
  Snapshot s = testing::load_scenario("linux_pip_and_cuda_good");
  for (int i = 0; i < 5; ++i) {
    PythonEnv py;
    py.executable = "/home/u/.pyenv/versions/3.1" + std::to_string(i) + ".0/bin/python3";
    py.kind = "pyenv";
    py.version = "3.1" + std::to_string(i) + ".0";
    s.pythons.push_back(py);
  }
  PythonEnv named;
  named.executable = "/home/u/proj/.venv/bin/python";
  named.kind = "venv";
  named.name = ".venv";
  named.version = "3.11.7";
  s.pythons.push_back(named);
  auto layers = summarize_layers(s, {});
  const auto& fw = layers[3].facts;
  std::string all;
  for (const auto& l : fw) all += l + "\n";
  EXPECT_NE(all.find("+5 more Pythons without TensorFlow"), std::string::npos) << all;
  EXPECT_EQ(all.find("3.12.0"), std::string::npos) << all;
  EXPECT_NE(all.find("venv '.venv'"), std::string::npos) << all;
  EXPECT_NE(all.find("tensorflow"), std::string::npos) << all;
}

}  // namespace
}  // namespace tfgpu
