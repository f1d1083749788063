#include "snapshot/snapshot_json.h"

#include <gtest/gtest.h>

namespace tfgpu {
namespace {

Snapshot sample() {
  Snapshot s;
  s.origin = "test";
  s.host.os = "windows";
  s.host.wsl2 = Tri::kNo;
  s.host.cpu.avx2 = Tri::kYes;
  s.gpus.push_back({0, "NVIDIA GeForce RTX 3060", "10de:2504", "0000:01:00.0", "8.6", 12884901888ull, 0, "GPU-1", "nvml"});
  s.driver.state = {ProbeStatus::kOk, "", "nvml"};
  s.driver.version = "522.06";
  s.driver.cuda_version = "11.8";
  s.env["PATH"] = "C:\\Windows\\System32;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin";
  LibraryFile lib;
  lib.path = "C:/cuda/bin/cudart64_110.dll";
  lib.name = "cudart64_110.dll";
  lib.component = "cudart";
  lib.format = "pe";
  lib.pe.bits = 64;
  lib.pe.imports = {"KERNEL32.dll"};
  s.libraries.push_back(lib);
  PythonEnv py;
  py.executable = "C:/Users/u/miniconda3/envs/tf/python.exe";
  py.version = "3.10.9";
  py.bits = 64;
  TensorflowInstall tf;
  tf.package = "tensorflow";
  tf.version = "2.12.0";
  tf.build_info["is_cuda_build"] = "False";
  py.tensorflow.push_back(tf);
  s.pythons.push_back(py);
  return s;
}

TEST(SnapshotJson, RoundTripKeepsEveryField) {
  Snapshot s = sample();
  nlohmann::json j = snapshot_to_json(s);
  auto back = snapshot_from_json(j);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(snapshot_to_json(*back), j);
  EXPECT_EQ(back->gpus.at(0).compute_capability, "8.6");
  EXPECT_EQ(back->host.cpu.avx2, Tri::kYes);
  EXPECT_EQ(back->pythons.at(0).tensorflow.at(0).build_info.at("is_cuda_build"), "False");
  EXPECT_EQ(j["driver"]["state"]["status"], "ok");
}

TEST(SnapshotJson, AbsentFieldsTakeDefaults) {
  auto s = parse_snapshot(R"({"schema_version": 1, "host": {"os": "linux"}})");
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->host.os, "linux");
  EXPECT_TRUE(s->gpus.empty());
  EXPECT_EQ(s->driver.state.status, ProbeStatus::kNotProbed);
}

TEST(SnapshotJson, RejectsMalformedInputWithOneLine) {
  auto not_json = parse_snapshot("{", "x.json");
  ASSERT_FALSE(not_json.has_value());
  EXPECT_EQ(not_json.error().message, "x.json: not valid JSON");

  auto no_version = parse_snapshot("{}", "x.json");
  ASSERT_FALSE(no_version.has_value());
  EXPECT_NE(no_version.error().message.find("schema_version"), std::string::npos);

  auto future = parse_snapshot(R"({"schema_version": 99})");
  ASSERT_FALSE(future.has_value());
  EXPECT_NE(future.error().message.find("99"), std::string::npos);

  auto wrong_type = parse_snapshot(R"({"schema_version": 1, "gpus": "none"})");
  ASSERT_FALSE(wrong_type.has_value());
  EXPECT_EQ(wrong_type.error().kind, ErrorKind::kInput);

  auto bad_enum = parse_snapshot(R"({"schema_version": 1, "driver": {"state": {"status": "great"}}})");
  ASSERT_FALSE(bad_enum.has_value());
  EXPECT_NE(bad_enum.error().message.find("great"), std::string::npos);

  EXPECT_FALSE(parse_snapshot("[1,2]").has_value());
  EXPECT_FALSE(parse_snapshot(std::string(100000, '[')).has_value());
}

}  // namespace
}  // namespace tfgpu
