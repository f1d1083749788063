// The command line's manners for every command: --help with the global options and two
// examples, "did you mean" for mistyped commands and options, outputs a command does
// not have refused, a bare `tfgpu`, option values checked while parsing, and the exit
// codes the README promises (0 all good, 1 problems found, 2 usage or input error,
// 3 internal error), command by command.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <streambuf>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "cli/usage.h"
#include "host/fake_host.h"
#include "support/doctor_scenarios.h"
#include "util/error.h"
#include "support/cli_run.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;

using testing::run;

bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

TEST(CliUsage, EveryCommandsHelpShowsTheGlobalOptionsAndTwoExamples) {
  for (const auto& spec : command_table()) {
    if (spec.hidden) continue;
    auto r = run({spec.name, "--help"});
    EXPECT_EQ(r.code, kExitOk) << spec.name;
    for (const char* global : {"--json", "--kb DIR", "--color WHEN"})
      EXPECT_NE(r.out.find(global), std::string::npos) << spec.name << " --help lacks " << global << "\n" << r.out;
    EXPECT_EQ(r.out.find("--markdown") != std::string::npos, spec.outputs == Outputs::kTextJsonMarkdown) << spec.name;
    size_t examples = r.out.find("Examples:");
    ASSERT_NE(examples, std::string::npos) << spec.name;
    for (const char* ex : spec.examples) {
      ASSERT_NE(ex, nullptr) << spec.name << " has fewer than two examples";
      EXPECT_EQ(std::string(ex).rfind("tfgpu ", 0) == 0 || std::string(ex).find("| tfgpu ") != std::string::npos, true)
          << ex;
      EXPECT_NE(r.out.find(ex, examples), std::string::npos) << spec.name << ": " << ex;
    }
  }
}

TEST(CliUsage, ExamplesInTheHelpParse) {
  // Each example's own options exist (it would be a poor example otherwise): run its
  // tfgpu part with --help appended, which parses everything and runs nothing.
  for (const auto& spec : command_table()) {
    if (spec.hidden) continue;
    for (const char* ex : spec.examples) {
      std::string text = ex;
      text = text.substr(text.find("tfgpu ") + 6);
      text = text.substr(0, text.find(" >"));
      std::vector<std::string> args;
      std::istringstream in(text);
      for (std::string w; in >> w;) {
        if (w.front() == '"') {  // "RTX 3060"
          std::string rest;
          while (w.back() != '"' && in >> rest) w += " " + rest;
          w = w.substr(1, w.size() - 2);
        }
        args.push_back(w);
      }
      args.push_back("--help");
      auto r = run(args);
      EXPECT_EQ(r.code, kExitOk) << ex << ": " << r.err;
    }
  }
}

