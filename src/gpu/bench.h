#pragma once
// `tfgpu bench`'s measurements as data: GEMM throughput through cuBLAS (FP32, TF32, FP16,
// BF16) and cuBLASLt (FP8, where the card has it) at several sizes, device-to-device
// bandwidth (copy kernel and memcpy), host to device and device to host (pinned and
// pageable). Each figure is the median of several timed repetitions after warm-up, timed
// with CUDA events. run_bench() touches the real driver and cuBLAS and belongs in a child
// process; the parent parses the JSON it prints.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpu/verify.h"
#include "host/dynamic_library.h"
#include "util/error.h"

namespace tfgpu::gpu {

// kFp8: E4M3 inputs through cublasLtMatmul (TN layout, FP32 compute, BF16 output).
enum class Precision { kFp32, kTf32, kFp16, kBf16, kFp8 };
const char* to_string(Precision p);  // "fp32", "tf32", "fp16", "bf16", "fp8"
Result<Precision> parse_precision(const std::string& text);

enum class BenchMode { kQuick, kFull };

struct GemmResult {
  Precision precision = Precision::kFp32;
  int m = 0, n = 0, k = 0;
  std::vector<double> times_ms;  // every timed repetition
  double median_ms = 0;
  double tflops = 0;             // 2*m*n*k / median
  std::string check;             // "ok" or what a small GEMM got wrong (checked once per precision)
  std::string error;             // set when the GEMM could not run (then no figures)
};

struct BandwidthResult {
  std::string id;  // "d2d_kernel", "d2d_memcpy", "h2d_pinned", "h2d_pageable", "d2h_pinned", "d2h_pageable"
  uint64_t bytes = 0;            // bytes per copy
  uint64_t bytes_counted = 0;    // bytes counted per copy: 2x for device-to-device (read + write)
  std::vector<double> times_ms;
  double median_ms = 0;
  double gbs = 0;                // bytes_counted / median, 1 GB = 1e9 bytes
  std::string error;
};

struct BenchPlan {
  BenchMode mode = BenchMode::kQuick;
  std::vector<int> gemm_sizes;                 // square m = n = k
  std::vector<Precision> precisions;
  uint64_t d2d_bytes = 0;
  uint64_t host_bytes = 0;
  int warmup = 0;
  int reps = 0;
};
// The sizes and repetitions of a mode (quick: well under 10 s on any current GPU).
BenchPlan bench_plan(BenchMode mode);

struct BenchOptions {
  BenchPlan plan;
  int device = 0;
  std::vector<std::string> driver_candidates;  // empty: default_cuda_driver_candidates()
  std::vector<std::string> cublas_candidates;  // from the KB, newest first
  std::vector<std::string> cublaslt_candidates;  // from the KB (cuda.toml `cublasLt`), newest first
  // The lowest compute capability with FP8 Tensor Cores, from the KB ({8, 9});
  // nullopt: the KB has no such row and FP8 is not measured. FP8 GEMMs run at the
  // plan's sizes on cards at or above it.
  std::optional<std::pair<int, int>> fp8_min_cc;
  // Called before each measurement with "3/14 GEMM bf16 4096" (the child writes it to
  // a progress file the parent shows on a terminal).
  std::function<void(const std::string&)> progress;
};

struct BenchReport {
  std::string mode;               // "quick" / "full"
  int warmup = 0;
  int reps = 0;
  LoadOutcome driver_load;
  LoadOutcome cublas_load;
  LoadOutcome cublaslt_load;  // tried only when FP8 runs
  int cublaslt_version = 0;   // cublasLtGetVersion: 130100 = 13.1.0
  std::string fp8_note;       // why there are no FP8 rows ("not supported on this card (CC 8.6 < 8.9)")
  int driver_cuda_version = 0;
  int cublas_version = 0;         // cublasGetVersion: 130100 = 13.1.0
  std::vector<StepResult> steps;  // setup: load_driver, init, context, load_cublas, cublas_handle
  DeviceCheck device;             // name, compute capability, clocks, memory (its steps unused)
  std::vector<GemmResult> gemm;
  std::vector<BandwidthResult> bandwidth;
  std::string child_failure;      // set by the parent when the child handed back nothing usable
  bool setup_passed() const;
};

BenchReport run_bench(const BenchOptions& options);

double median(std::vector<double> values);

nlohmann::json to_json(const BenchReport& r);
Result<BenchReport> bench_report_from_json(const nlohmann::json& j);

}  // namespace tfgpu::gpu
