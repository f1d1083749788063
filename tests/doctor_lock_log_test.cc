// `tfgpu doctor --lock FILE` (drift from a `tfgpu plan` lock) and `--log FILE`
// (a TensorFlow log explained next to the machine's diagnosis).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "host/host.h"
#include "support/doctor_scenarios.h"
#include "util/error.h"
#include "support/cli_run.h"

namespace tfgpu {
namespace {

using testing::CliRun;

CliRun cli(std::vector<std::string> args) {
  auto host = make_system_host();
  return testing::run_on(*host, args);
}

std::string temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tfgpu-" + name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(DoctorLock, ReportsDriftBetweenTheMachineAndThePlannedLock) {
  std::string dir = temp_dir("lock");
  CliRun plan = cli({"plan", "--os", "windows", "--gpu", "10de:2503", "--driver", "522.06", "--python", "3.10", "--out", dir});
  ASSERT_EQ(plan.code, kExitOk) << plan.err;
  std::string scenario = testing::scenario_dir() + "/win_classic_guide_tf212.json";
  CliRun r = cli({"doctor", "--snapshot", scenario, "--lock", dir + "/tfgpu.lock.toml", "--json"});
  EXPECT_EQ(r.code, kExitProblems) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  bool drift = false;
  for (const auto& f : j["findings"]) drift = drift || f["id"] == "lock_drift_tensorflow";
  EXPECT_TRUE(drift) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(DoctorLock, AMissingOrMalformedLockIsAUsageErrorOnOneLine) {
  std::string scenario = testing::scenario_dir() + "/win_classic_guide_tf212.json";
  CliRun missing = cli({"doctor", "--snapshot", scenario, "--lock", "/nonexistent/tfgpu.lock.toml"});
  EXPECT_EQ(missing.code, kExitUsage);
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  std::string dir = temp_dir("badlock");
  std::ofstream(dir + "/bad.toml") << "this is [not a lock";
  CliRun bad = cli({"doctor", "--snapshot", scenario, "--lock", dir + "/bad.toml"});
  EXPECT_EQ(bad.code, kExitUsage) << bad.out;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  std::filesystem::remove_all(dir);
}

TEST(DoctorLog, TheLogIsExplainedNextToTheMachine) {
  std::string dir = temp_dir("log");
  std::ofstream(dir + "/tf.log") << "2021-01-01 W tensorflow/stream_executor/platform/default/dso_loader.cc:60] "
                                    "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
                                    "cannot open shared object file: No such file or directory\n"
                                    "2021-01-01 W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] Cannot dlopen some GPU "
                                    "libraries. Please make sure the missing libraries mentioned above are installed properly "
                                    "if you would like to use GPU.\n";
  std::string scenario = testing::scenario_dir() + "/linux_pip_and_cuda_good.json";
  CliRun r = cli({"doctor", "--snapshot", scenario, "--log", dir + "/tf.log", "--json"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  ASSERT_TRUE(j.contains("log"));
  EXPECT_EQ(j["log"]["findings"][0]["id"], "cudart_missing") << j["log"].dump(2);
  EXPECT_EQ(r.code, kExitProblems);
  CliRun missing = cli({"doctor", "--snapshot", scenario, "--log", dir + "/nope.log"});
  EXPECT_EQ(missing.code, kExitUsage);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tfgpu