TEST(CliUsage, MistypedCommandSuggestsTheClosest) {
  auto r = run({"docter"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("unknown command 'docter'; did you mean 'doctor'?"), std::string::npos) << r.err;
  r = run({"--json", "matrx", "--tf", "2.12"});
  EXPECT_NE(r.err.find("did you mean 'matrix'?"), std::string::npos) << r.err;
  // Nothing close: the commands are listed instead of a guess.
  r = run({"frobnicate"});
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("doctor, fleet, probe"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("__"), std::string::npos) << "hidden commands are not offered: " << r.err;
}

TEST(CliUsage, MistypedOptionSuggestsTheClosestOfThatCommandOrTheGlobalOnes) {
  auto r = run({"doctor", "--jsn"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err, "tfgpu doctor: unknown option '--jsn'; did you mean '--json'? (see tfgpu doctor --help)\n");
  r = run({"doctor", "--snapshto", "x.json"});
  EXPECT_NE(r.err.find("did you mean '--snapshot'?"), std::string::npos) << r.err;
  r = run({"matrix", "--cudnnn", "8.6"});
  EXPECT_NE(r.err.find("did you mean '--cudnn'?"), std::string::npos) << r.err;
  r = run({"plan", "--tf=2.15", "--mark"});
  EXPECT_NE(r.err.find("unknown option '--mark'; did you mean '--markdown'?"), std::string::npos) << r.err;
  // An option of another command is not suggested: --sizes is bench's.
  r = run({"probe", "--sizes", "1024"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("unknown option '--sizes'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  // A value that starts with '-' belongs to its option, it is not an unknown option.
  r = run({"probe", "--timeout", "-1"});
  EXPECT_EQ(r.err.find("unknown option"), std::string::npos) << r.err;
}

TEST(CliUsage, AnOutputTheCommandDoesNotHaveIsRefused) {
  for (const auto& spec : command_table()) {
    if (spec.hidden || spec.outputs == Outputs::kTextJsonMarkdown) continue;
    auto r = run({spec.name, "--markdown"});
    EXPECT_EQ(r.code, kExitUsage) << spec.name;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err, std::string("tfgpu ") + spec.name + ": --markdown is not an output of " + spec.name +
                         " (it has text and --json)\n");
    EXPECT_EQ(r.out, "");
  }
}

TEST(CliUsage, BareTfgpuPrintsAShortUsageAndExitsTwo) {
  for (std::vector<std::string> args : {std::vector<std::string>{}, {"--json"}, {"--color", "never"}}) {
    auto r = run(args);
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("usage: tfgpu <command> [options]\n", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("tfgpu doctor"), std::string::npos);
    EXPECT_LT(std::count(r.err.begin(), r.err.end(), '\n'), 20) << "short: " << r.err;
  }
  EXPECT_EQ(run({"--help"}).code, kExitOk);
}

// Every option that takes a value, with empty and malformed values: exit 2 before any
// work, one line naming the option and what a valid value looks like.
struct BadValue {
  std::vector<std::string> args;
  std::string says;  // part of the line
};

TEST(CliUsage, EmptyAndMalformedOptionValuesAreOneLineAndExitTwo) {
  const std::vector<BadValue> cases = {
      {{"--kb", "", "matrix", "--tf", "2.12"}, "--kb: the value is empty; give DIR"},
      {{"--color", "", "doctor"}, "--color: the value is empty; give WHEN"},
      {{"--color", "sometimes", "doctor"}, "--color"},
      {{"doctor", "--snapshot", ""}, "--snapshot: the value is empty; give FILE"},
      {{"doctor", "--lock", ""}, "--lock: the value is empty; give FILE"},
      {{"doctor", "--log", " "}, "--log: the value is empty; give FILE"},
      {{"doctor", "--python", ""}, "--python: the value is empty; give PATH"},
      {{"probe", "--python", ""}, "--python: the value is empty; give PATH"},
      {{"probe", "--timeout", "nan"}, "--timeout: 'nan' is not a number of seconds from 0.1 to 600"},
      {{"probe", "--timeout", "inf"}, "'inf' is not a number of seconds"},
      {{"probe", "--timeout", "-1"}, "'-1' is not a number of seconds"},
      {{"probe", "--timeout", "0"}, "'0' is not a number of seconds"},
      {{"probe", "--timeout", "10s"}, "'10s' is not a number of seconds"},
      {{"probe", "--timeout", ""}, "--timeout: the value is empty"},
      {{"probe", "--out", ""}, "--out: the value is empty; give PATH"},
      {{"matrix", "--tf", ""}, "--tf: the value is empty; give VERSION"},
      {{"matrix", "--tf", "2."}, "--tf: '2.' is not a version; give one like 2.16"},
      {{"matrix", "--tf", "two"}, "'two' is not a version"},
      {{"matrix", "--tf", "2"}, "'2' is not a version"},
      {{"matrix", "--os", ""}, "--os: the value is empty; give OS"},
      {{"matrix", "--cuda", "11.x"}, "--cuda: '11.x' is not a version; give one like 11.8"},
      {{"matrix", "--cudnn", "8..6"}, "--cudnn: '8..6' is not a version"},
      {{"matrix", "--python", "3"}, "--python: '3' is not a version; give one like 3.12"},
      {{"matrix", "--driver", "2."}, "--driver: '2.' is not a version; give one like 522.06"},
      {{"matrix", "--driver", "1e9"}, "--driver: '1e9' is not a version"},
      {{"matrix", "--driver", "-5"}, "--driver: '-5' is not a version"},
      {{"matrix", "--driver", "99999999999"}, "'99999999999' is not a version"},
      {{"matrix", "--gpu", ""}, "--gpu: the value is empty; give NAME|ID"},
      {{"explain", ""}, "FILE: the value is empty"},
      {{"explain", "--max-findings", "0", "x.log"}, "--max-findings: '0' is not a whole number from 1 to 100"},
      {{"explain", "--max-findings", "2.5", "x.log"}, "'2.5' is not a whole number"},
      {{"plan", "--tf", ""}, "--tf: the value is empty; give VERSION"},
      {{"plan", "--tf", "2.15rc1"}, "--tf: '2.15rc1' is not a version"},
      {{"plan", "--python", "three"}, "--python: 'three' is not a version; give one like 3.11"},
      {{"plan", "--driver", "1e9"}, "--driver: '1e9' is not a version"},
      {{"plan", "--os", "linux", "--python", "3.99"},
       "--python 3.99: no TensorFlow release in the knowledge base has wheels for Python 3.99; give one of 2.7 to 3."},
      {{"plan", "--target", ""}, "--target: the value is empty"},
      {{"plan", "--target", "cloud"}, "--target"},
      {{"plan", "--snapshot", ""}, "--snapshot: the value is empty; give FILE"},
      {{"plan", "--os", ""}, "--os: the value is empty"},
      {{"plan", "--gpu", ""}, "--gpu: the value is empty"},
      {{"plan", "--out", ""}, "--out: the value is empty; give DIR"},
      {{"verify", "--python", ""}, "--python: the value is empty; give PATH"},
      {{"verify", "--prediction", ""}, "--prediction: the value is empty; give FILE"},
      {{"verify", "--timeout", "nan"}, "--timeout: 'nan' is not a whole number from 1 to 3600"},
      {{"verify", "--python-timeout", "-3"}, "--python-timeout: '-3' is not a whole number from 1 to 3600"},
      {{"verify", "--driver", ""}, "--driver: the value is empty; give LIB"},
      {{"bench", "--sizes", ""}, "--sizes: the value is empty; give N,N,..."},
      {{"bench", "--copy-mib", "0"}, "--copy-mib: '0' is not a whole number from 1 to 65536"},
      {{"bench", "--device", "-1"}, "--device: '-1' is not a whole number from 0 to 1023"},
      {{"bench", "--timeout", "1e3"}, "--timeout: '1e3' is not a whole number from 1 to 7200"},
      {{"bench", "--cublas", ""}, "--cublas: the value is empty; give LIB"},
      {{"bench", "--cublaslt", ""}, "--cublaslt: the value is empty; give LIB"},
      {{"bench", "--driver", ""}, "--driver: the value is empty; give LIB"},
      {{"fleet", ""}, "INPUT: the value is empty"},
      {{"fleet", "--lock", "", "/x"}, "--lock: the value is empty; give FILE"},
  };
  for (const auto& c : cases) {
    auto r = run(c.args);
    std::string shown;
    for (const auto& a : c.args) shown += "'" + a + "' ";
    EXPECT_EQ(r.code, kExitUsage) << shown << r.err;
    EXPECT_TRUE(one_line(r.err)) << shown << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << shown << "\n  got:  " << r.err << "  want: " << c.says;
    EXPECT_EQ(r.err.rfind("tfgpu", 0), 0u) << r.err;
    EXPECT_EQ(r.out, "") << shown;
  }
}

TEST(CliUsage, EveryOptionThatTakesAValueRefusesAnEmptyOne) {
  // Not a list to keep up to date: every option of every command, as defined.
  CLI::App app;
  size_t checked = 0;
  for (const auto& spec : command_table()) {
    if (spec.hidden) continue;
    CLI::App probe_app;
    spec.define(probe_app);
    for (const CLI::Option* o : probe_app.get_options()) {
      if (o->get_expected_min() <= 0) continue;  // a flag
      std::vector<std::string> args{spec.name};
      if (o->get_positional()) {
        args.push_back("");
      } else {
        args.push_back("--" + o->get_lnames().front());
        args.push_back("");
      }
      auto r = run(args);
      EXPECT_EQ(r.code, kExitUsage) << spec.name << " " << args[1] << ": " << r.err;
      EXPECT_NE(r.err.find("the value is empty"), std::string::npos) << spec.name << " " << args[1] << ": " << r.err;
      ++checked;
    }
  }
  EXPECT_GT(checked, 30u);
}

TEST(CliUsage, PlanForPythonTwoSevenIsMeaningful) {
  // TF 1.14-2.1 had Python 2.7 wheels (kb/tensorflow.toml): a plan, not a usage error.
  auto r = run({"plan", "--os", "linux", "--python", "2.7"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("Python 2.7"), std::string::npos) << r.out;
}

TEST(CliUsage, ValidValuesStillParse) {
  for (std::vector<std::string> args : {std::vector<std::string>{"matrix", "--tf", "2.16.1", "--help"},
                                        {"matrix", "--driver", "535.104.05", "--cuda", "12", "--help"},
                                        {"probe", "--timeout", "2.5", "--help"},
                                        {"probe", "--timeout", "0.1", "--help"},
                                        {"plan", "--python", "3.11", "--driver", "522.06", "--help"},
                                        {"bench", "--device", "0", "--copy-mib", "64", "--help"}}) {
    auto r = run(args);
    EXPECT_EQ(r.code, kExitOk) << args[1] << ": " << r.err;
  }
}

TEST(CliUsage, BenchSizesWithAnEmptyPieceAreRefused) {
  for (const char* sizes : {"1024,", ",1024", "1024,,4096", "1024, x"}) {
    auto r = run({"bench", "--sizes", sizes});
    EXPECT_EQ(r.code, kExitUsage) << sizes;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("give sizes joined by commas, e.g. --sizes 1024,4096"), std::string::npos) << r.err;
  }
}

TEST(CliUsage, ClosestNeedsToBeCloseAndUnambiguous) {
  std::vector<std::string> cmds = {"doctor", "probe", "plan", "matrix"};
  EXPECT_EQ(usage::closest("docter", cmds), "doctor");
  EXPECT_EQ(usage::closest("prob", cmds), "probe");
  EXPECT_EQ(usage::closest("x", cmds), std::nullopt);
  EXPECT_EQ(usage::closest("zzzzzz", cmds), std::nullopt);
  EXPECT_EQ(usage::closest("p", cmds), std::nullopt) << "a prefix of two";
}

// ---- Exit codes, command by command (README: 0 all good, 1 problems found, 2 usage or
// input error, 3 internal error) ----

// A standard output that refuses every byte (a full disk, a closed pipe).
class FullStreambuf : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

std::string test_file(const std::string& name, const std::string& text) {
  fs::path p = fs::path(TFGPU_TEST_BINARY_DIR) / ("cli_usage_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

struct ExitCase {
  std::string what;
  std::vector<std::string> args;
  int code;
};

TEST(CliExitCodes, EveryCommandExitsAsTheReadmeSays) {
  const std::string cause_log = test_file(
      "cause.log", "OS Platform and Distribution: Windows 10\nTensorFlow version: 2.12.0\n"
                   "print(tf.config.list_physical_devices('GPU'))\n[]\n");
  const std::string harmless_log = test_file(
      "harmless.log", "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n");
  FakeHost host(Platform::kLinux);
  const std::string scen = testing::scenario_dir() + "/";
  host.add_file("/good.json", testing::read_text(scen + "linux_pip_and_cuda_good.json"));
  host.add_file("/blocked.json", testing::read_text(scen + "win_classic_guide_tf212.json"));
  host.add_file("/bad.json", "{not json");
  const std::vector<ExitCase> cases = {
      {"doctor, no blockers", {"doctor", "--snapshot", "/good.json"}, kExitOk},
      {"doctor, blockers", {"doctor", "--snapshot", "/blocked.json"}, kExitProblems},
      {"doctor, missing file", {"doctor", "--snapshot", "/missing.json"}, kExitUsage},
      {"doctor, not a snapshot", {"doctor", "--snapshot", "/bad.json"}, kExitUsage},
      {"doctor, bad option", {"doctor", "--frob"}, kExitUsage},
      {"fleet, all good", {"fleet", "/good.json"}, kExitOk},
      {"fleet, a node blocked", {"fleet", "/good.json", "/blocked.json"}, kExitProblems},
      {"fleet, nothing readable", {"fleet", "/missing.json"}, kExitUsage},
      {"probe", {"probe"}, kExitOk},
      {"probe --json", {"--json", "probe"}, kExitOk},
      {"probe, bad timeout", {"probe", "--timeout", "nan"}, kExitUsage},
      {"matrix, answered", {"matrix", "--tf", "2.12", "--os", "linux"}, kExitOk},
      {"matrix, unknown release", {"matrix", "--tf", "2.99"}, kExitUsage},
      {"explain, a cause", {"explain", cause_log}, kExitProblems},
      {"explain, only harmless lines", {"explain", harmless_log}, kExitOk},
      {"explain, missing file", {"explain", "/no/such/file.log"}, kExitUsage},
      {"plan, feasible", {"plan", "--os", "linux", "--gpu", "RTX 3060", "--driver", "535.104.05", "--tf", "2.15"}, kExitOk},
      {"plan, unknown release", {"plan", "--os", "linux", "--tf", "9.99"}, kExitUsage},
      {"plan, bad snapshot", {"plan", "--snapshot", "/bad.json"}, kExitUsage},
      {"verify, unreadable prediction", {"verify", "--prediction", "/missing.json"}, kExitUsage},
      {"bench, bad sizes", {"bench", "--sizes", "1024,"}, kExitUsage},
      {"no command", {}, kExitUsage},
  };
  for (const auto& c : cases) {
    auto r = run(host, c.args);
    EXPECT_EQ(r.code, c.code) << c.what << "\n" << r.err;
    // fleet names each skipped input on its own line before its one-line summary.
    if (c.code == kExitUsage && !c.args.empty() && c.args[0] != "fleet") {
      EXPECT_TRUE(one_line(r.err)) << c.what << ": " << r.err;
    }
  }
  // 3: the report could not be written (any command that prints one).
  for (std::vector<std::string> args : {std::vector<std::string>{"doctor", "--snapshot", "/good.json"},
                                        {"--json", "doctor", "--snapshot", "/blocked.json"},
                                        {"probe"},
                                        {"matrix", "--tf", "2.12", "--os", "linux"},
                                        {"explain", cause_log},
                                        {"fleet", "/good.json"},
                                        {"plan", "--os", "linux", "--gpu", "RTX 3060", "--driver", "535.104.05"}}) {
    FullStreambuf full;
    std::ostream out(&full);
    std::ostringstream err;
    int code = run_cli(args, host, out, err);
    EXPECT_EQ(code, kExitInternal) << args[0] << ": " << err.str();
    EXPECT_NE(err.str().find("cannot write the output"), std::string::npos) << err.str();
  }
}

}  // namespace
}  // namespace tfgpu
