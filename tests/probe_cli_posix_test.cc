// The real `tfgpu probe` binary: JSON that parses back into a Snapshot, clear errors for
// bad input, and nothing changed on disk (the tree it reads is compared before/after).
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <unistd.h>
#include <tuple>

#include <gtest/gtest.h>

#include "host/host.h"
#include "snapshot/snapshot_json.h"
#include "support/probe_fixtures.h"
#include "util/strings.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// (size, mtime) of every entry under root, symlinks not followed.
std::map<std::string, std::tuple<uintmax_t, long long, bool>> tree(const fs::path& root) {
  std::map<std::string, std::tuple<uintmax_t, long long, bool>> out;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none); it != fs::recursive_directory_iterator(); ++it) {
    std::error_code ec;
    auto st = it->symlink_status(ec);
    bool is_file = fs::is_regular_file(st);
    uintmax_t size = is_file ? fs::file_size(it->path(), ec) : 0;
    auto mtime = fs::is_symlink(st) ? 0 : fs::last_write_time(it->path(), ec).time_since_epoch().count();
    out[it->path().string()] = {size, static_cast<long long>(mtime), fs::is_symlink(st)};
  }
  return out;
}

class ProbeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tfgpu_probe_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "home");
    // A venv with TensorFlow (real-format METADATA and build_info.py), on PATH.
    fs::path venv = root_ / "venv";
    fs::create_directories(venv / "bin");
    fs::create_symlink("/usr/bin/python3", venv / "bin" / "python3");
    write(venv / "pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n");
    fs::path site = venv / "lib/python3.11/site-packages";
    write(site / "tensorflow-2.21.0.dist-info/METADATA", "Metadata-Version: 2.4\nName: tensorflow\nVersion: 2.21.0\n\n");
    write(site / "tensorflow/python/platform/build_info.py", test::kLinuxBuildInfo221);
    write(root_ / "lib/libcudnn.so.8.9.7", test::elf64_shared_object("libcudnn.so.8"));
  }
  void TearDown() override { fs::remove_all(root_); }

  ProcessResult run(std::vector<std::string> args, const std::map<std::string, std::string>& extra_env = {}) {
    auto host = make_system_host();
    ProcessSpec spec;
    spec.argv = {TFGPU_EXE};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.timeout = std::chrono::milliseconds(60000);
    spec.env_overrides = {{"HOME", (root_ / "home").string()},
                          {"PATH", (root_ / "venv/bin").string() + ":/usr/bin:/bin"},
                          {"LD_LIBRARY_PATH", (root_ / "lib").string()},
                          {"VIRTUAL_ENV", (root_ / "venv").string()},
                          {"XDG_CACHE_HOME", ""}, {"CONDA_PREFIX", ""}, {"CONDA_EXE", ""}, {"PYENV_ROOT", ""}};
    for (const auto& [k, v] : extra_env) spec.env_overrides[k] = v;
    auto r = host->run(spec);
    EXPECT_TRUE(r.has_value());
    return r.value_or(ProcessResult{});
  }
  fs::path root_;
};

TEST_F(ProbeCli, JsonIsASnapshotWithTheVenvTensorflowAndLdLibraryPathFiles) {
  ProcessResult r = run({"probe", "--json"});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto s = parse_snapshot(r.out, "probe --json");
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->schema_version, kSnapshotSchemaVersion);
  EXPECT_EQ(s->origin, "probe");
  EXPECT_EQ(s->host.os, "linux");
  EXPECT_NE(s->driver.state.status, ProbeStatus::kNotProbed);
  EXPECT_FALSE(s->driver.attempts.empty());
  const PythonEnv* venv = nullptr;
  for (const auto& p : s->pythons)
    if (p.executable == (root_ / "venv/bin/python3").string()) venv = &p;
  ASSERT_NE(venv, nullptr);
  EXPECT_TRUE(venv->active);
  ASSERT_EQ(venv->tensorflow.size(), 1u);
  EXPECT_EQ(venv->tensorflow[0].version, "2.21.0");
  EXPECT_EQ(venv->tensorflow[0].build_info.at("cuda_version"), "12.5.1");
  bool found = false;
  for (const auto& f : s->libraries)
    if (f.path == (root_ / "lib/libcudnn.so.8.9.7").string()) {
      found = true;
      EXPECT_EQ(f.origin, "LD_LIBRARY_PATH");
      EXPECT_EQ(f.version, "8.9.7");
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(s->env.at("LD_LIBRARY_PATH"), (root_ / "lib").string());
}

