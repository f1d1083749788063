// `tfgpu doctor` on the command line: --snapshot, the output formats, exit codes, and
// one clear line for bad input.
#include <sstream>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
  h.set_env("COLUMNS", "1000");  // sentences on one line: the assertions search whole sentences
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

// A snapshot is untrusted input from another machine: a GPU name holding an OSC title
// change (ESC]0;...BEL) and a screen clear (ESC[2J) reaches the terminal escaped, in
// text and Markdown, with and without colour.
TEST(DoctorCli, EscapeSequencesInASnapshotNeverReachTheTerminal) {
  std::string text = testing::read_text(testing::scenario_dir() + "/win_classic_guide_tf212.json");
  auto j = nlohmann::json::parse(text);
  ASSERT_TRUE(j["gpus"].is_array() && !j["gpus"].empty());
  j["gpus"][0]["name"] = "NVIDIA \x1b]0;owned\x07\x1b[2J\u009b31m GeForce";
  j["driver"]["version"] = "522.06\x1b[8m";
  FakeHost h;
  h.add_file("/s.json", j.dump());
  for (auto args : std::vector<std::vector<std::string>>{{"--snapshot", "/s.json"},
                                                       {"--snapshot", "/s.json", "--markdown"},
                                                       {"--snapshot", "/s.json", "--color", "always"},
                                                       {"--snapshot", "/s.json", "--json"}}) {
    DoctorRun r = doctor(h, args, /*tty=*/true);
    EXPECT_EQ(r.out.find("\x1b]"), std::string::npos) << args.back();
    EXPECT_EQ(r.out.find("\x1b[2J"), std::string::npos) << args.back();
    EXPECT_EQ(r.out.find("\x1b[8m"), std::string::npos) << args.back();
    EXPECT_EQ(r.out.find("\x07"), std::string::npos) << args.back();
    EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos) << args.back();
  }
  DoctorRun r = doctor(h, {"--snapshot", "/s.json"});
  EXPECT_NE(r.out.find("NVIDIA \\x1b]0;owned\\x07\\x1b[2J\\u009b31m GeForce"), std::string::npos) << r.out;
}

// Markdown is redacted with this machine's names too: a home outside /home (HOME=/data/alice),
// the user name as any path component, the host name; and the --log content with it.
TEST(DoctorCli, MarkdownHidesTheLocalUserHostAndHomeAlsoInTheLog) {
  std::string text = testing::read_text(testing::scenario_dir() + "/linux_pip_and_cuda_good.json");
  for (size_t p = 0; (p = text.find("/home/bob", p)) != std::string::npos;) text.replace(p, 9, "/data/dave");
  FakeHost h;
  h.add_file("/s.json", text);
  // --log is read from disk (an ifstream, not the Host).
  std::string log = (std::filesystem::temp_directory_path() / ("tfgpu_doctor_log_" + std::to_string(::getpid()) + ".txt")).string();
  std::ofstream(log) << "dave@tfbox:/data/dave$ python train.py\nCould not load dynamic library 'libcudnn.so.8'; dlerror: "
                        "libcudnn.so.8: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: "
                        "/data/dave/lib\n";
  h.add_file("/proc/sys/kernel/hostname", "tfbox\n");
  h.set_env("USER", "dave");
  h.set_env("HOME", "/data/dave");
  DoctorRun r = doctor(h, {"--snapshot", "/s.json", "--markdown", "--log", log});
  std::filesystem::remove(log);
  ASSERT_LE(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("tfgpu explain"), std::string::npos) << "the log part is there";
  EXPECT_EQ(r.out.find("dave"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("tfbox"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/data/<user>"), std::string::npos) << r.out;
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
