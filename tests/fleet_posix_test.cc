// The real binary end to end: `tfgpu probe --json --out DIR/%h.json` on this machine
// (the host name in the file name, written atomically), then `tfgpu fleet` over the
// directory and over the same snapshots as a stream on standard input, and --lock.
#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/doctor_scenarios.h"
#include "support/shell_posix.h"
#include "util/error.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
// run_shell appends 2>&1; a subshell keeps the command's own redirections.
testing::ShellRun run_subshell(const std::string& command) { return testing::run_shell("(" + command + ")"); }

std::string host_name() {
  struct utsname u {};
  return uname(&u) == 0 ? u.nodename : "";
}

class FleetReal : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("tfgpu_fleet_{}_{}", ::getpid(),
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "snapshots");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The real probe of this machine into snapshots/%h.json (once per test).
  fs::path probe() {
    auto r = run_subshell(fmt::format("'{}' probe --json --out '{}/%h.json' 2>'{}/probe.err'", TFGPU_EXE,
                                      (dir_ / "snapshots").string(), dir_.string()));
    EXPECT_EQ(r.code, kExitOk) << r.out << testing::read_text((dir_ / "probe.err").string());
    return dir_ / "snapshots" / (host_name() + ".json");
  }

  fs::path dir_;
};

TEST_F(FleetReal, ProbeOutNamesTheFileForTheHostAndLeavesNoTemporaryFile) {
  ASSERT_FALSE(host_name().empty());
  fs::path file = probe();
  ASSERT_TRUE(fs::exists(file)) << file;
  EXPECT_NE(testing::read_text((dir_ / "probe.err").string()).find("tfgpu probe: wrote " + file.string()),
            std::string::npos);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_ / "snapshots")) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{host_name() + ".json"}) << "the temporary file was renamed, not left";
  json j = json::parse(testing::read_text(file.string()));
  EXPECT_EQ(j["host"]["hostname"], host_name());
  EXPECT_EQ(j["schema_version"], 1);
  // The file is as readable as any the user writes (mkstemp makes 0600).
  auto perms = fs::status(file).permissions();
  EXPECT_NE(perms & fs::perms::owner_read, fs::perms::none);
  mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ((perms & fs::perms::others_read) != fs::perms::none, (mask & 04) == 0);
}

