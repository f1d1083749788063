#include "gpu/cublas_lt.h"

#include <fmt/format.h>

namespace tfgpu::gpu {

Result<CublasLt> CublasLt::open(const std::vector<std::string>& candidates, LoadOutcome* outcome) {
  auto lib = DynamicLibrary::open(candidates, outcome);
  if (!lib) return fail(lib.error());
  CublasLt c;
  c.lib_ = std::move(*lib);
  SymbolBinder b(c.lib_);
  b.bind(c.api_.cublasLtCreate, {"cublasLtCreate"});
  b.bind(c.api_.cublasLtDestroy, {"cublasLtDestroy"});
  b.bind(c.api_.cublasLtGetVersion, {"cublasLtGetVersion"});
  b.bind(c.api_.cublasLtMatmulDescCreate, {"cublasLtMatmulDescCreate"});
  b.bind(c.api_.cublasLtMatmulDescDestroy, {"cublasLtMatmulDescDestroy"});
  b.bind(c.api_.cublasLtMatmulDescSetAttribute, {"cublasLtMatmulDescSetAttribute"});
  b.bind(c.api_.cublasLtMatrixLayoutCreate, {"cublasLtMatrixLayoutCreate"});
  b.bind(c.api_.cublasLtMatrixLayoutDestroy, {"cublasLtMatrixLayoutDestroy"});
  b.bind(c.api_.cublasLtMatmulPreferenceCreate, {"cublasLtMatmulPreferenceCreate"});
  b.bind(c.api_.cublasLtMatmulPreferenceDestroy, {"cublasLtMatmulPreferenceDestroy"});
  b.bind(c.api_.cublasLtMatmulPreferenceSetAttribute, {"cublasLtMatmulPreferenceSetAttribute"});
  b.bind(c.api_.cublasLtMatmulAlgoGetHeuristic, {"cublasLtMatmulAlgoGetHeuristic"});
  b.bind(c.api_.cublasLtMatmul, {"cublasLtMatmul"});
  b.bind(c.api_.cublasLtGetStatusName, {"cublasLtGetStatusName"}, SymbolBinder::Need::kOptional);
  if (auto done = b.finish(); !done) return fail(done.error());
  return c;
}

std::string CublasLt::status_name(cublasStatus_t s) const {
  if (api_.cublasLtGetStatusName) {
    if (const char* n = api_.cublasLtGetStatusName(s); n && *n) return n;
  }
  return fmt::format("cublasStatus {}", s);
}

}  // namespace tfgpu::gpu
