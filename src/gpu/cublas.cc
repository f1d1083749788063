#include "gpu/cublas.h"

#include <fmt/format.h>

namespace tfgpu::gpu {

Result<Cublas> Cublas::open(const std::vector<std::string>& candidates, LoadOutcome* outcome) {
  auto lib = DynamicLibrary::open(candidates, outcome);
  if (!lib) return fail(lib.error());
  Cublas c;
  c.lib_ = std::move(*lib);
  SymbolBinder b(c.lib_);
  // cublas_v2.h: #define cublasCreate cublasCreate_v2 (the plain names are the legacy API).
  b.bind(c.api_.cublasCreate, {"cublasCreate_v2"});
  b.bind(c.api_.cublasDestroy, {"cublasDestroy_v2"});
  b.bind(c.api_.cublasGetVersion, {"cublasGetVersion_v2"});
  b.bind(c.api_.cublasGemmEx, {"cublasGemmEx"});
  b.bind(c.api_.cublasGetStatusName, {"cublasGetStatusName"}, SymbolBinder::Need::kOptional);
  if (auto done = b.finish(); !done) return fail(done.error());
  return c;
}

std::string Cublas::status_name(cublasStatus_t s) const {
  if (api_.cublasGetStatusName) {
    if (const char* n = api_.cublasGetStatusName(s); n && *n) return n;
  }
  return fmt::format("cublasStatus {}", s);
}

}  // namespace tfgpu::gpu
