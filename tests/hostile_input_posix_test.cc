// The real binary against hostile input where a file is required: a snapshot nested
// 100,000 levels deep, a schema_version that only wraps to 1, a FIFO nobody writes to, a
// directory, and a standard output that cannot be written. Each is one line on stderr
// and the documented exit code, quickly, never a signal or a hang.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "host/host.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

class HostileInput : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tfgpu_hostile_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "dir");
    ASSERT_EQ(::mkfifo((root_ / "fifo").c_str(), 0600), 0);
  }
  void TearDown() override { fs::remove_all(root_); }
  // Runs tfgpu with a 20 s limit; `shell_tail` is appended to the command line (a redirection).
  ProcessResult tfgpu(const std::vector<std::string>& args, const std::string& shell_tail = "") {
    auto host = make_system_host();
    ProcessSpec spec;
    std::string cmd = "exec '" + std::string(TFGPU_EXE) + "'";
    for (const auto& a : args) cmd += " '" + a + "'";
    spec.argv = {"/bin/sh", "-c", cmd + shell_tail};
    spec.timeout = std::chrono::milliseconds(20000);
    auto r = host->run(spec);
    EXPECT_TRUE(r.has_value());
    return r.value_or(ProcessResult{});
  }
  void expect_one_line(const ProcessResult& r, int code, const std::string& words, const std::string& what) {
    EXPECT_FALSE(r.timed_out) << what;
    EXPECT_EQ(r.signal, 0) << what;
    EXPECT_EQ(r.exit_code, code) << what << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << what << ": " << r.err;
  }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(root_ / name, std::ios::binary) << text;
    return root_ / name;
  }
  fs::path root_;
};

TEST_F(HostileInput, DeeplyNestedSnapshotIsAnInputErrorNotACrash) {
  std::string deep = "{\"schema_version\": 1, \"gpus\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  std::string file = write("deep.json", deep).string();
  expect_one_line(tfgpu({"doctor", "--snapshot", file}), 2, "nested deeper than", "doctor");
  expect_one_line(tfgpu({"plan", "--snapshot", file}), 2, "nested deeper than", "plan");
  std::string deep_objects = std::string(100000, '{') + std::string(100000, '}');
  expect_one_line(tfgpu({"doctor", "--snapshot", write("deep2.json", deep_objects).string()}), 2, "nested deeper than",
                  "doctor, objects");
}

TEST_F(HostileInput, SchemaVersionOutOfRangeIsRejectedNotWrapped) {
  for (const char* v : {"4294967297", "-4294967295", "18446744073709551617", "1.0e0"}) {
    std::string file = write("v.json", std::string("{\"schema_version\": ") + v + "}").string();
    ProcessResult r = tfgpu({"doctor", "--snapshot", file});
    EXPECT_EQ(r.exit_code, 2) << v << ": " << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("schema_version"), std::string::npos) << v << ": " << r.err;
  }
}

TEST_F(HostileInput, AFifoOrADirectoryWhereAFileIsRequiredIsRefusedAtOnce) {
  std::string fifo = (root_ / "fifo").string(), dir = (root_ / "dir").string();
  expect_one_line(tfgpu({"doctor", "--snapshot", fifo}), 2, "FIFO", "doctor --snapshot FIFO");
  expect_one_line(tfgpu({"doctor", "--snapshot", dir}), 2, "directory", "doctor --snapshot DIR");
  expect_one_line(tfgpu({"plan", "--snapshot", fifo}), 2, "FIFO", "plan --snapshot FIFO");
  expect_one_line(tfgpu({"doctor", "--lock", fifo}), 2, "FIFO", "doctor --lock FIFO");
  expect_one_line(tfgpu({"doctor", "--lock", dir}), 2, "directory", "doctor --lock DIR");
  expect_one_line(tfgpu({"probe", "--python", fifo}), 2, "not a regular file", "probe --python FIFO");
  expect_one_line(tfgpu({"probe", "--python", dir}), 2, "not a regular file", "probe --python DIR");
  expect_one_line(tfgpu({"verify", "--python", fifo}), 2, "not a regular file", "verify --python FIFO");
  expect_one_line(tfgpu({"verify", "--prediction", fifo}), 2, "FIFO", "verify --prediction FIFO");
  expect_one_line(tfgpu({"matrix", "--tf", "2.15", "--kb", fifo}), 2, "--kb", "--kb FIFO");
  // A KB folder whose file is a FIFO.
  fs::create_directories(root_ / "kb");
  for (const auto& e : fs::directory_iterator(fs::path(TFGPU_SOURCE_DIR) / "kb"))
    if (e.path().extension() == ".toml") fs::copy_file(e.path(), root_ / "kb" / e.path().filename());
  fs::remove(root_ / "kb/tensorflow.toml");
  ASSERT_EQ(::mkfifo((root_ / "kb/tensorflow.toml").c_str(), 0600), 0);
  expect_one_line(tfgpu({"matrix", "--tf", "2.15", "--kb", (root_ / "kb").string()}), 2, "FIFO",
                  "--kb DIR with a FIFO");
}

TEST_F(HostileInput, AFailedWriteToStandardOutputIsExitThreeWithOneLine) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  std::string snap = testing::scenario_dir() + "/win_classic_guide_tf212.json";
  for (auto args : std::vector<std::vector<std::string>>{{"--json", "doctor", "--snapshot", snap},
                                                         {"doctor", "--snapshot", snap},
                                                         {"doctor", "--snapshot", snap, "--markdown"},
                                                         {"matrix", "--tf", "2.15"}}) {
    ProcessResult r = tfgpu(args, " >/dev/full");
    expect_one_line(r, 3, "cannot write", args[0] + " " + args[1]);
  }
}

}  // namespace
}  // namespace tfgpu
