#pragma once
// cuBLASLt (libcublasLt.so.N / cublasLt64_N.dll) as a typed function table opened at run
// time, for `tfgpu bench`'s FP8 GEMM (cublasGemmEx has no FP8): the few types, constants
// and entry points used, declared here (values from cublasLt.h / cublas_api.h /
// library_types.h, CUDA 12-13) so that no CUDA SDK is needed to build. The candidate
// names come from the KB (cuda.toml `cublasLt`), newest first. Load it in a child only.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/cublas.h"
#include "host/dynamic_library.h"
#include "util/error.h"

namespace tfgpu::gpu {

struct cublasLtContext;
using cublasLtHandle_t = cublasLtContext*;
// The semi-opaque descriptors are pointers to structs the library fills; only pointers
// cross the boundary here.
using cublasLtMatmulDesc_t = void*;
using cublasLtMatrixLayout_t = void*;
using cublasLtMatmulPreference_t = void*;

// cublasLtMatmulAlgo_t: uint64_t data[8].
struct CublasLtMatmulAlgo {
  uint64_t data[8];
};
// cublasLtMatmulHeuristicResult_t.
struct CublasLtHeuristicResult {
  CublasLtMatmulAlgo algo;
  size_t workspace_size;
  cublasStatus_t state;
  float waves_count;
  int reserved[4];
};

// cublasLtMatmulDescAttributes_t.
enum CublasLtMatmulDescAttribute : int {
  kCublasLtMatmulDescTransA = 3,          // int32_t (cublasOperation_t)
  kCublasLtMatmulDescTransB = 4,          // int32_t
  kCublasLtMatmulDescAScalePointer = 17,  // const void* (device), default NULL = 1.0
  kCublasLtMatmulDescBScalePointer = 18,  // const void*
};
// cublasLtMatmulPreferenceAttributes_t.
inline constexpr int kCublasLtMatmulPrefMaxWorkspaceBytes = 1;  // uint64_t
inline constexpr int kCublasOpT = 1;                            // cublasOperation_t CUBLAS_OP_T

struct CublasLtApi {
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtCreate)(cublasLtHandle_t* handle) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtDestroy)(cublasLtHandle_t handle) = nullptr;
  size_t(TFGPU_CUBLASAPI* cublasLtGetVersion)() = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulDescCreate)(cublasLtMatmulDesc_t* desc, int compute_type,
                                                            int scale_type) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulDescDestroy)(cublasLtMatmulDesc_t desc) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulDescSetAttribute)(cublasLtMatmulDesc_t desc, int attr, const void* buf,
                                                                  size_t size) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatrixLayoutCreate)(cublasLtMatrixLayout_t* layout, int type, uint64_t rows,
                                                              uint64_t cols, int64_t ld) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatrixLayoutDestroy)(cublasLtMatrixLayout_t layout) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulPreferenceCreate)(cublasLtMatmulPreference_t* pref) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulPreferenceDestroy)(cublasLtMatmulPreference_t pref) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulPreferenceSetAttribute)(cublasLtMatmulPreference_t pref, int attr,
                                                                        const void* buf, size_t size) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmulAlgoGetHeuristic)(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                                                  cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                                                  cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                                                                  cublasLtMatmulPreference_t pref, int requested,
                                                                  CublasLtHeuristicResult* results,
                                                                  int* returned) = nullptr;
  cublasStatus_t(TFGPU_CUBLASAPI* cublasLtMatmul)(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha,
                                                  const void* a, cublasLtMatrixLayout_t a_desc, const void* b,
                                                  cublasLtMatrixLayout_t b_desc, const void* beta, const void* c,
                                                  cublasLtMatrixLayout_t c_desc, void* d, cublasLtMatrixLayout_t d_desc,
                                                  const CublasLtMatmulAlgo* algo, void* workspace,
                                                  size_t workspace_bytes, void* stream) = nullptr;
  const char*(TFGPU_CUBLASAPI* cublasLtGetStatusName)(cublasStatus_t status) = nullptr;  // optional
};

class CublasLt {
 public:
  // Opens the first loadable candidate ({"libcublasLt.so.13", ...}) and binds the entry
  // points; the LoadOutcome records every name tried.
  static Result<CublasLt> open(const std::vector<std::string>& candidates, LoadOutcome* outcome = nullptr);

  const CublasLtApi& api() const { return api_; }
  const std::string& path() const { return lib_.path(); }
  std::string status_name(cublasStatus_t s) const;  // "CUBLAS_STATUS_NOT_SUPPORTED" or "cublasStatus 15"

 private:
  DynamicLibrary lib_;
  CublasLtApi api_;
};

}  // namespace tfgpu::gpu
