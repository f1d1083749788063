// The driver check against the mock libcuda.so.1 (tests/mocks_cuda): every step and every
// failure path, in this process (crash and hang are covered through the CLI in
// verify_cli_test.cc, where they happen in the child).
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu/cuda_driver.h"
#include "gpu/verify.h"
#include "support/mock_cuda.h"

namespace tfgpu::gpu {
namespace {

const std::string kMockCuda = testing::kMockCudaLibDir + "/libcuda.so.1";

class MockMode {
 public:
  explicit MockMode(const char* mode) { ::setenv("TFGPU_MOCK_CUDA", mode, 1); }
  ~MockMode() { ::unsetenv("TFGPU_MOCK_CUDA"); }
};

VerifyReport check(const char* mode) {
  MockMode m(mode);
  DriverCheckOptions o;
  o.driver_candidates = {kMockCuda};
  o.roundtrip_bytes = 4096;
  o.kernel_elements = 1000;
  return run_driver_check(o);
}

const StepResult* step(const std::vector<StepResult>& steps, const std::string& id) {
  for (const auto& s : steps) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

TEST(GpuVerify, HealthyMockPassesEveryStepOfEveryDevice) {
  auto r = check("ok");
  ASSERT_TRUE(r.passed()) << to_json(r).dump(2);
  EXPECT_EQ(r.driver_cuda_version, 12080);
  EXPECT_EQ(r.load.opened, kMockCuda);
  ASSERT_EQ(r.devices.size(), 1u);
  const auto& d = r.devices[0];
  EXPECT_EQ(d.name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(d.cc_major, 8);
  EXPECT_EQ(d.cc_minor, 9);
  EXPECT_EQ(d.pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(d.total_bytes, 24ull << 30);
  std::vector<std::string> ids;
  for (const auto& s : d.steps) ids.push_back(s.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"context", "alloc", "roundtrip", "kernel", "free", "memory"}));
  EXPECT_NE(step(d.steps, "kernel")->detail.find("1000 results correct"), std::string::npos);
}

TEST(GpuVerify, EveryDeviceIsChecked) {
  auto r = check("two_gpus");
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.devices[1].pci_bus_id, "0000:02:00.0");
}

TEST(GpuVerify, MissingDriverLibraryFailsTheFirstStepWithTheLoaderError) {
  DriverCheckOptions o;
  o.driver_candidates = {testing::kMockCudaLibDir + "/libcuda-does-not-exist.so.1"};
  auto r = run_driver_check(o);
  EXPECT_FALSE(r.passed());
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].id, "load_driver");
  EXPECT_EQ(r.steps[0].status, StepStatus::kFail);
  EXPECT_NE(r.steps[0].detail.find("libcuda-does-not-exist.so.1"), std::string::npos);
  EXPECT_NE(r.steps[0].fix.find("Install the NVIDIA driver"), std::string::npos);
  ASSERT_EQ(r.load.errors.size(), 1u);  // the verbatim dlerror() text is kept
}

TEST(GpuVerify, InitFailureCarriesTheDriversOwnErrorName) {
  auto r = check("init_fail");
  const auto* s = step(r.steps, "init");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_EQ(s->code, 999);
  EXPECT_EQ(s->error_name, "CUDA_ERROR_UNKNOWN");
  EXPECT_EQ(s->error_text, "unknown error");
  EXPECT_NE(s->fix.find("cuInit failed"), std::string::npos);
  EXPECT_TRUE(r.devices.empty());
}

TEST(GpuVerify, StubLibraryGetsTheStubSpecificFix) {
  auto r = check("stub");
  const auto* s = step(r.steps, "init");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_name, "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_NE(s->fix.find("stubs"), std::string::npos);
}

TEST(GpuVerify, NoDeviceErrorPointsAtCudaVisibleDevices) {
  auto r = check("no_device_error");
  const auto* s = step(r.steps, "init");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_name, "CUDA_ERROR_NO_DEVICE");
  EXPECT_NE(s->fix.find("CUDA_VISIBLE_DEVICES"), std::string::npos);
}

TEST(GpuVerify, ZeroDevicesIsAFailureNotAPass) {
  auto r = check("no_device");
  const auto* s = step(r.steps, "device_count");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_FALSE(r.passed());
}

