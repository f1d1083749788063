// Library planting: an empty, "." or relative LD_LIBRARY_PATH element must never make the
// probe's own driver child load a libnvidia-ml.so.1 / libcuda.so.1 left in the current
// directory (the mocks of tests/mocks_nvml play the planted files), and doctor warns
// about such an element.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "host/host.h"
#include "snapshot/snapshot_json.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMockUuid = "GPU-11111111-2222-3333-4444-555555555555";

class ProbePlanting : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tfgpu_planting_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "cwd/rel");
    std::string mocks = std::string(TFGPU_TEST_BINARY_DIR) + "/mocks_nvml";
    for (const fs::path& dir : {root_ / "cwd", root_ / "cwd/rel"}) {
      fs::copy_file(mocks + "/current/libnvidia-ml.so.1", dir / "libnvidia-ml.so.1");
      fs::copy_file(mocks + "/cuda/libcuda.so.1", dir / "libcuda.so.1");
    }
  }
  void TearDown() override { fs::remove_all(root_); }
  // tfgpu started in root_/cwd with this LD_LIBRARY_PATH.
  ProcessResult run_in_cwd(const std::string& ld_library_path, const std::vector<std::string>& args) {
    auto host = make_system_host();
    ProcessSpec spec;
    std::string cmd = "cd '" + (root_ / "cwd").string() + "' && exec '" + TFGPU_EXE + "'";
    for (const auto& a : args) cmd += " '" + a + "'";
    spec.argv = {"/bin/sh", "-c", cmd};
    spec.env_overrides = {
        {"LD_LIBRARY_PATH", ld_library_path}, {"TFGPU_MOCK_NVML", "one_gpu"}, {"TFGPU_MOCK_CUDA", "ok"}};
    spec.timeout = std::chrono::milliseconds(60000);
    auto r = host->run(spec);
    EXPECT_TRUE(r.has_value());
    return r.value_or(ProcessResult{});
  }
  bool loaded_a_planted_library(const Snapshot& s) {
    for (const auto& a : s.driver.attempts)
      if (a.opened.find(root_.string()) != std::string::npos || a.opened.rfind("./", 0) == 0 ||
          a.opened.rfind("rel/", 0) == 0)
        return true;
    for (const auto& g : s.gpus)
      if (g.uuid == kMockUuid) return true;
    return false;
  }
  fs::path root_;
};

TEST_F(ProbePlanting, TheDriverChildNeverLoadsFromTheCurrentDirectory) {
  // The control: named by an absolute folder the mock is loaded, so the check below can see it.
  ProcessResult control = run_in_cwd((root_ / "cwd").string(), {"probe", "--json"});
  ASSERT_EQ(control.exit_code, 0) << control.err;
  auto cs = parse_snapshot(control.out);
  ASSERT_TRUE(cs.has_value()) << cs.error().message;
  ASSERT_TRUE(loaded_a_planted_library(*cs)) << "control: the mock must load from an absolute LD_LIBRARY_PATH";
  for (const std::string& llp : {std::string(":"), std::string("."), std::string("rel"),
                                 std::string("/nonexistent::/x"), std::string("/nonexistent:")}) {
    ProcessResult r = run_in_cwd(llp, {"probe", "--json"});
    ASSERT_EQ(r.exit_code, 0) << llp << ": " << r.err;
    auto s = parse_snapshot(r.out);
    ASSERT_TRUE(s.has_value()) << s.error().message;
    EXPECT_FALSE(loaded_a_planted_library(*s)) << "LD_LIBRARY_PATH=" << llp << " loaded the planted library:\n"
                                               << r.out.substr(0, 3000);
    EXPECT_EQ(s->env.at("LD_LIBRARY_PATH"), llp) << "the snapshot records the variable as it is";
  }
}

TEST_F(ProbePlanting, DoctorWarnsAboutACurrentDirectoryElement) {
  for (const std::string& llp : {std::string(":/usr/lib"), std::string("./lib"), std::string("/usr/lib:")}) {
    ProcessResult r = run_in_cwd(llp, {"--json", "doctor"});
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.err;
    bool warned = false;
    for (const auto& f : j["findings"]) warned = warned || f["id"] == "library_path_current_dir";
    EXPECT_TRUE(warned) << "LD_LIBRARY_PATH=" << llp;
  }
}

}  // namespace
}  // namespace tfgpu
