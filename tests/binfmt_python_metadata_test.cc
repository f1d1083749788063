// Python packaging metadata rules: METADATA / PKG-INFO headers and pyvenv.cfg.
#include <gtest/gtest.h>

#include "binfmt/python_metadata.h"

namespace tfgpu::binfmt {
namespace {

// Shape of a real tensorflow wheel's METADATA (header block, then the description).
const char* kTensorflowMetadata =
    "Metadata-Version: 2.1\n"
    "Name: tensorflow\n"
    "Version: 2.15.0.post1\n"
    "Summary: TensorFlow is an open source machine learning framework for everyone.\n"
    "Home-page: https://www.tensorflow.org/\n"
    "License: Apache 2.0\n"
    "Requires-Python: >=3.9\n"
    "Description-Content-Type: text/markdown\n"
    "Requires-Dist: absl-py >=1.0.0\n"
    "Requires-Dist: numpy <2.0.0,>=1.23.5\n"
    "Requires-Dist: nvidia-cudnn-cu12 ==8.9.4.25 ; extra == 'and-cuda'\n"
    "Provides-Extra: and-cuda\n"
    "\n"
    "Name: not-a-header-this-is-the-description\n"
    "Version: 0\n";

TEST(DistMetadata, HeadersAreReadUntilTheFirstBlankLine) {
  auto md = parse_dist_metadata(kTensorflowMetadata, "tensorflow-2.15.0.post1.dist-info/METADATA");
  ASSERT_TRUE(md) << md.error().message;
  EXPECT_EQ(md->name, "tensorflow");
  EXPECT_EQ(md->normalized_name, "tensorflow");
  EXPECT_EQ(md->version, "2.15.0.post1");
  EXPECT_EQ(md->metadata_version, "2.1");
  EXPECT_EQ(md->requires_python, ">=3.9");
  EXPECT_EQ(md->requires_dist, (std::vector<std::string>{
                                   "absl-py >=1.0.0", "numpy <2.0.0,>=1.23.5",
                                   "nvidia-cudnn-cu12 ==8.9.4.25 ; extra == 'and-cuda'"}));
}

TEST(DistMetadata, EggInfoPkgInfoWithCrLfAndFoldedLines) {
  auto md = parse_dist_metadata(
      "Metadata-Version: 1.1\r\nName: Tensorflow_GPU\r\nVersion: 1.15.0\r\nSummary: long\r\n   folded summary\r\n", "PKG-INFO");
  ASSERT_TRUE(md) << md.error().message;
  EXPECT_EQ(md->name, "Tensorflow_GPU");
  EXPECT_EQ(md->normalized_name, "tensorflow-gpu");
  EXPECT_EQ(md->version, "1.15.0");
}

TEST(DistMetadata, FieldNamesAreCaseInsensitive) {
  auto md = parse_dist_metadata("name: keras\nVERSION: 3.0.1\nrequires-dist: rich\n");
  ASSERT_TRUE(md) << md.error().message;
  EXPECT_EQ(md->name, "keras");
  EXPECT_EQ(md->version, "3.0.1");
  EXPECT_EQ(md->requires_dist, std::vector<std::string>{"rich"});
}

TEST(DistMetadata, MissingNameOrVersionIsAnInputError) {
  auto no_name = parse_dist_metadata("Version: 1.0\n", "x/METADATA");
  ASSERT_FALSE(no_name);
  EXPECT_EQ(no_name.error().kind, ErrorKind::kInput);
  EXPECT_EQ(no_name.error().message, "x/METADATA: no Name field in metadata");
  auto no_version = parse_dist_metadata("Name: x\n", "x/METADATA");
  ASSERT_FALSE(no_version);
  EXPECT_EQ(no_version.error().message, "x/METADATA: no Version field in metadata");
}

TEST(DistMetadata, NamesAreNormalisedPerPep503) {
  EXPECT_EQ(normalize_dist_name("Friendly-Bard"), "friendly-bard");
  EXPECT_EQ(normalize_dist_name("FRIENDLY-BARD"), "friendly-bard");
  EXPECT_EQ(normalize_dist_name("friendly.bard"), "friendly-bard");
  EXPECT_EQ(normalize_dist_name("friendly_bard"), "friendly-bard");
  EXPECT_EQ(normalize_dist_name("friendly--bard"), "friendly-bard");
  EXPECT_EQ(normalize_dist_name("FrIeNdLy-._.-bArD"), "friendly-bard");
  EXPECT_EQ(normalize_dist_name("nvidia_cudnn_cu12"), "nvidia-cudnn-cu12");
}

TEST(PyvenvCfg, VenvModuleLayout) {
  auto cfg = parse_pyvenv_cfg(
      "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n"
      "executable = /usr/bin/python3.11\ncommand = /usr/bin/python3 -m venv /home/u/.venv\n",
      "/home/u/.venv/pyvenv.cfg");
  ASSERT_TRUE(cfg) << cfg.error().message;
  EXPECT_EQ(cfg->home, "/usr/bin");
  EXPECT_EQ(cfg->version, "3.11.2");
  EXPECT_EQ(cfg->include_system_site_packages, Tri::kNo);
  EXPECT_EQ(cfg->executable, "/usr/bin/python3.11");
  EXPECT_EQ(cfg->command, "/usr/bin/python3 -m venv /home/u/.venv");
}

TEST(PyvenvCfg, UvAndVirtualenvWriteVersionInfo) {
  auto cfg = parse_pyvenv_cfg(
      "home = C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python310\n"
      "implementation = CPython\nuv = 0.4.0\nversion_info = 3.10.11\n"
      "Include-System-Site-Packages = TRUE\n");
  ASSERT_TRUE(cfg) << cfg.error().message;
  EXPECT_EQ(cfg->home, "C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python310");
  EXPECT_EQ(cfg->version, "3.10.11");
  EXPECT_EQ(cfg->include_system_site_packages, Tri::kYes);
  EXPECT_EQ(cfg->values.at("implementation"), "CPython");
}

TEST(PyvenvCfg, UnknownIncludeSystemSitePackagesWhenAbsent) {
  auto cfg = parse_pyvenv_cfg("home=/opt/py/bin\n");
  ASSERT_TRUE(cfg) << cfg.error().message;
  EXPECT_EQ(cfg->home, "/opt/py/bin");
  EXPECT_EQ(cfg->include_system_site_packages, Tri::kUnknown);
}

TEST(PyvenvCfg, MissingHomeIsAnInputError) {
  auto cfg = parse_pyvenv_cfg("version = 3.11.2\n", "pyvenv.cfg");
  ASSERT_FALSE(cfg);
  EXPECT_EQ(cfg.error().kind, ErrorKind::kInput);
  EXPECT_EQ(cfg.error().message, "pyvenv.cfg: no 'home' key in pyvenv.cfg");
}

}  // namespace
}  // namespace tfgpu::binfmt