TEST(GpuVerify, ContextFailureSkipsEverythingThatNeedsIt) {
  auto r = check("ctx_fail");
  ASSERT_EQ(r.devices.size(), 1u);
  const auto& steps = r.devices[0].steps;
  EXPECT_EQ(step(steps, "context")->status, StepStatus::kFail);
  for (const char* id : {"alloc", "roundtrip", "kernel", "free", "memory"}) {
    ASSERT_NE(step(steps, id), nullptr) << id;
    EXPECT_EQ(step(steps, id)->status, StepStatus::kSkip) << id;
  }
}

TEST(GpuVerify, AllocationFailureIsOutOfMemoryWithItsFix) {
  auto r = check("alloc_fail");
  const auto& steps = r.devices.at(0).steps;
  const auto* s = step(steps, "alloc");
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_EQ(s->error_name, "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_NE(s->fix.find("nvidia-smi"), std::string::npos);
  EXPECT_EQ(step(steps, "roundtrip")->status, StepStatus::kSkip);
  EXPECT_EQ(step(steps, "kernel")->status, StepStatus::kSkip);
  EXPECT_EQ(step(steps, "memory")->status, StepStatus::kPass);  // still readable
}

TEST(GpuVerify, CorruptedRoundTripNamesTheFirstBadByte) {
  auto r = check("corrupt");
  const auto* s = step(r.devices.at(0).steps, "roundtrip");
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_NE(s->detail.find("first at offset 100"), std::string::npos) << s->detail;
  EXPECT_FALSE(r.passed());
}

TEST(GpuVerify, ModuleLoadFailureIsReportedAtTheKernelStep) {
  auto r = check("module_fail");
  const auto* s = step(r.devices.at(0).steps, "kernel");
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_EQ(s->error_name, "CUDA_ERROR_INVALID_PTX");
  EXPECT_NE(s->detail.find("cuModuleLoadData"), std::string::npos);
}

TEST(GpuVerify, KernelLaunchFailureNamesTheCall) {
  auto r = check("kernel_fail");
  const auto* s = step(r.devices.at(0).steps, "kernel");
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_EQ(s->error_name, "CUDA_ERROR_LAUNCH_FAILED");
  EXPECT_NE(s->detail.find("cuLaunchKernel"), std::string::npos);
  EXPECT_EQ(step(r.devices[0].steps, "free")->status, StepStatus::kPass);  // buffers still freed
}

TEST(GpuVerify, WrongKernelResultIsCaughtElementByElement) {
  auto r = check("wrong_result");
  const auto* s = step(r.devices.at(0).steps, "kernel");
  EXPECT_EQ(s->status, StepStatus::kFail);
  EXPECT_NE(s->detail.find("y[17] = 51 (expected 53)"), std::string::npos) << s->detail;
  EXPECT_NE(s->fix.find("wrong result"), std::string::npos);
}

TEST(GpuVerifyJson, ReportSurvivesTheTripFromChildToParent) {
  auto r = check("kernel_fail");
  auto back = verify_report_from_json(nlohmann::json::parse(to_json(r).dump()));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(r));
}

TEST(GpuVerifyJson, HostileReportsAreErrorsNotCrashes) {
  for (const char* text : {"null", "[]", "{}", R"({"schema":"tfgpu.verify/1","steps":7})",
                           R"({"schema":"tfgpu.verify/1","steps":[{"id":"x","status":"maybe"}]})",
                           R"({"schema":"tfgpu.verify/1","devices":[1]})",
                           R"({"schema":"tfgpu.verify/1","devices":[{"steps":[{}]}]})"}) {
    auto r = verify_report_from_json(nlohmann::json::parse(text));
    EXPECT_FALSE(r.has_value()) << text;
  }
  // Fields of the wrong type read as absent rather than throwing.
  auto ok = verify_report_from_json(nlohmann::json::parse(
      R"({"schema":"tfgpu.verify/1","driver_cuda_version":"x","devices":[{"name":3,"compute_capability":"8"}]})"));
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->driver_cuda_version, 0);
}

TEST(CudaVersionText, DecodesTheDriverEncoding) {
  EXPECT_EQ(cuda_version_text(12080), "12.8");
  EXPECT_EQ(cuda_version_text(13000), "13.0");
  EXPECT_EQ(cuda_version_text(9020), "9.2");
  EXPECT_EQ(cuda_version_text(0), "unknown");
}

}  // namespace
}  // namespace tfgpu::gpu
