// `--json` of probe, doctor and plan with bytes that are not UTF-8 in PATH, in another
// environment variable and in a --python path (the real binary): the report is written,
// the odd string carries U+FFFD, and its exact bytes are in "invalid_utf8".
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "host/host.h"
#include "util/error.h"

namespace tfgpu {
namespace {

ProcessResult tfgpu(std::vector<std::string> args, std::map<std::string, std::string> env) {
  auto host = make_system_host();
  ProcessSpec spec;
  spec.argv = {TFGPU_EXE};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(60);
  spec.env_overrides = std::move(env);
  auto r = host->run(spec);
  EXPECT_TRUE(r.has_value());
  return r ? *r : ProcessResult{};
}

// The "hex" that "invalid_utf8" records for `pointer`, or "".
std::string recorded(const nlohmann::json& j, const std::string& pointer) {
  if (!j.contains("invalid_utf8")) return "";
  for (const auto& e : j["invalid_utf8"])
    if (e.value("pointer", "") == pointer) return e.value("hex", "");
  return "";
}

const std::string kPath = "/nonexistent/caf\xe9:/usr/bin:/bin";
const std::string kPathHex = "2f6e6f6e6578697374656e742f636166e93a2f7573722f62696e3a2f62696e";

TEST(JsonBytes, ProbeJsonCarriesANonUtf8PathLosslessly) {
  auto r = tfgpu({"probe", "--json", "--timeout", "2"}, {{"PATH", kPath}, {"CUDA_HOME", "/opt/cuda\xc3"}});
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["env"]["PATH"], "/nonexistent/caf\xEF\xBF\xBD:/usr/bin:/bin");
  EXPECT_EQ(recorded(j, "/env/PATH"), kPathHex);
  EXPECT_EQ(recorded(j, "/env/CUDA_HOME"), "2f6f70742f63756461c3");
}

TEST(JsonBytes, DoctorJsonIsWrittenWithANonUtf8PythonPath) {
  namespace fs = std::filesystem;
  fs::path venv = fs::temp_directory_path() / ("tfgpu_json_bytes_" + std::to_string(::getpid()) + "_venv-\xff");
  fs::create_directories(venv / "bin");
  std::ofstream(venv / "pyvenv.cfg") << "home = /usr/bin\nversion = 3.11.2\n";
  fs::create_directories(venv / "lib/python3.11/site-packages/tensorflow-2.15.0.dist-info");
  std::ofstream(venv / "lib/python3.11/site-packages/tensorflow-2.15.0.dist-info/METADATA")
      << "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\n\n";
  std::ofstream(venv / "bin/python3") << "#!/bin/false\n";
  auto r = tfgpu({"--json", "doctor", "--python", (venv / "bin/python3").string()}, {{"PATH", kPath}});
  fs::remove_all(venv);
  EXPECT_TRUE(r.exit_code == kExitOk || r.exit_code == kExitProblems) << r.exit_code << r.err;
  auto j = nlohmann::json::parse(r.out);  // throws if the report is not valid JSON
  ASSERT_TRUE(j.contains("invalid_utf8")) << r.out.substr(0, 2000);
  EXPECT_NE(j["invalid_utf8"].dump().find("ff"), std::string::npos);
}

TEST(JsonBytes, PlanJsonWithANonUtf8DriverIsAUsageErrorNotAnInternalError) {
  auto r = tfgpu({"--json", "plan", "--os", "linux", "--gpu", "10de:2504", "--driver", "535.\xff"}, {});
  EXPECT_NE(r.exit_code, kExitInternal) << r.err;
  if (r.exit_code == kExitOk) EXPECT_TRUE(nlohmann::json::parse(r.out).is_object());
  auto ok = tfgpu({"--json", "plan", "--os", "linux", "--gpu", "10de:2504", "--driver", "535.104.05"}, {{"PATH", kPath}});
  ASSERT_EQ(ok.exit_code, kExitOk) << ok.err;
  EXPECT_TRUE(nlohmann::json::parse(ok.out).is_object());
}

}  // namespace
}  // namespace tfgpu
