// CUDA / cuDNN version file rules.
#include <gtest/gtest.h>

#include <filesystem>

#include "binfmt/cuda_version.h"
#include "support/binfmt_fixtures.h"

namespace tfgpu::binfmt {
namespace {

TEST(CudaVersionJson, CudaEntryGivesTheToolkitVersionAndComponentsAreKept) {
  auto v = parse_cuda_version_json(R"json({
   "cuda" : { "name" : "CUDA SDK", "version" : "12.2.2" },
   "cuda_cudart" : { "name" : "CUDA Runtime (cudart)", "version" : "12.2.140" },
   "libcublas" : { "name" : "CUDA cuBLAS", "version" : "12.2.5.6" },
   "nvidia_driver" : { "name" : "NVIDIA Linux Driver", "version" : "535.104.05" }
})json", "/usr/local/cuda-12.2/version.json");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->version, "12.2.2");
  EXPECT_EQ(v->components.at("cuda_cudart"), "12.2.140");
  EXPECT_EQ(v->components.at("libcublas"), "12.2.5.6");
  EXPECT_EQ(v->components.at("nvidia_driver"), "535.104.05");
}

TEST(CudaVersionJson, MissingCudaEntryAndBadJsonAreInputErrors) {
  auto no_cuda = parse_cuda_version_json(R"({"cuda_cudart": {"version": "12.2.140"}})", "v.json");
  ASSERT_FALSE(no_cuda);
  EXPECT_EQ(no_cuda.error().kind, ErrorKind::kInput);
  EXPECT_EQ(no_cuda.error().message, "v.json: no \"cuda\" version in version.json");
  auto bad = parse_cuda_version_json("{\"cuda\": ", "v.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "v.json: not valid JSON");
  auto odd = parse_cuda_version_json(R"({"cuda": {"version": "12.2; rm"}})", "v.json");
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().message, "v.json: malformed CUDA version '12.2; rm'");
}

TEST(CudaVersionJson, ThisMachinesToolkitWhenPresent) {
  const std::string path = "/usr/local/cuda/version.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path << " on this machine";
  auto v = parse_cuda_version_json(test::read_binary_file(path), path);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->version.starts_with("13.")) << v->version;  // libcudart.so.13 is installed here
  EXPECT_TRUE(v->components.contains("cuda_cudart"));
}

TEST(CudaVersionTxt, OldToolkitsWriteOneLine) {
  auto v = parse_cuda_version_txt("CUDA Version 10.2.89\n", "/usr/local/cuda-10.2/version.txt");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, "10.2.89");
  auto bad = parse_cuda_version_txt("hello\n", "version.txt");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "version.txt: no 'CUDA Version' line");
}

TEST(CudnnVersionHeader, Cudnn9Defines) {
  auto v = parse_cudnn_version_header(
      "/* header */\n#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
      "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n\n"
      "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n#endif\n",
      "cudnn_version.h");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, "9.19.0");
}

TEST(CudnnVersionHeader, Cudnn7CudnnHWithSpacingAndComments) {
  auto v = parse_cudnn_version_header("#  define CUDNN_MAJOR      7\n#define CUDNN_MINOR\t6 // minor\n"
                                      "#define CUDNN_PATCHLEVEL 5 /* patch */\n");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, "7.6.5");
}

TEST(CudnnVersionHeader, Cudnn8CudnnHWithoutDefinesIsNotFound) {
  auto v = parse_cudnn_version_header("#include \"cudnn_version.h\"\n", "cudnn.h");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(v.error().message, "cudnn.h: no CUDNN_MAJOR define");
}

TEST(CudnnVersionHeader, NonNumericValueIsAnInputError) {
  auto v = parse_cudnn_version_header("#define CUDNN_MAJOR X\n", "cudnn_version.h");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().kind, ErrorKind::kInput);
  EXPECT_EQ(v.error().message, "cudnn_version.h: CUDNN_MAJOR is not a number: 'X'");
}

}  // namespace
}  // namespace tfgpu::binfmt

namespace tfgpu::binfmt {
namespace {

TEST(CudnnVersionHeader, ThisMachinesCudnnWhenPresent) {
  const std::string path = "/usr/local/cuda/include/cudnn_version.h";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path << " on this machine";
  auto v = parse_cudnn_version_header(test::read_binary_file(path), path);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_TRUE(v->starts_with("9.")) << *v;  // the cudnn_version_v9.h next to it says 9
}

}  // namespace
}  // namespace tfgpu::binfmt
