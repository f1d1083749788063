// `tfgpu doctor` on the command line: --snapshot, the output formats, exit codes, and
// one clear line for bad input.
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "support/doctor_scenarios.h"
#include "util/error.h"

namespace tfgpu {
namespace {

struct DoctorRun {
  int code;
  std::string out;
  std::string err;
};

DoctorRun doctor(FakeHost& host, std::vector<std::string> args, bool tty = false) {
  std::ostringstream out, err;
  args.insert(args.begin(), "doctor");
  int code = run_cli(args, host, out, err, tty);
  return {code, out.str(), err.str()};
}

FakeHost host_with(const std::string& scenario) {
  FakeHost h;
  h.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/" + scenario + ".json"));
  return h;
}

TEST(DoctorCli, BlockersExitOneAndTheVerdictSaysWhy) {
  FakeHost h = host_with("win_classic_guide_tf212");
  DoctorRun r = doctor(h, {"--snapshot", "/s.json"});
  EXPECT_EQ(r.code, kExitProblems) << r.err;
  EXPECT_NE(r.out.find("will not use the GPU, because TensorFlow 2.12.0 on native Windows is CPU-only"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Fix A"), std::string::npos);
  EXPECT_NE(r.out.find("WSL2"), std::string::npos);
}

TEST(DoctorCli, NoBlockersExitZero) {
  FakeHost h = host_with("linux_pip_and_cuda_good");
  DoctorRun r = doctor(h, {"--snapshot", "/s.json"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("will use 1 GPU."), std::string::npos) << r.out;
}

TEST(DoctorCli, JsonIsParseableAndMatchesTheExitCode) {
  FakeHost h = host_with("linux_driver_too_old");
  DoctorRun r = doctor(h, {"--snapshot", "/s.json", "--json"});
  EXPECT_EQ(r.code, kExitProblems);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["verdicts"][0]["blocker_ids"][0], "driver_too_old");
}

TEST(DoctorCli, MarkdownIsRedacted) {
  FakeHost h = host_with("win_classic_guide_tf212");
  DoctorRun r = doctor(h, {"--snapshot", "/s.json", "--markdown"});
  EXPECT_EQ(r.out.find("alice"), std::string::npos);
  EXPECT_NE(r.out.find("C:\\Users\\<user>"), std::string::npos);
}

TEST(DoctorCli, NoColorOnATerminalWhenNoColorIsSet) {
  FakeHost h = host_with("win_classic_guide_tf212");
  EXPECT_NE(doctor(h, {"--snapshot", "/s.json"}, /*tty=*/true).out.find('\x1b'), std::string::npos);
  h.set_env("NO_COLOR", "1");
  EXPECT_EQ(doctor(h, {"--snapshot", "/s.json"}, /*tty=*/true).out.find('\x1b'), std::string::npos);
}

TEST(DoctorCli, MissingOrMalformedSnapshotIsAUsageErrorOnOneLine) {
  FakeHost h;
  h.add_file("/bad.json", "{\"schema_version\": 1, \"host\": 7}");
  h.add_file("/notjson.json", "\x7f" "ELF garbage");
  for (const char* f : {"/missing.json", "/bad.json", "/notjson.json"}) {
    DoctorRun r = doctor(h, {"--snapshot", f});
    EXPECT_EQ(r.code, kExitUsage) << f;
    EXPECT_EQ(r.err.find("tfgpu doctor: "), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

// Hostile input: truncations of a real snapshot never crash, they parse or fail cleanly.
TEST(DoctorCli, TruncatedSnapshotsNeverCrash) {
  std::string text = testing::read_text(testing::scenario_dir() + "/linux_conda_cudatoolkit_conflict.json");
  ASSERT_FALSE(text.empty());
  for (size_t cut = 0; cut < text.size(); cut += text.size() / 37 + 1) {
    FakeHost h;
    h.add_file("/t.json", text.substr(0, cut));
    DoctorRun r = doctor(h, {"--snapshot", "/t.json"});
    EXPECT_TRUE(r.code == kExitUsage || r.code == kExitOk || r.code == kExitProblems) << cut << ": " << r.err;
  }
}

// The status marks follow the locale: UTF-8 symbols where LC_ALL / LC_CTYPE / LANG names
// UTF-8, ASCII marks under LANG=C (or no locale at all on POSIX), LC_ALL first.
TEST(DoctorCli, StatusMarksAreAsciiWhenTheLocaleIsNotUtf8) {
  const std::string utf8_marks = "\u2717";  // ✗
  FakeHost c = host_with("win_classic_guide_tf212");
  c.set_env("LANG", "C");
  DoctorRun r = doctor(c, {"--snapshot", "/s.json"});
  EXPECT_NE(r.out.find("[x]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(utf8_marks), std::string::npos) << r.out;

  FakeHost u = host_with("win_classic_guide_tf212");
  u.set_env("LANG", "en_US.UTF-8");
  r = doctor(u, {"--snapshot", "/s.json"});
  EXPECT_NE(r.out.find(utf8_marks), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("[x]"), std::string::npos) << r.out;

  FakeHost a = host_with("win_classic_guide_tf212");
  a.set_env("LANG", "en_US.UTF-8").set_env("LC_ALL", "C");
  r = doctor(a, {"--snapshot", "/s.json"});
  EXPECT_NE(r.out.find("[x]"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tfgpu
