#include "gpu/bench.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gpu/cublas.h"
#include "gpu/cublas_lt.h"
#include "gpu/cuda_driver.h"
#include "gpu/ptx.h"

namespace tfgpu::gpu {

const char* to_string(Precision p) {
  switch (p) {
    case Precision::kFp32:
      return "fp32";
    case Precision::kTf32:
      return "tf32";
    case Precision::kFp16:
      return "fp16";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp8:
      break;
  }
  return "fp8";
}

Result<Precision> parse_precision(const std::string& text) {
  for (Precision p : {Precision::kFp32, Precision::kTf32, Precision::kFp16, Precision::kBf16, Precision::kFp8}) {
    if (text == to_string(p)) return p;
  }
  return fail(Error::input(fmt::format("unknown precision '{}' (fp32, tf32, fp16, bf16, fp8)", text)));
}

BenchPlan bench_plan(BenchMode mode) {
  BenchPlan p;
  p.mode = mode;
  p.precisions = {Precision::kFp32, Precision::kTf32, Precision::kFp16, Precision::kBf16};
  if (mode == BenchMode::kQuick) {
    p.gemm_sizes = {2048, 8192};
    p.d2d_bytes = 256ull << 20;
    p.host_bytes = 64ull << 20;
    p.warmup = 2;
    p.reps = 5;
  } else {
    p.gemm_sizes = {1024, 2048, 4096, 8192, 16384};
    p.d2d_bytes = 1ull << 30;
    p.host_bytes = 256ull << 20;
    p.warmup = 3;
    p.reps = 10;
  }
  return p;
}

bool BenchReport::setup_passed() const {
  if (!child_failure.empty() || steps.empty()) return false;
  return std::all_of(steps.begin(), steps.end(), [](const StepResult& s) { return s.status == StepStatus::kPass; });
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

namespace {

// IEEE binary16 and bfloat16 from float, round to nearest even (values used here are
// finite and in range).
uint16_t to_half(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if ((x & 0x7fffffffu) == 0) return static_cast<uint16_t>(sign);
  if (exp <= 0) {  // subnormal half
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return static_cast<uint16_t>(sign | h);
}

float from_half(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t to_bf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

float from_bf16(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

// OCP FP8 E4M3 (what CUDA_R_8F_E4M3 holds): 1 sign, 4 exponent bits (bias 7), 3 mantissa
// bits, no infinities, largest finite 448 (0x7e). Round to nearest even, saturating.
uint8_t to_e4m3(float f) {
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  float a = std::fabs(f);
  if (std::isnan(a)) return 0x7f;
  if (a >= 448.0f) return sign | 0x7e;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = std::max(e - 1, -6);
  float steps = std::nearbyint(std::ldexp(a, 3 - exp));  // in units of the spacing 2^(exp-3)
  if (steps >= 16.0f) {
    ++exp;
    steps = 8.0f;
  }
  if (steps < 8.0f) return static_cast<uint8_t>(sign | static_cast<uint8_t>(steps));  // subnormal (exp = -6)
  int biased = exp + 7;
  if (biased > 15 || (biased == 15 && steps - 8.0f >= 7.0f)) return sign | 0x7e;
  return static_cast<uint8_t>(sign | (biased << 3) | static_cast<int>(steps - 8.0f));
}

int data_type(Precision p) {
  switch (p) {
    case Precision::kFp16:
      return kCudaR16F;
    case Precision::kBf16:
      return kCudaR16BF;
    default:
      return kCudaR32F;
  }
}
int compute_type(Precision p) { return p == Precision::kTf32 ? kCublasCompute32FFastTf32 : kCublasCompute32F; }
size_t elem_size(Precision p) {
  return p == Precision::kFp8 ? 1 : p == Precision::kFp16 || p == Precision::kBf16 ? 2 : 4;
}

// Host values of a precision, as bytes.
std::vector<unsigned char> encode(Precision p, const std::vector<float>& values) {
  std::vector<unsigned char> out(values.size() * elem_size(p));
  for (size_t i = 0; i < values.size(); ++i) {
    if (p == Precision::kFp16) {
      uint16_t h = to_half(values[i]);
      std::memcpy(out.data() + 2 * i, &h, 2);
    } else if (p == Precision::kBf16) {
      uint16_t b = to_bf16(values[i]);
      std::memcpy(out.data() + 2 * i, &b, 2);
    } else if (p == Precision::kFp8) {
      out[i] = to_e4m3(values[i]);
    } else {
      std::memcpy(out.data() + 4 * i, &values[i], 4);
    }
  }
  return out;
}

float decode(Precision p, const unsigned char* bytes, size_t i) {
  if (p == Precision::kFp16 || p == Precision::kBf16) {
    uint16_t v;
    std::memcpy(&v, bytes + 2 * i, 2);
    return p == Precision::kFp16 ? from_half(v) : from_bf16(v);
  }
  float f;
  std::memcpy(&f, bytes + 4 * i, 4);
  return f;
}

// Device buffers and events that free themselves, so every early return is clean.
class Scope {
 public:
  explicit Scope(const CudaDriverApi& a) : a_(a) {}
  ~Scope() {
    for (CUevent e : events_) a_.cuEventDestroy(e);
    for (CUdeviceptr p : device_) a_.cuMemFree(p);
    for (void* p : pinned_) a_.cuMemFreeHost(p);
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  CUresult alloc(CUdeviceptr* p, size_t bytes) {
    CUresult rc = a_.cuMemAlloc(p, bytes);
    if (rc == kCudaSuccess) device_.push_back(*p);
    return rc;
  }
  CUresult alloc_host(void** p, size_t bytes) {
    CUresult rc = a_.cuMemAllocHost(p, bytes);
    if (rc == kCudaSuccess) pinned_.push_back(*p);
    return rc;
  }
  CUresult event(CUevent* e) {
    CUresult rc = a_.cuEventCreate(e, 0);
    if (rc == kCudaSuccess) events_.push_back(*e);
    return rc;
  }

 private:
  const CudaDriverApi& a_;
  std::vector<CUdeviceptr> device_;
  std::vector<void*> pinned_;
  std::vector<CUevent> events_;
};

class Runner {
 public:
  Runner(const CudaDriver& d, const BenchOptions& o) : d_(d), a_(d.api()), o_(o) {}

  // Times `op` warmup + reps times with events around each call; ms per call.
  template <typename Op>
  std::string time(Op op, std::vector<double>& times) {
    Scope s(a_);
    CUevent start = nullptr, stop = nullptr;
    if (CUresult rc = s.event(&start); rc != kCudaSuccess) return call_error("cuEventCreate", rc);
    if (CUresult rc = s.event(&stop); rc != kCudaSuccess) return call_error("cuEventCreate", rc);
    for (int i = 0; i < o_.plan.warmup + o_.plan.reps; ++i) {
      if (CUresult rc = a_.cuEventRecord(start, nullptr); rc != kCudaSuccess) return call_error("cuEventRecord", rc);
      if (std::string e = op(); !e.empty()) return e;
      if (CUresult rc = a_.cuEventRecord(stop, nullptr); rc != kCudaSuccess) return call_error("cuEventRecord", rc);
      if (CUresult rc = a_.cuEventSynchronize(stop); rc != kCudaSuccess) return call_error("cuEventSynchronize", rc);
      float ms = 0;
      if (CUresult rc = a_.cuEventElapsedTime(&ms, start, stop); rc != kCudaSuccess) {
        return call_error("cuEventElapsedTime", rc);
      }
      if (i >= o_.plan.warmup) times.push_back(ms);
    }
    return "";
  }

  std::string call_error(const char* call, CUresult rc) const {
    return fmt::format("{} failed: {}", call, d_.error_name(rc));
  }

  // Fills a device buffer with pseudo-random values in [-1, 1) of a precision (zeros
  // would flatter the GPU: less switching, lower power).
  std::string fill(CUdeviceptr dst, size_t count, Precision p, uint32_t seed) {
    const size_t chunk = std::min<size_t>(count, 1u << 20);
    std::vector<float> vals(chunk);
    uint32_t s = seed * 2654435761u + 1;
    for (auto& v : vals) {
      s = s * 1664525u + 1013904223u;
      v = static_cast<float>(s >> 8) / static_cast<float>(1u << 23) - 1.0f;
    }
    auto bytes = encode(p, vals);
    for (size_t done = 0; done < count; done += chunk) {
      size_t n = std::min(chunk, count - done);
      if (CUresult rc = a_.cuMemcpyHtoD(dst + done * elem_size(p), bytes.data(), n * elem_size(p)); rc != kCudaSuccess) {
        return call_error("cuMemcpyHtoD", rc);
      }
    }
    return "";
  }

  const CudaDriver& d_;
  const CudaDriverApi& a_;
  const BenchOptions& o_;
};

// A small GEMM with exact small-integer data, compared with the host's answer.
std::string check_gemm(Runner& r, const Cublas& cb, cublasHandle_t h, Precision p) {
  const int n = 64;
  std::vector<float> av(n * n), bv(n * n);
  for (int i = 0; i < n * n; ++i) {
    av[i] = static_cast<float>((i * 7) % 5 - 2);
    bv[i] = static_cast<float>((i * 3) % 5 - 2);
  }
  Scope s(r.a_);
  CUdeviceptr a = 0, b = 0, c = 0;
  size_t bytes = static_cast<size_t>(n) * n * elem_size(p);
  for (CUdeviceptr* ptr : {&a, &b, &c}) {
    if (CUresult rc = s.alloc(ptr, bytes); rc != kCudaSuccess) return r.call_error("cuMemAlloc", rc);
  }
  auto ab = encode(p, av), bb = encode(p, bv);
  if (CUresult rc = r.a_.cuMemcpyHtoD(a, ab.data(), bytes); rc != kCudaSuccess) return r.call_error("cuMemcpyHtoD", rc);
  if (CUresult rc = r.a_.cuMemcpyHtoD(b, bb.data(), bytes); rc != kCudaSuccess) return r.call_error("cuMemcpyHtoD", rc);
  float alpha = 1.0f, beta = 0.0f;
  int t = data_type(p);
  cublasStatus_t st = cb.api().cublasGemmEx(h, kCublasOpN, kCublasOpN, n, n, n, &alpha, reinterpret_cast<void*>(a), t,
                                            n, reinterpret_cast<void*>(b), t, n, &beta, reinterpret_cast<void*>(c), t,
                                            n, compute_type(p), kCublasGemmDefault);
  if (st != kCublasSuccess) return fmt::format("cublasGemmEx failed: {}", cb.status_name(st));
  if (CUresult rc = r.a_.cuCtxSynchronize(); rc != kCudaSuccess) return r.call_error("cuCtxSynchronize", rc);
  std::vector<unsigned char> cb_bytes(bytes);
  if (CUresult rc = r.a_.cuMemcpyDtoH(cb_bytes.data(), c, bytes); rc != kCudaSuccess) {
    return r.call_error("cuMemcpyDtoH", rc);
  }
  // Column-major: C[i + j*n] = sum_l A[i + l*n] * B[l + j*n]; every partial sum is a small
  // integer, exact in every precision used here.
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      float want = 0;
      for (int l = 0; l < n; ++l) want += av[i + l * n] * bv[l + j * n];
      float got = decode(p, cb_bytes.data(), static_cast<size_t>(i + j * n));
      if (got != want) return fmt::format("wrong result: C[{},{}] = {} (expected {})", i, j, got, want);
    }
  }
  return "ok";
}

// A GEMM row that could not be measured: its precision, size and why.
GemmResult failed_gemm(Precision p, int size, std::string error) {
  GemmResult g;
  g.precision = p;
  g.m = g.n = g.k = size;
  g.error = std::move(error);
  return g;
}

void bench_gemm(Runner& r, const Cublas& cb, cublasHandle_t h, Precision p, int size, GemmResult& out) {
  out.precision = p;
  out.m = out.n = out.k = size;
  Scope s(r.a_);
  CUdeviceptr a = 0, b = 0, c = 0;
  size_t count = static_cast<size_t>(size) * size;
  size_t bytes = count * elem_size(p);
  for (CUdeviceptr* ptr : {&a, &b, &c}) {
    if (CUresult rc = s.alloc(ptr, bytes); rc != kCudaSuccess) {
      out.error = r.call_error("cuMemAlloc", rc);
      return;
    }
  }
  if (std::string e = r.fill(a, count, p, 1); !e.empty()) {
    out.error = e;
    return;
  }
  if (std::string e = r.fill(b, count, p, 2); !e.empty()) {
    out.error = e;
    return;
  }
  float alpha = 1.0f, beta = 0.0f;
  int t = data_type(p);
  out.error = r.time(
      [&]() -> std::string {
        cublasStatus_t st = cb.api().cublasGemmEx(h, kCublasOpN, kCublasOpN, size, size, size, &alpha,
                                                  reinterpret_cast<void*>(a), t, size, reinterpret_cast<void*>(b), t,
                                                  size, &beta, reinterpret_cast<void*>(c), t, size, compute_type(p),
                                                  kCublasGemmDefault);
        if (st != kCublasSuccess) return fmt::format("cublasGemmEx failed: {}", cb.status_name(st));
        return "";
      },
      out.times_ms);
  if (!out.error.empty()) {
    out.times_ms.clear();
    return;
  }
  out.median_ms = median(out.times_ms);
  if (out.median_ms > 0) out.tflops = 2.0 * size * static_cast<double>(size) * size / (out.median_ms * 1e-3) / 1e12;
}

// ---- FP8 through cuBLASLt -------------------------------------------------------
//
// cublasGemmEx has no FP8; cublasLtMatmul does, with constraints (cublasLt.h and the
// cuBLAS docs' FP8 table): A and B E4M3, A transposed and B not ("TN"), FP32 compute and
// scale, C/D BF16 (or FP32). D (m x n) = op(A) * B where A is stored k x m and B k x n,
// column-major. The per-tensor A/B scale pointers are set to device 1.0f, as a framework's
// scaled matmul does (torch._scaled_mm takes the same two scales).

constexpr size_t kLtWorkspaceBytes = 32u << 20;

// The descriptors of one FP8 problem size; they free themselves.
class Fp8Problem {
 public:
  explicit Fp8Problem(const CublasLt& lt) : lt_(lt) {}
  ~Fp8Problem() {
    const auto& a = lt_.api();
    if (pref_) a.cublasLtMatmulPreferenceDestroy(pref_);
    for (cublasLtMatrixLayout_t l : {a_, b_, d_})
      if (l) a.cublasLtMatrixLayoutDestroy(l);
    if (desc_) a.cublasLtMatmulDescDestroy(desc_);
  }
  Fp8Problem(const Fp8Problem&) = delete;
  Fp8Problem& operator=(const Fp8Problem&) = delete;

  // "" or what failed.
  std::string prepare(cublasLtHandle_t h, int m, int n, int k, const CUdeviceptr* a_scale, const CUdeviceptr* b_scale) {
    const auto& a = lt_.api();
    auto failed = [&](const char* call, cublasStatus_t st) {
      return fmt::format("{} failed: {}", call, lt_.status_name(st));
    };
    cublasStatus_t st = a.cublasLtMatmulDescCreate(&desc_, kCublasCompute32F, kCudaR32F);
    if (st != kCublasSuccess) return failed("cublasLtMatmulDescCreate", st);
    const int32_t trans_a = kCublasOpT, trans_b = kCublasOpN;
    const void* sa = reinterpret_cast<const void*>(*a_scale);
    const void* sb = reinterpret_cast<const void*>(*b_scale);
    if ((st = a.cublasLtMatmulDescSetAttribute(desc_, kCublasLtMatmulDescTransA, &trans_a, sizeof trans_a)) !=
            kCublasSuccess ||
        (st = a.cublasLtMatmulDescSetAttribute(desc_, kCublasLtMatmulDescTransB, &trans_b, sizeof trans_b)) !=
            kCublasSuccess ||
        (st = a.cublasLtMatmulDescSetAttribute(desc_, kCublasLtMatmulDescAScalePointer, &sa, sizeof sa)) !=
            kCublasSuccess ||
        (st = a.cublasLtMatmulDescSetAttribute(desc_, kCublasLtMatmulDescBScalePointer, &sb, sizeof sb)) !=
            kCublasSuccess) {
      return failed("cublasLtMatmulDescSetAttribute", st);
    }
    if ((st = a.cublasLtMatrixLayoutCreate(&a_, kCudaR8F_E4M3, k, m, k)) != kCublasSuccess ||
        (st = a.cublasLtMatrixLayoutCreate(&b_, kCudaR8F_E4M3, k, n, k)) != kCublasSuccess ||
        (st = a.cublasLtMatrixLayoutCreate(&d_, kCudaR16BF, m, n, m)) != kCublasSuccess) {
      return failed("cublasLtMatrixLayoutCreate", st);
    }
    if ((st = a.cublasLtMatmulPreferenceCreate(&pref_)) != kCublasSuccess)
      return failed("cublasLtMatmulPreferenceCreate", st);
    const uint64_t ws = kLtWorkspaceBytes;
    if ((st = a.cublasLtMatmulPreferenceSetAttribute(pref_, kCublasLtMatmulPrefMaxWorkspaceBytes, &ws, sizeof ws)) !=
        kCublasSuccess) {
      return failed("cublasLtMatmulPreferenceSetAttribute", st);
    }
    CublasLtHeuristicResult result{};
    int returned = 0;
    st = a.cublasLtMatmulAlgoGetHeuristic(h, desc_, a_, b_, d_, d_, pref_, 1, &result, &returned);
    if (st != kCublasSuccess) return failed("cublasLtMatmulAlgoGetHeuristic", st);
    if (returned < 1 || result.state != kCublasSuccess) {
      return "cublasLtMatmulAlgoGetHeuristic found no FP8 algorithm for this card and cuBLASLt";
    }
    algo_ = result.algo;
    return "";
  }

  std::string run(cublasLtHandle_t h, CUdeviceptr a, CUdeviceptr b, CUdeviceptr d, CUdeviceptr workspace) const {
    const float alpha = 1.0f, beta = 0.0f;
    auto* dp = reinterpret_cast<void*>(d);
    cublasStatus_t st = lt_.api().cublasLtMatmul(h, desc_, &alpha, reinterpret_cast<const void*>(a), a_,
                                                 reinterpret_cast<const void*>(b), b_, &beta, dp, d_, dp, d_, &algo_,
                                                 reinterpret_cast<void*>(workspace), kLtWorkspaceBytes, nullptr);
    if (st != kCublasSuccess) return fmt::format("cublasLtMatmul failed: {}", lt_.status_name(st));
    return "";
  }

 private:
  const CublasLt& lt_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
  cublasLtMatmulPreference_t pref_ = nullptr;
  CublasLtMatmulAlgo algo_{};
};

// Device memory every FP8 GEMM shares: the two unit scales and the workspace.
struct Fp8Shared {
  CUdeviceptr a_scale = 0, b_scale = 0, workspace = 0;
};

std::string fp8_shared(Runner& r, Scope& s, Fp8Shared& out) {
  const float one = 1.0f;
  for (CUdeviceptr* p : {&out.a_scale, &out.b_scale}) {
    if (CUresult rc = s.alloc(p, sizeof one); rc != kCudaSuccess) return r.call_error("cuMemAlloc", rc);
    if (CUresult rc = r.a_.cuMemcpyHtoD(*p, &one, sizeof one); rc != kCudaSuccess)
      return r.call_error("cuMemcpyHtoD", rc);
  }
  if (CUresult rc = s.alloc(&out.workspace, kLtWorkspaceBytes); rc != kCudaSuccess)
    return r.call_error("cuMemAlloc", rc);
  return "";
}

// A 64x64x64 FP8 GEMM of small integers (exact in E4M3 and, summed, in BF16) compared
// with the host's answer.
std::string check_fp8(Runner& r, const CublasLt& lt, cublasLtHandle_t h, const Fp8Shared& shared) {
  const int n = 64;
  std::vector<float> av(n * n), bv(n * n);
  for (int i = 0; i < n * n; ++i) {
    av[i] = static_cast<float>((i * 7) % 5 - 2);
    bv[i] = static_cast<float>((i * 3) % 5 - 2);
  }
  Scope s(r.a_);
  CUdeviceptr a = 0, b = 0, d = 0;
  for (auto [ptr, bytes] :
       {std::pair{&a, size_t{n * n}}, std::pair{&b, size_t{n * n}}, std::pair{&d, size_t{2 * n * n}}}) {
    if (CUresult rc = s.alloc(ptr, bytes); rc != kCudaSuccess) return r.call_error("cuMemAlloc", rc);
  }
  auto ab = encode(Precision::kFp8, av), bb = encode(Precision::kFp8, bv);
  if (CUresult rc = r.a_.cuMemcpyHtoD(a, ab.data(), ab.size()); rc != kCudaSuccess)
    return r.call_error("cuMemcpyHtoD", rc);
  if (CUresult rc = r.a_.cuMemcpyHtoD(b, bb.data(), bb.size()); rc != kCudaSuccess)
    return r.call_error("cuMemcpyHtoD", rc);
  Fp8Problem prob(lt);
  if (std::string e = prob.prepare(h, n, n, n, &shared.a_scale, &shared.b_scale); !e.empty()) return e;
  if (std::string e = prob.run(h, a, b, d, shared.workspace); !e.empty()) return e;
  if (CUresult rc = r.a_.cuCtxSynchronize(); rc != kCudaSuccess) return r.call_error("cuCtxSynchronize", rc);
  std::vector<unsigned char> out(2 * n * n);
  if (CUresult rc = r.a_.cuMemcpyDtoH(out.data(), d, out.size()); rc != kCudaSuccess)
    return r.call_error("cuMemcpyDtoH", rc);
  // D[i + j*n] = sum_l A(i, l) * B[l + j*n], A(i, l) stored at A[l + i*n] (A transposed).
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      float want = 0;
      for (int l = 0; l < n; ++l) want += av[l + i * n] * bv[l + j * n];
      float got = decode(Precision::kBf16, out.data(), static_cast<size_t>(i + j * n));
      if (got != want) return fmt::format("wrong result: D[{},{}] = {} (expected {})", i, j, got, want);
    }
  }
  return "ok";
}

void bench_fp8(Runner& r, const CublasLt& lt, cublasLtHandle_t h, const Fp8Shared& shared, int size, GemmResult& out) {
  out.precision = Precision::kFp8;
  out.m = out.n = out.k = size;
  Scope s(r.a_);
  CUdeviceptr a = 0, b = 0, d = 0;
  size_t count = static_cast<size_t>(size) * size;
  for (auto [ptr, bytes] : {std::pair{&a, count}, std::pair{&b, count}, std::pair{&d, 2 * count}}) {
    if (CUresult rc = s.alloc(ptr, bytes); rc != kCudaSuccess) {
      out.error = r.call_error("cuMemAlloc", rc);
      return;
    }
  }
  if (std::string e = r.fill(a, count, Precision::kFp8, 1); !e.empty()) {
    out.error = e;
    return;
  }
  if (std::string e = r.fill(b, count, Precision::kFp8, 2); !e.empty()) {
    out.error = e;
    return;
  }
  Fp8Problem prob(lt);
  if (std::string e = prob.prepare(h, size, size, size, &shared.a_scale, &shared.b_scale); !e.empty()) {
    out.error = e;
    return;
  }
  out.error = r.time([&]() { return prob.run(h, a, b, d, shared.workspace); }, out.times_ms);
  if (!out.error.empty()) {
    out.times_ms.clear();
    return;
  }
  out.median_ms = median(out.times_ms);
  if (out.median_ms > 0) out.tflops = 2.0 * size * static_cast<double>(size) * size / (out.median_ms * 1e-3) / 1e12;
}

// The FP8 rows: measured where the card is at or above the KB's FP8 floor and cuBLASLt
// loads; otherwise a note (unsupported card) or one error per row (no cuBLASLt).
void run_fp8(Runner& r, const BenchOptions& o, BenchReport& rep, const std::function<void(const std::string&)>& step) {
  const auto& dev = rep.device;
  if (!o.fp8_min_cc) {
    rep.fp8_note = "FP8 GEMM not measured: the KB has no compute-capability floor for FP8";
    return;
  }
  auto [min_major, min_minor] = *o.fp8_min_cc;
  if (std::pair{dev.cc_major, dev.cc_minor} < *o.fp8_min_cc) {
    rep.fp8_note = fmt::format("FP8 GEMM: not supported on this card (CC {}.{} < {}.{})", dev.cc_major, dev.cc_minor,
                               min_major, min_minor);
    return;
  }
  auto rows_failed = [&](const std::string& error) {
    for (int size : o.plan.gemm_sizes) {
      step(fmt::format("GEMM fp8 {}", size));
      rep.gemm.push_back(failed_gemm(Precision::kFp8, size, error));
    }
  };
  auto lt = CublasLt::open(o.cublaslt_candidates, &rep.cublaslt_load);
  if (!lt) {
    rows_failed("cuBLASLt not loaded: " + lt.error().message);
    return;
  }
  cublasLtHandle_t h = nullptr;
  if (cublasStatus_t st = lt->api().cublasLtCreate(&h); st != kCublasSuccess) {
    rows_failed(fmt::format("cublasLtCreate failed: {}", lt->status_name(st)));
    return;
  }
  rep.cublaslt_version = static_cast<int>(lt->api().cublasLtGetVersion());
  {
    Scope s(r.a_);
    Fp8Shared shared;
    std::string check = fp8_shared(r, s, shared);
    if (check.empty()) check = check_fp8(r, *lt, h, shared);
    // A check that could not run (no algorithm, a failed call) is every row's error;
    // a wrong result still lets the rows be timed, and is shown next to them.
    bool ran = check == "ok" || check.starts_with("wrong result");
    for (int size : o.plan.gemm_sizes) {
      step(fmt::format("GEMM fp8 {}", size));
      if (!ran) {
        rep.gemm.push_back(failed_gemm(Precision::kFp8, size, check));
        continue;
      }
      GemmResult g;
      g.check = check;
      bench_fp8(r, *lt, h, shared, size, g);
      rep.gemm.push_back(std::move(g));
    }
  }
  lt->api().cublasLtDestroy(h);
}

void finish_bandwidth(BandwidthResult& b) {
  b.median_ms = median(b.times_ms);
  if (b.median_ms > 0) b.gbs = static_cast<double>(b.bytes_counted) / (b.median_ms * 1e-3) / 1e9;
}

void bench_bandwidth(Runner& r, const DeviceCheck& dev, std::vector<BandwidthResult>& out,
                     const std::function<void(const std::string&)>& step) {
  const auto& a = r.a_;
  const auto& plan = r.o_.plan;
  // Device to device: a copy kernel (what a framework's own kernels see) and the copy
  // engine (cuMemcpyDtoD). Counted as read + write, as bandwidthTest and nvbandwidth do.
  {
    Scope s(a);
    CUdeviceptr src = 0, dst = 0;
    BandwidthResult k{"d2d_kernel", plan.d2d_bytes, 2 * plan.d2d_bytes, {}, 0, 0, ""};
    BandwidthResult m{"d2d_memcpy", plan.d2d_bytes, 2 * plan.d2d_bytes, {}, 0, 0, ""};
    CUresult rc = s.alloc(&src, plan.d2d_bytes);
    if (rc == kCudaSuccess) rc = s.alloc(&dst, plan.d2d_bytes);
    if (rc == kCudaSuccess) rc = a.cuMemsetD8(src, 0x5a, plan.d2d_bytes);
    if (rc != kCudaSuccess) {
      k.error = m.error = r.call_error("cuMemAlloc/cuMemsetD8", rc);
    } else {
      step("bandwidth d2d (copy kernel)");
      CUmodule mod = nullptr;
      CUfunction fn = nullptr;
      if ((rc = a.cuModuleLoadData(&mod, kernels_ptx())) != kCudaSuccess) {
        k.error = r.call_error("cuModuleLoadData", rc);
      } else if ((rc = a.cuModuleGetFunction(&fn, mod, kCopyKernel)) != kCudaSuccess) {
        k.error = r.call_error("cuModuleGetFunction", rc);
      } else {
        unsigned long long words = plan.d2d_bytes / 16;
        const unsigned block = 256;
        unsigned grid = static_cast<unsigned>(std::max(1, dev.sm_count) * 16);
        grid = static_cast<unsigned>(std::min<unsigned long long>(grid, (words + block - 1) / block));
        k.error = r.time(
            [&]() -> std::string {
              void* params[] = {&src, &dst, &words};
              if (CUresult lrc = a.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr);
                  lrc != kCudaSuccess) {
                return r.call_error("cuLaunchKernel", lrc);
              }
              return "";
            },
            k.times_ms);
        if (k.error.empty()) {
          // The copy must have copied: spot-check the last bytes.
          unsigned char tail[16] = {};
          if ((rc = a.cuMemcpyDtoH(tail, dst + plan.d2d_bytes - 16, 16)) != kCudaSuccess) {
            k.error = r.call_error("cuMemcpyDtoH", rc);
          } else if (tail[15] != 0x5a || tail[0] != 0x5a) {
            k.error = "wrong result: the copy kernel did not copy the buffer";
          }
        }
      }
      if (mod) a.cuModuleUnload(mod);
      step("bandwidth d2d (memcpy)");
      m.error = r.time(
          [&]() -> std::string {
            if (CUresult crc = a.cuMemcpyDtoD(dst, src, plan.d2d_bytes); crc != kCudaSuccess) {
              return r.call_error("cuMemcpyDtoD", crc);
            }
            return "";
          },
          m.times_ms);
    }
    for (BandwidthResult* b : {&k, &m}) {
      if (b->error.empty()) {
        finish_bandwidth(*b);
      } else {
        b->times_ms.clear();
      }
      out.push_back(std::move(*b));
    }
  }
  // Host <-> device, pinned (page-locked, DMA straight from the buffer) and pageable
  // (staged by the driver through its own pinned buffers).
  {
    Scope s(a);
    CUdeviceptr dev_buf = 0;
    void* pinned = nullptr;
    std::unique_ptr<unsigned char[]> pageable(new (std::nothrow) unsigned char[plan.host_bytes]);
    CUresult rc = s.alloc(&dev_buf, plan.host_bytes);
    std::string setup_error;
    if (rc != kCudaSuccess) {
      setup_error = r.call_error("cuMemAlloc", rc);
    } else if ((rc = s.alloc_host(&pinned, plan.host_bytes)) != kCudaSuccess) {
      setup_error = r.call_error("cuMemAllocHost", rc);
    } else if (!pageable) {
      setup_error = "host allocation failed";
    } else {
      std::memset(pinned, 0x33, plan.host_bytes);
      std::memset(pageable.get(), 0x33, plan.host_bytes);
    }
    struct Case {
      const char* id;
      bool to_device;
      void* host;
    } cases[] = {{"h2d_pinned", true, pinned},
                 {"h2d_pageable", true, pageable.get()},
                 {"d2h_pinned", false, pinned},
                 {"d2h_pageable", false, pageable.get()}};
    for (const auto& c : cases) {
      BandwidthResult b{c.id, plan.host_bytes, plan.host_bytes, {}, 0, 0, ""};
      if (!setup_error.empty()) {
        b.error = setup_error;
      } else {
        step(fmt::format("bandwidth {}", c.id));
        b.error = r.time(
            [&]() -> std::string {
              CUresult crc = c.to_device ? a.cuMemcpyHtoD(dev_buf, c.host, plan.host_bytes)
                                         : a.cuMemcpyDtoH(c.host, dev_buf, plan.host_bytes);
              if (crc != kCudaSuccess) return r.call_error(c.to_device ? "cuMemcpyHtoD" : "cuMemcpyDtoH", crc);
              return "";
            },
            b.times_ms);
      }
      if (b.error.empty()) {
        finish_bandwidth(b);
      } else {
        b.times_ms.clear();
      }
      out.push_back(std::move(b));
    }
  }
}

StepResult step_pass(const char* id, const char* title, std::string detail) {
  StepResult s;
  s.id = id;
  s.title = title;
  s.status = StepStatus::kPass;
  s.detail = std::move(detail);
  return s;
}

StepResult step_fail(const char* id, const char* title, std::string detail, std::string error_name = "",
                     int code = 0) {
  StepResult s;
  s.id = id;
  s.title = title;
  s.status = StepStatus::kFail;
  s.detail = std::move(detail);
  s.error_name = std::move(error_name);
  s.code = code;
  s.fix = fix_for(s.id, s.error_name);
  return s;
}

}  // namespace

BenchReport run_bench(const BenchOptions& o) {
  BenchReport r;
  r.mode = o.plan.mode == BenchMode::kQuick ? "quick" : "full";
  r.warmup = o.plan.warmup;
  r.reps = o.plan.reps;
  auto candidates = o.driver_candidates.empty() ? default_cuda_driver_candidates() : o.driver_candidates;
  auto driver = CudaDriver::open(candidates, &r.driver_load);
  if (!driver) {
    r.steps.push_back(step_fail("load_driver", "Load the CUDA driver library", driver.error().message));
    return r;
  }
  const CudaDriver& d = *driver;
  const auto& a = d.api();
  r.steps.push_back(step_pass("load_driver", "Load the CUDA driver library", r.driver_load.path));
  a.cuDriverGetVersion(&r.driver_cuda_version);
  if (CUresult rc = a.cuInit(0); rc != kCudaSuccess) {
    r.steps.push_back(step_fail("init", "Initialise the driver (cuInit)", "cuInit failed", d.error_name(rc), rc));
    return r;
  }
  r.steps.push_back(step_pass("init", "Initialise the driver (cuInit)", cuda_version_text(r.driver_cuda_version)));

  CUdevice cu = 0;
  CUcontext ctx = nullptr;
  int count = 0;
  a.cuDeviceGetCount(&count);
  if (o.device < 0 || o.device >= count) {
    r.steps.push_back(step_fail("context", "Open the device and its primary context",
                                fmt::format("device {} does not exist (the driver sees {})", o.device, count),
                                count == 0 ? "CUDA_ERROR_NO_DEVICE" : ""));
    return r;
  }
  CUresult rc = a.cuDeviceGet(&cu, o.device);
  if (rc == kCudaSuccess) rc = a.cuDevicePrimaryCtxRetain(&ctx, cu);
  if (rc == kCudaSuccess) rc = a.cuCtxSetCurrent(ctx);
  if (rc != kCudaSuccess) {
    r.steps.push_back(step_fail("context", "Open the device and its primary context", "cuDevicePrimaryCtxRetain failed",
                                d.error_name(rc), rc));
    return r;
  }
  {
    DeviceCheck& dev = r.device;
    dev.ordinal = o.device;
    read_device_properties(a, cu, dev);
    size_t free_b = 0, total_b = 0;
    if (a.cuMemGetInfo(&free_b, &total_b) == kCudaSuccess) dev.free_bytes = free_b;
  }
  r.steps.push_back(step_pass("context", "Open the device and its primary context",
                              fmt::format("device {} ({})", o.device, r.device.name)));

  auto cublas = Cublas::open(o.cublas_candidates, &r.cublas_load);
  const bool fp8_runs = o.fp8_min_cc && std::pair{r.device.cc_major, r.device.cc_minor} >= *o.fp8_min_cc;
  int total_steps = static_cast<int>(o.plan.gemm_sizes.size() * (o.plan.precisions.size() + (fp8_runs ? 1 : 0))) + 6;
  int done_steps = 0;
  auto step = [&](const std::string& what) {
    ++done_steps;
    if (o.progress) o.progress(fmt::format("{}/{} {}", done_steps, total_steps, what));
  };
  if (!cublas) {
    r.steps.push_back(step_fail("load_cublas", "Load cuBLAS", cublas.error().message));
    r.steps.back().fix =
        "Install cuBLAS for a CUDA the driver supports (pip: nvidia-cublas-cu12 / -cu13; or the CUDA toolkit) and "
        "make it findable (LD_LIBRARY_PATH on Linux, PATH on Windows). Bandwidth figures below do not need it.";
  } else {
    r.steps.push_back(step_pass("load_cublas", "Load cuBLAS", r.cublas_load.path));
    cublasHandle_t h = nullptr;
    if (cublasStatus_t st = cublas->api().cublasCreate(&h); st != kCublasSuccess) {
      r.steps.push_back(step_fail("cublas_handle", "Create a cuBLAS handle", "cublasCreate failed",
                                  cublas->status_name(st), st));
      r.steps.back().fix = "cuBLAS could not start on this GPU: check that its CUDA major is one the driver "
                           "supports (see `tfgpu doctor`) and that GPU memory is free.";
    } else {
      cublas->api().cublasGetVersion(h, &r.cublas_version);
      r.steps.push_back(step_pass("cublas_handle", "Create a cuBLAS handle", fmt::format("version {}", r.cublas_version)));
      Runner runner(d, o);
      for (Precision p : o.plan.precisions) {
        std::string check = check_gemm(runner, *cublas, h, p);
        for (int size : o.plan.gemm_sizes) {
          step(fmt::format("GEMM {} {}", to_string(p), size));
          GemmResult g;
          if (check.starts_with("cublasGemmEx failed")) g = failed_gemm(p, size, check);
          else bench_gemm(runner, *cublas, h, p, size, g);
          g.check = check;
          r.gemm.push_back(std::move(g));
        }
      }
      cublas->api().cublasDestroy(h);
    }
  }
  Runner runner(d, o);
  run_fp8(runner, o, r, step);
  bench_bandwidth(runner, r.device, r.bandwidth, step);
  a.cuCtxSetCurrent(nullptr);
  a.cuDevicePrimaryCtxRelease(cu);
  return r;
}

// ---- JSON ----------------------------------------------------------------------

namespace {

nlohmann::json load_json(const LoadOutcome& l) {
  return {{"tried", l.tried}, {"errors", l.errors}, {"opened", l.opened}, {"path", l.path}};
}

// Typed fields of the child's report: a field of the wrong type is named, never read as
// something else (nlohmann's value() throws a type error that names no field).
struct MalformedReport {
  std::string why;
};

const nlohmann::json* typed(const nlohmann::json& j, const char* key, bool (nlohmann::json::*is)() const noexcept,
                            const char* want) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  if (!((*it).*is)()) throw MalformedReport{fmt::format("'{}' is {}, not {}", key, it->type_name(), want)};
  return &*it;
}

std::string str_of(const nlohmann::json& j, const char* key) {
  const auto* v = typed(j, key, &nlohmann::json::is_string, "a string");
  return v ? v->get<std::string>() : std::string();
}

double num_of(const nlohmann::json& j, const char* key) {
  const auto* v = typed(j, key, &nlohmann::json::is_number, "a number");
  return v ? v->get<double>() : 0.0;
}

template <typename T>
T int_of(const nlohmann::json& j, const char* key) {
  const auto* v = typed(j, key, &nlohmann::json::is_number_integer, "an integer");
  if (!v) return T{};
  if (v->is_number_unsigned()) {
    auto u = v->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) throw MalformedReport{fmt::format("'{}' is out of range", key)};
    return static_cast<T>(u);
  }
  auto i = v->get<int64_t>();
  if (i < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
      (i > 0 && static_cast<uint64_t>(i) > static_cast<uint64_t>(std::numeric_limits<T>::max())))
    throw MalformedReport{fmt::format("'{}' is out of range", key)};
  return static_cast<T>(i);
}

