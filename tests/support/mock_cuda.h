#pragma once
// Where the test build puts the mock CUDA driver libraries (tests/mocks): libcuda.so.1 and
// libnvidia-ml.so.1 that answer like a GPU machine's driver.
#include <string>

namespace tfgpu::testing {

inline const std::string kMockCudaLibDir = std::string(TFGPU_TEST_BINARY_DIR) + "/mocks_cuda/lib";

}  // namespace tfgpu::testing
