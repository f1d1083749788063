// `tfgpu plan --out DIR` never writes through a symbolic link already in DIR: it refuses
// (exit 2, one line), with or without --force, and the link's target is left as it was.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "host/file_write.h"
#include "support/read_file.h"
#include "util/error.h"

namespace tfgpu {
namespace {

namespace fs = std::filesystem;

class PlanOut : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tfgpu_plan_out_posix_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "out");
    std::ofstream(root_ / "victim.txt") << "the user's precious file\n";
    ::chmod((root_ / "victim.txt").c_str(), 0600);
  }
  void TearDown() override { fs::remove_all(root_); }
  int plan(std::vector<std::string> extra, std::string* err) {
    FakeHost host(Platform::kLinux);
    std::vector<std::string> args = {
        "plan", "--os", "linux", "--gpu", "10de:2503", "--driver", "535.104.05", "--out", (root_ / "out").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::ostringstream out, e;
    int code = run_cli(args, host, out, e);
    *err = e.str();
    return code;
  }
  fs::path root_;
};

TEST_F(PlanOut, SymlinkAtAnOutputNameIsRefusedEvenWithForceAndItsTargetIsUntouched) {
  std::string err;
  // Find the names a plan writes (the first run into an empty folder).
  ASSERT_EQ(plan({}, &err), kExitOk) << err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(root_ / "out")) names.push_back(e.path().filename().string());
  ASSERT_GE(names.size(), 4u);
  for (const auto& name : names) {
    fs::remove_all(root_ / "out");
    fs::create_directories(root_ / "out");
    fs::create_symlink(root_ / "victim.txt", root_ / "out" / name);
    for (bool force : {false, true}) {
      int code = plan(force ? std::vector<std::string>{"--force"} : std::vector<std::string>{}, &err);
      EXPECT_EQ(code, kExitUsage) << name << (force ? " --force" : "");
      EXPECT_NE(err.find("is a symbolic link"), std::string::npos) << err;
      EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
      EXPECT_EQ(testing::read_file(root_ / "victim.txt"), "the user's precious file\n") << name;
      struct stat st {};
      ASSERT_EQ(::stat((root_ / "victim.txt").c_str(), &st), 0);
      EXPECT_EQ(st.st_mode & 07777, 0600u) << "the target was not made executable: " << name;
      EXPECT_TRUE(fs::is_symlink(fs::symlink_status(root_ / "out" / name))) << "refusal changes nothing";
    }
  }
}

TEST_F(PlanOut, FilesAreNewRegularFilesAndNoTemporaryFileIsLeft) {
  std::string err;
  ASSERT_EQ(plan({}, &err), kExitOk) << err;
  ASSERT_EQ(plan({}, &err), kExitOk) << "its own files are rewritten: " << err;
  bool executable_seen = false;
  for (const auto& e : fs::directory_iterator(root_ / "out")) {
    std::string name = e.path().filename().string();
    EXPECT_EQ(name.find("tfgpu-tmp"), std::string::npos) << name;
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(e.path()))) << name;
    struct stat st {};
    ASSERT_EQ(::stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0022, 0u) << "nobody else may write it: " << name;
    executable_seen = executable_seen || (st.st_mode & 0100);
  }
  EXPECT_TRUE(executable_seen) << "the setup script is executable";
}

TEST(FileWrite, ReplacingALinkReplacesTheLinkNotItsTarget) {
  fs::path dir = fs::temp_directory_path() / ("tfgpu_file_write_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "target") << "keep\n";
  fs::create_symlink(dir / "target", dir / "name");
  ASSERT_TRUE(write_file_replacing((dir / "name").string(), "new\n", WrittenFileMode::kExecutable).has_value());
  EXPECT_EQ(testing::read_file(dir / "target"), "keep\n");
  EXPECT_FALSE(fs::is_symlink(fs::symlink_status(dir / "name")));
  EXPECT_EQ(testing::read_file(dir / "name"), "new\n");
  EXPECT_TRUE(is_symlink_path((dir / "target").string()) == false);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tfgpu
