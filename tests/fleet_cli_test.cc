// `tfgpu fleet` over scenario snapshots (tests/scenarios) copied to many "nodes" with
// their host name and driver varied: configurations worst first, findings with
// hostlists, drift, outliers, skipped snapshots and exit codes.
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "support/doctor_scenarios.h"
#include "util/error.h"
#include "support/cli_run.h"

namespace tfgpu {
namespace {

using nlohmann::json;

using FleetRun = testing::CliRun;

FleetRun fleet(FakeHost& host, std::vector<std::string> args) {
  args.insert(args.begin(), "fleet");
  return testing::run_on(host, args);
}

json scenario(const std::string& name) {
  return json::parse(testing::read_text(testing::scenario_dir() + "/" + name + ".json"));
}

// The scenario as node `host` (the name `tfgpu probe` records), optionally with another driver.
std::string as_node(json snap, const std::string& host, const std::string& driver = "") {
  snap["host"]["hostname"] = host;
  if (!driver.empty()) snap["driver"]["version"] = driver;
  return snap.dump();
}

std::string node(int n) { return fmt::format("gpu{:03}", n); }

// gpu001-016 work (driver 550.54.14), gpu017-030 have driver 470.57.02 (too old for TF 2.15).
FakeHost cluster() {
  FakeHost h;
  json good = scenario("linux_pip_and_cuda_good"), old = scenario("linux_driver_too_old");
  for (int i = 1; i <= 30; ++i)
    h.add_file(fmt::format("/fleet/{}.json", node(i)), as_node(i <= 16 ? good : old, node(i)));
  return h;
}

const json* find_by(const json& array, const std::string& key, const std::string& value) {
  for (const auto& e : array)
    if (e.value(key, "") == value) return &e;
  return nullptr;
}

TEST(FleetCli, OneLinePerConfigurationWorstFirstWithItsHostlist) {
  FakeHost h = cluster();
  FleetRun r = fleet(h, {"/fleet", "--json"});
  ASSERT_EQ(r.code, kExitProblems) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["nodes"], 30);
  ASSERT_EQ(j["configurations"].size(), 2u) << j["configurations"].dump(1);
  const json& bad = j["configurations"][0];
  EXPECT_EQ(bad["worst"], "blocked");
  EXPECT_EQ(bad["nodes"], 14);
  EXPECT_EQ(bad["hostlist"], "gpu[017-030]");
  EXPECT_EQ(bad["driver"], "470.57.02 (CUDA 11.4)");
  EXPECT_EQ(bad["blockers"][0]["id"], "driver_too_old");
  EXPECT_EQ(bad["blockers"][0]["nodes"], 14);
  const json& ok = j["configurations"][1];
  EXPECT_EQ(ok["worst"], "ok");
  EXPECT_EQ(ok["nodes"], 16);
  EXPECT_EQ(ok["hostlist"], "gpu[001-016]");
  EXPECT_EQ(ok["gpus"], json::array({"1x NVIDIA GeForce RTX 4090"}));
  EXPECT_EQ(ok["tensorflow"], json::array({"Python 3.11.9: tensorflow 2.15.1"}));
  EXPECT_EQ(j["states"]["blocked"], 14);
  EXPECT_EQ(j["states"]["ok"], 16);
}

TEST(FleetCli, EachFindingCountsItsNodesAsAHostlist) {
  FakeHost h = cluster();
  json j = json::parse(fleet(h, {"/fleet", "--json"}).out);
  const json* f = find_by(j["findings"], "id", "driver_too_old");
  ASSERT_NE(f, nullptr) << j["findings"].dump(1);
  EXPECT_EQ((*f)["severity"], "blocker");
  EXPECT_EQ((*f)["nodes"], 14);
  EXPECT_EQ((*f)["hostlist"], "gpu[017-030]");
  EXPECT_EQ(j["findings"][0]["id"], "driver_too_old") << "blockers come first";
  // A finding every node has lists them all in one range.
  const json* all = find_by(j["findings"], "id", "mixed_precision_available");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ((*all)["hostlist"], "gpu[001-030]");
}

TEST(FleetCli, DriftNamesTheFieldsThatSplitWorkingFromBrokenNodes) {
  FakeHost h = cluster();
  json j = json::parse(fleet(h, {"/fleet", "--json"}).out);
  EXPECT_EQ(j["drift"]["working_nodes"], 16);
  EXPECT_EQ(j["drift"]["not_working_nodes"], 14);
  const json& fields = j["drift"]["fields"];
  const json* driver = find_by(fields, "field", "driver");
  ASSERT_NE(driver, nullptr) << fields.dump(1);
  EXPECT_TRUE((*driver)["splits"].get<bool>());
  EXPECT_EQ((*driver)["working"], json::parse(R"([{"value": "550.54.14", "nodes": 16}])"));
  EXPECT_EQ((*driver)["not_working"], json::parse(R"([{"value": "470.57.02", "nodes": 14}])"));
  EXPECT_NE(find_by(fields, "field", "driver_cuda"), nullptr);
  // What every node shares is no drift.
  EXPECT_EQ(find_by(fields, "field", "gpu"), nullptr);
  EXPECT_EQ(find_by(fields, "field", "cudnn"), nullptr);
  EXPECT_EQ(find_by(fields, "field", "tensorflow"), nullptr);
  for (const auto& f : fields) EXPECT_TRUE(f["splits"].get<bool>()) << f.dump();
}

TEST(FleetCli, TheOneNodeWithAnotherDriverIsAnOutlier) {
  FakeHost h;
  json good = scenario("linux_pip_and_cuda_good");
  for (int i = 1; i <= 30; ++i)
    h.add_file(fmt::format("/fleet/{}.json", node(i)), as_node(good, node(i), i == 7 ? "550.90.07" : ""));
  FleetRun r = fleet(h, {"/fleet", "--json"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["configurations"].size(), 2u);
  EXPECT_TRUE(j["drift"]["fields"].empty()) << "no node is broken: nothing to split";
  const json* o = find_by(j["outliers"], "field", "driver");
  ASSERT_NE(o, nullptr) << j["outliers"].dump(1);
  EXPECT_EQ((*o)["value"], "550.90.07");
  EXPECT_EQ((*o)["hostlist"], "gpu007");
  EXPECT_EQ((*o)["majority_value"], "550.54.14");
  EXPECT_EQ((*o)["majority_nodes"], 29);
}

TEST(FleetCli, TextSaysItInLines) {
  FakeHost h = cluster();
  FleetRun r = fleet(h, {"/fleet"});
  EXPECT_EQ(r.code, kExitProblems);
  EXPECT_NE(r.out.find("tfgpu fleet: 30 nodes, 2 configurations: 14 blocked, 16 ok"), std::string::npos) << r.out;
  size_t blocked = r.out.find("14 nodes  blocked");
  size_t ok = r.out.find("16 nodes  ok");
  ASSERT_NE(blocked, std::string::npos) << r.out;
  ASSERT_NE(ok, std::string::npos) << r.out;
  EXPECT_LT(blocked, ok) << "worst first";
  EXPECT_NE(r.out.find("blocker  driver_too_old: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": 14 nodes: gpu[017-030]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("driver (splits them): working 550.54.14 (16); not working 470.57.02 (14)"), std::string::npos)
      << r.out;
}

TEST(FleetCli, MarkdownHasTheTables) {
  FakeHost h = cluster();
  FleetRun r = fleet(h, {"/fleet", "--markdown"});
  EXPECT_EQ(r.code, kExitProblems);
  EXPECT_NE(r.out.find("| nodes | verdict | configuration | hosts | blockers |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| 14 | blocked | "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("`gpu[017-030]`"), std::string::npos);
  EXPECT_NE(r.out.find("### Drift (16 working, 14 not working)"), std::string::npos);
}

TEST(FleetCli, ABadSnapshotIsNamedAndSkippedAndTheRunGoesOn) {
  FakeHost h;
  json good = scenario("linux_pip_and_cuda_good");
  h.add_file("/fleet/gpu001.json", as_node(good, "gpu001"));
  h.add_file("/fleet/gpu002.json", "{\"schema_version\": 1, \"host\": 7}");
  h.add_file("/fleet/gpu003.json",
             "\x7f"
             "ELF not a snapshot");
  h.add_file("/fleet/gpu004.json", as_node(good, "gpu004"));
  h.add_file("/fleet/notes.txt", "not a snapshot, not read");
  FleetRun r = fleet(h, {"/fleet", "/missing.json", "--json"});
  EXPECT_EQ(r.code, kExitOk) << "the good nodes have no blocker: " << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["nodes"], 2);
  EXPECT_EQ(j["configurations"][0]["hostlist"], "gpu[001,004]");
  ASSERT_EQ(j["skipped"].size(), 3u) << j["skipped"].dump(1);
  EXPECT_EQ(j["skipped"][0]["source"], "/fleet/gpu002.json");
  EXPECT_EQ(j["skipped"][1]["source"], "/fleet/gpu003.json");
  EXPECT_EQ(j["skipped"][2]["source"], "/missing.json");
  for (const char* f : {"/fleet/gpu002.json", "/fleet/gpu003.json", "/missing.json"})
    EXPECT_NE(r.err.find(fmt::format("tfgpu fleet: skipped {}: ", f)), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("notes.txt"), std::string::npos);
}

TEST(FleetCli, AFileNamesItsNodeEvenWhereTheSnapshotSaysAnotherHostName) {
  // Kubernetes: the collector names files for the node; the host name inside is the pod's.
  FakeHost h;
  json good = scenario("linux_pip_and_cuda_good");
  for (int i : {3, 1, 2})
    h.add_file(fmt::format("/fleet/n{}.json", i), as_node(good, fmt::format("tfgpu-probe-x{}", i)));
  h.add_file("/fleet/n4.json", testing::read_text(testing::scenario_dir() + "/linux_pip_and_cuda_good.json"));
  json j = json::parse(fleet(h, {"/fleet", "--json"}).out);
  EXPECT_EQ(j["configurations"][0]["hostlist"], "n[1-4]");
  EXPECT_TRUE(j["duplicates"].empty());
}

TEST(FleetCli, TheSameNodeTwiceIsReported) {
  FakeHost h;
  json good = scenario("linux_pip_and_cuda_good");
  h.add_file("/a/gpu001.json", as_node(good, "gpu001"));
  h.add_file("/b/gpu001.json", as_node(good, "gpu001"));
  json j = json::parse(fleet(h, {"/a/gpu001.json", "/b/gpu001.json", "--json"}).out);
  EXPECT_EQ(j["nodes"], 2);
  EXPECT_EQ(j["duplicates"], json::array({"gpu001 (/b/gpu001.json)"}));
}

TEST(FleetCli, ExitCodes) {
  json good = scenario("linux_pip_and_cuda_good"), old = scenario("linux_driver_too_old");
  FakeHost h;
  h.add_file("/ok/a.json", as_node(good, "a"));
  h.add_file("/mixed/a.json", as_node(good, "a"));
  h.add_file("/mixed/b.json", as_node(old, "b"));
  h.add_file("/bad/x.json", "not json");
  h.add_dir("/empty");
  h.add_file("/lock.toml", "this is = = not a lock");
  EXPECT_EQ(fleet(h, {"/ok"}).code, kExitOk);
  EXPECT_EQ(fleet(h, {"/mixed"}).code, kExitProblems);
  FleetRun none = fleet(h, {"/bad"});
  EXPECT_EQ(none.code, kExitUsage);
  EXPECT_NE(none.err.find("tfgpu fleet: no snapshot could be read"), std::string::npos) << none.err;
  FleetRun empty = fleet(h, {"/empty"});
  EXPECT_EQ(empty.code, kExitUsage);
  EXPECT_NE(empty.err.find("skipped /empty: no *.json file in this directory"), std::string::npos) << empty.err;
  EXPECT_EQ(fleet(h, {}).code, kExitUsage);
  EXPECT_EQ(fleet(h, {"-", "-"}).code, kExitUsage);
  FleetRun lock = fleet(h, {"/ok", "--lock", "/lock.toml"});
  EXPECT_EQ(lock.code, kExitUsage);
  EXPECT_NE(lock.err.find("tfgpu fleet: /lock.toml: "), std::string::npos) << lock.err;
  EXPECT_EQ(fleet(h, {"/ok", "--lock", "/no-lock.toml"}).code, kExitUsage);
}

}  // namespace
}  // namespace tfgpu
