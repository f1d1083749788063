// The embedded PTX is valid PTX: assembled by NVIDIA's ptxas when a CUDA toolkit is on
// this machine (skipped, visibly, when it is not). Running it needs a GPU (device-check.sh).
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "gpu/ptx.h"
#include "host/host.h"

namespace tfgpu::gpu {
namespace {

TEST(GpuPtx, DeclaresALowIsaAndTargetSoEveryDriverSinceCuda9CanJitIt) {
  std::string ptx = kernels_ptx();
  EXPECT_NE(ptx.find(".version 6.0"), std::string::npos);
  EXPECT_NE(ptx.find(".target sm_50"), std::string::npos);
  EXPECT_NE(ptx.find(std::string(".entry ") + kSaxpyKernel + "("), std::string::npos);
  EXPECT_NE(ptx.find(std::string(".entry ") + kCopyKernel + "("), std::string::npos);
}

TEST(GpuPtx, AssemblesWithPtxas) {
  auto host = make_system_host();
  std::string ptxas;
  for (std::string dir : {std::string(host->env("CUDA_HOME").value_or("/usr/local/cuda")), std::string("/usr/local/cuda")}) {
    if (host->is_file(dir + "/bin/ptxas")) {
      ptxas = dir + "/bin/ptxas";
      break;
    }
  }
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (no CUDA toolkit here): PTX syntax not checked";
  std::string src = std::string(TFGPU_TEST_BINARY_DIR) + "/tfgpu_kernels.ptx";
  std::ofstream(src) << kernels_ptx();
  // The oldest architecture this ptxas still generates code for (CUDA 13 dropped sm_50..sm_72).
  std::string last_err;
  for (const char* arch : {"sm_50", "sm_75", "sm_90"}) {
    ProcessSpec spec;
    spec.argv = {ptxas, std::string("-arch=") + arch, src, "-o", src + ".cubin"};
    auto r = host->run(spec);
    ASSERT_TRUE(r.has_value());
    if (r->exited && r->exit_code == 0) {
      SUCCEED() << "assembled for " << arch;
      return;
    }
    last_err = r->err;
    if (last_err.find("not defined for option") == std::string::npos) break;  // a real PTX error
  }
  FAIL() << "ptxas rejected the embedded PTX: " << last_err;
}

}  // namespace
}  // namespace tfgpu::gpu
