// One JSON convention for every `--json` output: "schema_version" everywhere, fix steps
// as a structured list, knowledge-base citations as objects; and what a user kept from
// an older tfgpu (a doctor report of schema 1) is still read.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "gpu/tf_check.h"
#include "host/fake_host.h"
#include "report/bench_render.h"
#include "report/doctor_report.h"
#include "report/json_convention.h"
#include "report/verify_render.h"
#include "support/doctor_scenarios.h"
#include "util/error.h"

namespace tfgpu {
namespace {

nlohmann::json json_of(FakeHost& host, std::vector<std::string> args) {
  std::ostringstream out, err;
  args.insert(args.begin(), "--json");
  run_cli(args, host, out, err);
  auto j = nlohmann::json::parse(out.str(), nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << args[1] << ": " << out.str() << err.str();
  return j;
}

TEST(JsonConvention, EveryJsonOutputHasASchemaVersion) {
  FakeHost host(Platform::kLinux);
  host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/win_classic_guide_tf212.json"));
  std::filesystem::path log = std::filesystem::path(TFGPU_TEST_BINARY_DIR) / "json_convention.log";
  std::ofstream(log) << "TensorFlow version: 2.12.0\nOS Platform and Distribution: Windows 10\n";
  for (std::vector<std::string> args : {std::vector<std::string>{"doctor", "--snapshot", "/s.json"},
                                        {"probe"},
                                        {"matrix", "--tf", "2.12", "--os", "linux"},
                                        {"explain", log.string()},
                                        {"plan", "--os", "linux", "--gpu", "RTX 3060", "--driver", "535.104.05"},
                                        {"fleet", "/s.json"}}) {
    auto j = json_of(host, args);
    ASSERT_TRUE(j.is_object()) << args[0];
    EXPECT_TRUE(j.contains("schema_version") && j["schema_version"].is_number_integer()) << args[0];
  }
  // verify and bench run a child for their measurements: their renderers directly.
  EXPECT_EQ(report::verify_json(report::VerifyOutcome{})["schema_version"], report::kVerifyJsonSchemaVersion);
  EXPECT_EQ(report::bench_json(gpu::BenchReport{}, report::PeakFigures{})["schema_version"],
            report::kBenchJsonSchemaVersion);
}

TEST(JsonConvention, FixStepsAreObjectsWithSubStepsAndCommands) {
  auto steps = report::fix_steps_json({"Fix A: use TF 2.10", "  A1. run `pip uninstall -y tensorflow`",
                                       "  A2. then this", "Run `tfgpu doctor` and `tfgpu verify`"});
  ASSERT_EQ(steps.size(), 2u) << steps.dump();
  EXPECT_EQ(steps[0]["text"], "Fix A: use TF 2.10");
  EXPECT_FALSE(steps[0].contains("commands"));
  ASSERT_EQ(steps[0]["steps"].size(), 2u);
  EXPECT_EQ(steps[0]["steps"][0]["text"], "A1. run `pip uninstall -y tensorflow`");
  EXPECT_EQ(steps[0]["steps"][0]["commands"], nlohmann::json::array({"pip uninstall -y tensorflow"}));
  EXPECT_EQ(steps[1]["commands"], nlohmann::json::array({"tfgpu doctor", "tfgpu verify"}));
  EXPECT_FALSE(steps[1].contains("steps"));
}

TEST(JsonConvention, DoctorFixHasNoIndentationInsideStrings) {
  FakeHost host(Platform::kLinux);
  host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/win_classic_guide_tf212.json"));
  auto j = json_of(host, {"doctor", "--snapshot", "/s.json"});
  EXPECT_EQ(j["schema_version"], 2);
  size_t steps = 0, sub = 0;
  for (const auto& f : j["findings"]) {
    for (const auto& s : f["fix"]) {
      ASSERT_TRUE(s.is_object()) << s.dump();
      EXPECT_NE(s["text"].get<std::string>().front(), ' ') << s.dump();
      ++steps;
      for (const auto& t : s.value("steps", nlohmann::json::array())) {
        EXPECT_NE(t["text"].get<std::string>().front(), ' ') << t.dump();
        ++sub;
      }
    }
  }
  EXPECT_GT(steps, 0u);
  EXPECT_GT(sub, 0u) << "the Windows fix has sub-steps (A1, B1, ...)";
}

TEST(JsonConvention, KbCitationsAreObjects) {
  auto c = report::citation_json(
      "kb: tensorflow 2.14.0 (https://www.tensorflow.org/install/source#gpu "
      "(tensorflow/docs:site/en/install/source.md@7c3650212740204359d4ceae481abc79345541be))");
  EXPECT_EQ(c["row"], "tensorflow 2.14.0");
  EXPECT_EQ(c["url"], "https://www.tensorflow.org/install/source#gpu");
  EXPECT_EQ(c["repo"], "tensorflow/docs");
  EXPECT_EQ(c["path"], "site/en/install/source.md");
  EXPECT_EQ(c["commit"], "7c3650212740204359d4ceae481abc79345541be");
  EXPECT_EQ(c["verified"], true);
  auto u = report::citation_json("kb: gpu 10de:2504 GeForce RTX 3060 peak (https://example.org/x) [unverified]");
  EXPECT_EQ(u["row"], "gpu 10de:2504 GeForce RTX 3060 peak");
  EXPECT_EQ(u["url"], "https://example.org/x");
  EXPECT_EQ(u["verified"], false);
  EXPECT_FALSE(u.contains("commit"));
  auto n = report::citation_json("kb: tensorflow 2.14.0 compute capabilities (https://pypi.org/simple/tensorflow/ "
                                 "(kb/derivations/wheel_facts.json (scripts/kb/wheel_facts.py): each wheel))");
  EXPECT_EQ(n["url"], "https://pypi.org/simple/tensorflow/");
  EXPECT_TRUE(n.contains("note")) << n.dump();
  EXPECT_EQ(report::citation_json("kb: gpus.toml")["row"], "gpus.toml");
  EXPECT_TRUE(report::citation_json("nvml").is_null());
  EXPECT_TRUE(report::citation_json("/usr/local/cuda/version.json").is_null());

  // In doctor's report: every kb evidence carries its citation object.
  FakeHost host(Platform::kLinux);
  host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/linux_old_cudnn_shadows.json"));
  auto j = json_of(host, {"doctor", "--snapshot", "/s.json"});
  size_t cited = 0;
  for (const auto& f : j["findings"])
    for (const auto& e : f["evidence"]) {
      bool kb = e["source"].get<std::string>().rfind("kb:", 0) == 0;
      EXPECT_EQ(e.contains("citation"), kb) << e.dump();
      if (kb) ++cited;
    }
  EXPECT_GT(cited, 0u);
}

TEST(JsonConvention, ADoctorReportOfSchemaOneIsStillReadAsAPrediction) {
  // What `tfgpu doctor --json` wrote before schema 2 (fix steps as strings), kept by a user
  // for `tfgpu verify --prediction FILE`.
  auto v1 = nlohmann::json::parse(R"J({
    "schema_version": 1, "tool_version": "0.1.0",
    "findings": [{"id": "cudart_missing", "fix": ["step 1", "  sub-step"], "evidence": []}],
    "verdicts": [{"kind": "will_not_use_gpu", "env": "venv 'tf' (/v/bin/python)", "tf_package": "tensorflow",
                  "tf_version": "2.15.0", "gpu_count": 0, "blocker_ids": ["cudart_missing"],
                  "because": ["libcudart.so.12 is not found"], "run": [], "sentence": "...", "libraries": []}],
    "exit_code": 1})J");
  auto p = gpu::prediction_from_json(v1, "/v/bin/python");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->outcome, gpu::TfPrediction::Outcome::kWillNotUseGpu);
  auto v2 = v1;
  v2["schema_version"] = 2;
  v2["findings"][0]["fix"] = report::fix_steps_json({"step 1", "  sub-step"});
  auto p2 = gpu::prediction_from_json(v2, "/v/bin/python");
  ASSERT_TRUE(p2) << p2.error().message;
  EXPECT_EQ(p2->outcome, gpu::TfPrediction::Outcome::kWillNotUseGpu);
}

}  // namespace
}  // namespace tfgpu