TEST_F(FleetReal, ProbeOutReplacesAnExistingFileWhole) {
  fs::path file = dir_ / "snapshots" / (host_name() + ".json");
  std::ofstream(file) << std::string(1 << 20, 'x');  // longer than a snapshot: no tail may remain
  probe();
  json j = json::parse(testing::read_text(file.string()), nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "the old file's bytes are gone";
}

TEST_F(FleetReal, ProbeOutRefusesBadPathsWithOneLine) {
  auto missing =
      run_subshell(fmt::format("'{}' probe --json --out '{}/no/such/dir/%h.json'", TFGPU_EXE, dir_.string()));
  EXPECT_EQ(missing.code, kExitUsage) << missing.out;
  EXPECT_NE(missing.out.find("tfgpu probe: cannot write "), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find("No such file or directory"), std::string::npos) << missing.out;
  auto unknown = run_subshell(fmt::format("'{}' probe --json --out '{}/%q.json'", TFGPU_EXE, dir_.string()));
  EXPECT_EQ(unknown.code, kExitUsage) << unknown.out;
  EXPECT_NE(unknown.out.find("unknown '%q' (%h = host name, %% = '%')"), std::string::npos) << unknown.out;
  auto percent =
      run_subshell(fmt::format("'{}' probe --json --out '{}/snapshots/100%%-%h.json'", TFGPU_EXE, dir_.string()));
  EXPECT_EQ(percent.code, kExitOk) << percent.out;
  EXPECT_TRUE(fs::exists(dir_ / "snapshots" / ("100%-" + host_name() + ".json")));
}

TEST_F(FleetReal, FleetOverTheRealProbeAgreesWithDoctor) {
  fs::path file = probe();
  json snap = json::parse(testing::read_text(file.string()));
  // Four nodes like this one, by name.
  fs::remove(file);
  for (int i = 1; i <= 4; ++i) {
    snap["host"]["hostname"] = fmt::format("n{}", i);
    std::ofstream(dir_ / "snapshots" / fmt::format("n{}.json", i)) << snap.dump(2);
  }
  auto doctor = run_subshell(
      fmt::format("'{}' doctor --snapshot '{}/snapshots/n1.json' --json 2>/dev/null", TFGPU_EXE, dir_.string()));
  auto fleet = run_subshell(fmt::format("'{}' fleet '{}/snapshots' --json 2>/dev/null", TFGPU_EXE, dir_.string()));
  EXPECT_EQ(fleet.code, doctor.code) << "exit 1 exactly when doctor finds a blocker";
  json d = json::parse(doctor.out), f = json::parse(fleet.out);
  ASSERT_EQ(f["configurations"].size(), 1u) << fleet.out;
  EXPECT_EQ(f["configurations"][0]["hostlist"], "n[1-4]");
  EXPECT_EQ(f["configurations"][0]["nodes"], 4);
  std::set<std::string> doctor_ids, fleet_ids;
  for (const auto& x : d["findings"]) doctor_ids.insert(x["id"]);
  for (const auto& x : f["findings"]) {
    fleet_ids.insert(x["id"]);
    EXPECT_EQ(x["hostlist"], "n[1-4]") << x.dump();
  }
  EXPECT_EQ(fleet_ids, doctor_ids) << "the same diagnosis, not another one";
}

TEST_F(FleetReal, StandardInputTakesConcatenatedSnapshotsAndJsonLines) {
  fs::path file = probe();
  json snap = json::parse(testing::read_text(file.string()));
  {
    std::ofstream lines(dir_ / "lines.jsonl");
    for (int i = 1; i <= 3; ++i) {
      snap["host"]["hostname"] = fmt::format("gpu{:02}", i);
      lines << snap.dump() << "\n";
    }
    lines << "garbage line\n";
  }
  auto pretty = run_subshell(fmt::format("cat '{}'/*.json '{}'/*.json | '{}' fleet - --json 2>/dev/null",
                                         (dir_ / "snapshots").string(), (dir_ / "snapshots").string(), TFGPU_EXE));
  json p = json::parse(pretty.out);
  EXPECT_EQ(p["nodes"], 2);
  EXPECT_EQ(p["duplicates"].size(), 1u);
  EXPECT_EQ(p["configurations"][0]["hostlist"], host_name());
  auto jsonl = run_subshell(
      fmt::format("'{}' fleet - --json < '{}/lines.jsonl' 2>'{}/fleet.err'", TFGPU_EXE, dir_.string(), dir_.string()));
  json l = json::parse(jsonl.out);
  EXPECT_EQ(l["nodes"], 3);
  EXPECT_EQ(l["configurations"][0]["hostlist"], "gpu[01-03]");
  ASSERT_EQ(l["skipped"].size(), 1u);
  EXPECT_EQ(l["skipped"][0]["source"], "stdin:4");
  EXPECT_NE(testing::read_text((dir_ / "fleet.err").string()).find("tfgpu fleet: skipped stdin:4: not a JSON document"),
            std::string::npos);
}

TEST_F(FleetReal, LockDriftIsCountedPerNode) {
  // A lock `tfgpu plan` writes for an RTX 4090 with driver 550 (the scenario's machine).
  auto plan = run_subshell(
      fmt::format("'{}' plan --os linux --gpu 10de:2684 --driver 550.54.14 --python 3.11 --tf 2.21 --out '{}/plan'",
                  TFGPU_EXE, dir_.string()));
  ASSERT_EQ(plan.code, kExitOk) << plan.out;
  json good = json::parse(testing::read_text(testing::scenario_dir() + "/linux_pip_and_cuda_good.json"));
  for (int i = 1; i <= 3; ++i) {
    good["host"]["hostname"] = fmt::format("gpu{}", i);
    std::ofstream(dir_ / "snapshots" / fmt::format("gpu{}.json", i)) << good.dump();
  }
  auto without = run_subshell(fmt::format("'{}' fleet '{}/snapshots' --json 2>/dev/null", TFGPU_EXE, dir_.string()));
  auto with = run_subshell(fmt::format("'{}' fleet '{}/snapshots' --lock '{}/plan/tfgpu.lock.toml' --json 2>/dev/null",
                                       TFGPU_EXE, dir_.string(), dir_.string()));
  EXPECT_EQ(without.code, kExitOk) << without.out;
  json j = json::parse(with.out);
  bool drift = false;
  for (const auto& f : j["findings"])
    if (f["id"].get<std::string>().starts_with("lock_drift")) {
      drift = true;
      EXPECT_EQ(f["hostlist"], "gpu[1-3]") << f.dump();
    }
  EXPECT_TRUE(drift) << with.out;  // TF 2.15.1 installed, 2.21 locked
}

}  // namespace
}  // namespace tfgpu
