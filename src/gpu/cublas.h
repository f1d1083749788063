#pragma once
// cuBLAS (libcublas.so.N / cublas64_N.dll) as a typed function table opened at run time:
// the handful of types, constants and entry points `tfgpu bench` calls for GEMM
// throughput, declared here so that no CUDA SDK is needed to build. The candidate file
// names come from the KB (cuda.toml), newest first. Load it in a child process only.

#include <string>
#include <vector>

#include "host/dynamic_library.h"
#include "util/error.h"

#if defined(_WIN32) && !defined(_WIN64)
#define TFGPU_CUBLASAPI __stdcall
#else
#define TFGPU_CUBLASAPI
#endif

namespace tfgpu::gpu {

struct cublasContext;
using cublasHandle_t = cublasContext*;
using cublasStatus_t = int;  // CUBLAS_STATUS_SUCCESS = 0

inline constexpr cublasStatus_t kCublasSuccess = 0;

// cudaDataType_t (library_types.h).
enum CudaDataType : int {
  kCudaR32F = 0,
  kCudaR16F = 2,
  kCudaR16BF = 14,
  kCudaR8F_E4M3 = 28,
};

// cublasComputeType_t (cublas_api.h, CUDA 11+).
enum CublasComputeType : int {
  kCublasCompute16F = 64,
  kCublasCompute32F = 68,
  kCublasCompute32FPedantic = 69,
  kCublasCompute32FFastTf32 = 77,
};

inline constexpr int kCublasOpN = 0;             // cublasOperation_t CUBLAS_OP_N
inline constexpr int kCublasGemmDefault = -1;    // cublasGemmAlgo_t CUBLAS_GEMM_DEFAULT

struct CublasApi {
  cublasStatus_t(TFGPU_CUBLASAPI* cublasCreate)(cublasHandle_t* handle) = nullptr;  // _v2
  cublasStatus_t(TFGPU_CUBLASAPI* cublasDestroy)(cublasHandle_t handle) = nullptr;  // _v2
  cublasStatus_t(TFGPU_CUBLASAPI* cublasGetVersion)(cublasHandle_t handle, int* version) = nullptr;  // _v2
  cublasStatus_t(TFGPU_CUBLASAPI* cublasGemmEx)(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                                                const void* alpha, const void* a, int a_type, int lda,
                                                const void* b, int b_type, int ldb, const void* beta, void* c,
                                                int c_type, int ldc, int compute_type, int algo) = nullptr;
  const char*(TFGPU_CUBLASAPI* cublasGetStatusName)(cublasStatus_t status) = nullptr;  // optional (11.4+)
};

class Cublas {
 public:
  // Opens the first loadable candidate (e.g. {"libcublas.so.13", "libcublas.so.12", ...})
  // and binds the entry points; the LoadOutcome records every name tried.
  static Result<Cublas> open(const std::vector<std::string>& candidates, LoadOutcome* outcome = nullptr);

  const CublasApi& api() const { return api_; }
  const std::string& path() const { return lib_.path(); }
  // "CUBLAS_STATUS_NOT_SUPPORTED" from the library, or "cublasStatus 15" when it cannot say.
  std::string status_name(cublasStatus_t s) const;

 private:
  DynamicLibrary lib_;
  CublasApi api_;
};

}  // namespace tfgpu::gpu