// Real-looking credentials in the environment (shapes of AWS, GitHub, Slack, GitLab,
// Hugging Face, OpenAI keys, a PEM key, a URL with a password, Terraform variables) under
// names tfgpu skips and under names it keeps: none reaches any output of probe or doctor.
TEST_F(ProbeCli, NoCredentialFromTheEnvironmentReachesAnyOutput) {
  const std::map<std::string, std::string> env = {
      {"TF_VAR_db_password", "hunter2"},
      {"AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"},
      {"AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
      {"GITHUB_TOKEN", "ghp_R3alLook1ngT0kenV4lue0123456789abcd"},
      {"TF_CPP_VMODULE", "ghp_Z9y8X7w6V5u4T3s2R1q0PpOoNnMmLlKkJjIi"},
      {"CUDA_API_KEY", "correct-horse-battery"},
      {"NVIDIA_TOKEN", "nvapi-Qw3rTy7uI0oP1aS2dF3gH4jK5lZ6xC7vB8nM9"},
      {"TF_GPU_ALLOCATOR", "xoxb-112233445566-778899001122-AbCdEfGhIjKlMnOpQrStUvWx"},
      {"XLA_FLAGS", "--xla_gpu_cuda_data_dir=/usr/local/cuda --auth=glpat-Xx1Yy2Zz3Ww4Vv5Uu6Tt7"},
      {"CUDA_CACHE_PATH", "-----BEGIN RSA PRIVATE KEY-----MIIEpAIBAAKCAQEA7b"},
      {"PYTHONPATH", "https://alice:s3cr3tpw@pypi.example.com/simple"},
      {"TF_ENABLE_ONEDNN_OPTS", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
      {"OPENAI_API_KEY", "sk-proj-4bC9dE2fG7hJ1kL6mN3pQ8rS5tU0vW"},
  };
  const std::vector<std::string> secrets = {
      "hunter2", "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "ghp_R3alLook1ngT0ken", "ghp_Z9y8X7w6V5u4", "correct-horse",
      "nvapi-Qw3rTy7", "xoxb-112233", "glpat-Xx1Yy2", "BEGIN RSA", "MIIEpAIBAAKCAQEA", "s3cr3tpw",
      "hf_AbCdEfGh", "sk-proj-4bC9"};
  for (const auto& args : std::vector<std::vector<std::string>>{{"probe", "--json"}, {"probe"}, {"probe", "--libraries"},
                                                                {"doctor"}, {"doctor", "--json"}, {"doctor", "--markdown"},
                                                                {"probe", "--json", "--redact"}}) {
    ProcessResult r = run(args, env);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_LE(r.exit_code, 1) << join(args, " ") << ": " << r.err;
    for (const auto& secret : secrets) {
      EXPECT_EQ(r.out.find(secret), std::string::npos) << join(args, " ") << " prints " << secret;
      EXPECT_EQ(r.err.find(secret), std::string::npos) << join(args, " ") << " prints " << secret << " on stderr";
    }
  }
  ProcessResult r = run({"probe", "--json"}, env);
  auto s = parse_snapshot(r.out, "probe --json");
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->env.count("TF_VAR_db_password"), 0u);
  EXPECT_EQ(s->env.at("CUDA_API_KEY"), "<redacted>");
  EXPECT_EQ(s->env.at("XLA_FLAGS"), "--xla_gpu_cuda_data_dir=/usr/local/cuda --auth=<redacted>");
}

// `probe --json --redact`: a snapshot to publish. The user name is hidden as any path
// component (here the test's folder stands for a home outside /home), the result is
// still a snapshot doctor reads.
TEST_F(ProbeCli, RedactedJsonHidesTheUserAndStaysASnapshot) {
  std::string user = root_.filename().string();
  ProcessResult r = run({"probe", "--json", "--redact"}, {{"USER", user}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find(user), std::string::npos);
  auto s = parse_snapshot(r.out, "probe --json --redact");
  ASSERT_TRUE(s.has_value()) << s.error().message;
  bool found = false;
  for (const auto& p : s->pythons) found = found || p.executable == (root_.parent_path() / "<user>/venv/bin/python3").string();
  EXPECT_TRUE(found) << r.out.substr(0, 2000);
  ProcessResult text = run({"probe", "--redact"});
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_EQ(std::count(text.err.begin(), text.err.end(), '\n'), 1) << text.err;
}

TEST_F(ProbeCli, ChangesNothingOnDisk) {
  auto before = tree(root_);
  ProcessResult r = run({"probe", "--json", "--load-runtime"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run({"probe", "--libraries"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto after = tree(root_);
  EXPECT_EQ(before, after);
  EXPECT_FALSE(fs::exists(root_ / "home/.cache")) << "no cache dir may be created";
}

TEST_F(ProbeCli, TextReportHasTheFourLayers) {
  ProcessResult r = run({"probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* h : {"1. Hardware", "2. Driver", "3. Runtime", "4. Framework"})
    EXPECT_NE(r.out.find(h), std::string::npos) << h;
}

TEST_F(ProbeCli, MissingPythonIsAUsageErrorOnOneLine) {
  ProcessResult r = run({"probe", "--python", (root_ / "nope/python3").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST_F(ProbeCli, ChildEntryPointRejectsUnknownLibraries) {
  ProcessResult r = run({"__probe-driver", "--library", "opencl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown --library"), std::string::npos);
}

TEST_F(ProbeCli, ChildEntryPointReportsAMissingLibraryAsJson) {
  ProcessResult r = run({"__probe-driver", "--library", "nvml", "--path", (root_ / "none/libnvidia-ml.so.1").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["opened"], "");
  ASSERT_EQ(j["errors"].size(), 1u);
}

}  // namespace
}  // namespace tfgpu
