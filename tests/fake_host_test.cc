#include "host/fake_host.h"

#include <gtest/gtest.h>

namespace tfgpu {
namespace {

TEST(FakeHost, FollowsSymlinksLikeTheKernel) {
  FakeHost h;
  h.add_file("/usr/local/cuda-13.0/version.json", "{}");
  h.add_symlink("/usr/local/cuda", "cuda-13.0");
  EXPECT_EQ(h.read_file("/usr/local/cuda/version.json").value(), "{}");
  EXPECT_EQ(h.canonical("/usr/local/cuda/version.json").value(), "/usr/local/cuda-13.0/version.json");
  EXPECT_EQ(h.lstat("/usr/local/cuda")->type, FileType::kSymlink);
  EXPECT_EQ(h.lstat("/usr/local/cuda")->link_target, "cuda-13.0");
  EXPECT_EQ(h.stat("/usr/local/cuda")->type, FileType::kDirectory);
}

TEST(FakeHost, ListsDirectChildrenOnly) {
  FakeHost h;
  h.add_file("/a/b/c.txt", "x").add_file("/a/d.txt", "y");
  auto entries = h.list_dir("/a").value();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "b");
  EXPECT_EQ(entries[0].type, FileType::kDirectory);
  EXPECT_EQ(entries[1].name, "d.txt");
  EXPECT_FALSE(h.list_dir("/nope").has_value());
}

TEST(FakeHost, WindowsPathsAreCaseInsensitiveWithEitherSlash) {
  FakeHost h(Platform::kWindows);
  h.add_file("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin\\cudart64_110.dll", "MZ");
  EXPECT_TRUE(h.is_file("c:/program files/nvidia gpu computing toolkit/cuda/v11.2/bin/CUDART64_110.DLL"));
  auto entries = h.list_dir("C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2/bin").value();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "cudart64_110.dll");
  h.set_env("Path", "C:\\x");
  EXPECT_EQ(h.env("PATH").value(), "C:\\x");
}

TEST(FakeHost, RegistryValuesAndSubkeys) {
  FakeHost h(Platform::kWindows);
  h.set_registry_value("HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v11.2", "InstallDir", "C:\\cuda");
  EXPECT_EQ(h.registry_value("HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v11.2", "InstallDir").value(),
            "C:\\cuda");
  auto keys = h.registry_subkeys("HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA").value();
  EXPECT_EQ(keys, (std::vector<std::string>{"v11.2"}));
}

TEST(FakeHost, ProcessesAreScripted) {
  FakeHost h;
  EXPECT_FALSE(h.run({{"python3"}}).has_value());
  h.set_process_handler([](const ProcessSpec& spec) -> Result<ProcessResult> {
    ProcessResult r;
    r.exited = true;
    r.exit_code = 0;
    r.out = spec.argv.at(0);
    return r;
  });
  EXPECT_EQ(h.run({{"python3"}})->out, "python3");
  EXPECT_EQ(h.processes_run(), 2);
}

}  // namespace
}  // namespace tfgpu