LoadOutcome load_from_json(const nlohmann::json& j) {
  LoadOutcome l;
  if (!j.is_object()) return l;
  auto list = [&](const char* k) {
    std::vector<std::string> out;
    if (auto it = j.find(k); it != j.end() && it->is_array()) {
      for (const auto& v : *it) {
        if (v.is_string()) out.push_back(v.get<std::string>());
      }
    }
    return out;
  };
  l.tried = list("tried");
  l.errors = list("errors");
  l.opened = str_of(j, "opened");
  l.path = j.value("path", "");
  return l;
}

std::vector<double> times_from_json(const nlohmann::json& j) {
  std::vector<double> out;
  if (auto it = j.find("times_ms"); it != j.end() && it->is_array()) {
    for (const auto& v : *it) {
      if (v.is_number()) out.push_back(v.get<double>());
    }
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const BenchReport& r) {
  // The device and steps share verify's JSON shape.
  VerifyReport v;
  v.steps = r.steps;
  v.devices.push_back(r.device);
  nlohmann::json vj = to_json(v);
  nlohmann::json j;
  j["schema"] = "tfgpu.bench/1";
  j["mode"] = r.mode;
  j["warmup"] = r.warmup;
  j["reps"] = r.reps;
  j["driver_library"] = load_json(r.driver_load);
  j["cublas_library"] = load_json(r.cublas_load);
  j["driver_cuda_version"] = r.driver_cuda_version;
  j["cublas_version"] = r.cublas_version;
  if (!r.cublaslt_load.tried.empty()) j["cublaslt_library"] = load_json(r.cublaslt_load);
  if (r.cublaslt_version) j["cublaslt_version"] = r.cublaslt_version;
  if (!r.fp8_note.empty()) j["fp8_note"] = r.fp8_note;
  j["steps"] = vj["steps"];
  j["device"] = vj["devices"][0];
  j["device"].erase("steps");
  j["device"].erase("passed");
  if (!r.child_failure.empty()) j["child_failure"] = r.child_failure;
  j["gemm"] = nlohmann::json::array();
  for (const auto& g : r.gemm) {
    nlohmann::json gj = {{"precision", to_string(g.precision)}, {"m", g.m}, {"n", g.n}, {"k", g.k},
                         {"times_ms", g.times_ms}, {"median_ms", g.median_ms}, {"tflops", g.tflops},
                         {"check", g.check}};
    if (!g.error.empty()) gj["error"] = g.error;
    j["gemm"].push_back(std::move(gj));
  }
  j["bandwidth"] = nlohmann::json::array();
  for (const auto& b : r.bandwidth) {
    nlohmann::json bj = {{"id", b.id}, {"bytes", b.bytes}, {"bytes_counted", b.bytes_counted},
                         {"times_ms", b.times_ms}, {"median_ms", b.median_ms}, {"gb_per_s", b.gbs}};
    if (!b.error.empty()) bj["error"] = b.error;
    j["bandwidth"].push_back(std::move(bj));
  }
  return j;
}

Result<BenchReport> bench_report_from_json(const nlohmann::json& j) {
  try {
    if (!j.is_object()) throw MalformedReport{fmt::format("it is {}, not an object", j.type_name())};
    if (str_of(j, "schema") != "tfgpu.bench/1") return fail(Error::input("not a tfgpu.bench/1 report"));
    BenchReport r;
    r.mode = str_of(j, "mode");
    r.warmup = int_of<int>(j, "warmup");
    r.reps = int_of<int>(j, "reps");
    if (auto it = j.find("driver_library"); it != j.end()) r.driver_load = load_from_json(*it);
    if (auto it = j.find("cublas_library"); it != j.end()) r.cublas_load = load_from_json(*it);
    r.driver_cuda_version = int_of<int>(j, "driver_cuda_version");
    r.cublas_version = int_of<int>(j, "cublas_version");
    if (auto it = j.find("cublaslt_library"); it != j.end()) r.cublaslt_load = load_from_json(*it);
    r.cublaslt_version = int_of<int>(j, "cublaslt_version");
    r.fp8_note = str_of(j, "fp8_note");
    r.child_failure = str_of(j, "child_failure");
    const auto* steps = typed(j, "steps", &nlohmann::json::is_array, "an array");
    nlohmann::json vj = {{"schema", "tfgpu.verify/1"}, {"steps", steps ? *steps : nlohmann::json::array()}};
    if (const auto* d = typed(j, "device", &nlohmann::json::is_object, "an object")) vj["devices"] = nlohmann::json::array({*d});
    auto v = verify_report_from_json(vj);
    if (!v) return fail(v.error());
    r.steps = std::move(v->steps);
    if (!v->devices.empty()) r.device = std::move(v->devices[0]);
    if (const auto* gemm = typed(j, "gemm", &nlohmann::json::is_array, "an array")) {
      for (const auto& gj : *gemm) {
        if (!gj.is_object()) throw MalformedReport{fmt::format("a 'gemm' row is {}, not an object", gj.type_name())};
        GemmResult g;
        auto p = parse_precision(str_of(gj, "precision"));
        if (!p) return fail(p.error());
        g.precision = *p;
        g.m = int_of<decltype(g.m)>(gj, "m");
        g.n = int_of<decltype(g.n)>(gj, "n");
        g.k = int_of<decltype(g.k)>(gj, "k");
        g.times_ms = times_from_json(gj);
        g.median_ms = num_of(gj, "median_ms");
        g.tflops = num_of(gj, "tflops");
        g.check = str_of(gj, "check");
        g.error = str_of(gj, "error");
        r.gemm.push_back(std::move(g));
      }
    }
    if (const auto* bw = typed(j, "bandwidth", &nlohmann::json::is_array, "an array")) {
      for (const auto& bj : *bw) {
        if (!bj.is_object()) throw MalformedReport{fmt::format("a 'bandwidth' row is {}, not an object", bj.type_name())};
        BandwidthResult b;
        b.id = str_of(bj, "id");
        b.bytes = int_of<uint64_t>(bj, "bytes");
        b.bytes_counted = int_of<uint64_t>(bj, "bytes_counted");
        b.times_ms = times_from_json(bj);
        b.median_ms = num_of(bj, "median_ms");
        b.gbs = num_of(bj, "gb_per_s");
        b.error = str_of(bj, "error");
        r.bandwidth.push_back(std::move(b));
      }
    }
    return r;
  } catch (const MalformedReport& e) {
    return fail(Error::input(fmt::format("malformed bench report: {}", e.why)));
  } catch (const nlohmann::json::exception& e) {
    return fail(Error::input(fmt::format("malformed bench report: {}", e.what())));
  }
}

}  // namespace tfgpu::gpu
