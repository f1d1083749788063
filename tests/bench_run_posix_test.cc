// The benchmark against the mock driver and mock cuBLAS (tests/mocks_cuda): the mocks'
// simulated clock makes every figure exact, so the arithmetic (median, TFLOPS, GB/s) and
// every failure path are checked, not just "something was printed".
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu/bench.h"
#include "report/bench_render.h"
#include "support/mock_cuda.h"

namespace tfgpu::gpu {
namespace {

class Env {
 public:
  Env(const char* cuda, const char* cublas) {
    ::setenv("TFGPU_MOCK_CUDA", cuda, 1);
    ::setenv("TFGPU_MOCK_CUBLAS", cublas, 1);
  }
  ~Env() {
    ::unsetenv("TFGPU_MOCK_CUDA");
    ::unsetenv("TFGPU_MOCK_CUBLAS");
  }
};

BenchReport bench(const char* cuda, const char* cublas, std::vector<std::string> cublas_names = {}) {
  Env e(cuda, cublas);
  BenchOptions o;
  o.plan = bench_plan(BenchMode::kQuick);
  o.plan.gemm_sizes = {64, 256};
  o.plan.d2d_bytes = 1u << 20;
  o.plan.host_bytes = 1u << 20;
  o.driver_candidates = {testing::kMockCudaLibDir + "/libcuda.so.1"};
  o.cublas_candidates =
      cublas_names.empty() ? std::vector<std::string>{testing::kMockCudaLibDir + "/libcublas.so.13"} : cublas_names;
  return run_bench(o);
}

const GemmResult* gemm(const BenchReport& r, Precision p, int size) {
  for (const auto& g : r.gemm) {
    if (g.precision == p && g.m == size) return &g;
  }
  return nullptr;
}

const BandwidthResult* bw(const BenchReport& r, const std::string& id) {
  for (const auto& b : r.bandwidth) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

TEST(BenchRun, GemmThroughputIsTwoMnkOverTheMedianTime) {
  auto r = bench("ok", "ok");
  ASSERT_TRUE(r.setup_passed()) << to_json(r).dump(2);
  EXPECT_EQ(r.cublas_version, 130100);
  ASSERT_EQ(r.gemm.size(), 8u);  // 4 precisions x 2 sizes
  // The mock runs FP32 at 70, TF32 at 80, FP16 at 150, BF16 at 155 TFLOPS.
  EXPECT_NEAR(gemm(r, Precision::kFp32, 256)->tflops, 70.0, 0.05);
  EXPECT_NEAR(gemm(r, Precision::kTf32, 256)->tflops, 80.0, 0.05);
  EXPECT_NEAR(gemm(r, Precision::kFp16, 256)->tflops, 150.0, 0.1);
  EXPECT_NEAR(gemm(r, Precision::kBf16, 256)->tflops, 155.0, 0.1);
  const auto* g = gemm(r, Precision::kBf16, 64);
  EXPECT_EQ(g->times_ms.size(), 5u);  // warm-up runs are not kept
  EXPECT_EQ(g->check, "ok");          // the small GEMM matched the host's answer
}

TEST(BenchRun, BandwidthCountsReadPlusWriteOnTheDevice) {
  auto r = bench("ok", "ok");
  // Mock rates: copy kernel 950 GB/s, memcpy 900 GB/s (both read + write), pinned 25, pageable 10.
  EXPECT_NEAR(bw(r, "d2d_kernel")->gbs, 950.0, 1.0);
  EXPECT_NEAR(bw(r, "d2d_memcpy")->gbs, 900.0, 1.0);
  EXPECT_EQ(bw(r, "d2d_kernel")->bytes_counted, 2u << 20);
  EXPECT_NEAR(bw(r, "h2d_pinned")->gbs, 25.0, 0.05);
  EXPECT_NEAR(bw(r, "h2d_pageable")->gbs, 10.0, 0.05);
  EXPECT_NEAR(bw(r, "d2h_pinned")->gbs, 25.0, 0.05);
  EXPECT_NEAR(bw(r, "d2h_pageable")->gbs, 10.0, 0.05);
}

TEST(BenchRun, WrongGemmResultIsFlaggedOnEveryFigureOfThatPrecision) {
  auto r = bench("ok", "wrong_result");
  for (const auto& g : r.gemm) {
    EXPECT_NE(g.check.find("wrong result: C[5,0]"), std::string::npos) << g.check;
  }
}

TEST(BenchRun, UnsupportedPrecisionIsAnErrorForThatPrecisionOnly) {
  auto r = bench("ok", "no_bf16");
  EXPECT_NE(gemm(r, Precision::kBf16, 64)->error.find("CUBLAS_STATUS_NOT_SUPPORTED"), std::string::npos);
  EXPECT_TRUE(gemm(r, Precision::kFp16, 64)->error.empty());
  EXPECT_GT(gemm(r, Precision::kFp16, 64)->tflops, 0);
}

TEST(BenchRun, FailingGemmKeepsTheBandwidthFigures) {
  auto r = bench("ok", "gemm_fail");
  for (const auto& g : r.gemm) EXPECT_NE(g.error.find("CUBLAS_STATUS_EXECUTION_FAILED"), std::string::npos);
  EXPECT_NEAR(bw(r, "d2d_memcpy")->gbs, 900.0, 1.0);
}

TEST(BenchRun, MissingCublasIsASetupFailureWithAFixAndStillMeasuresBandwidth) {
  auto r = bench("ok", "ok", {testing::kMockCudaLibDir + "/libcublas-missing.so.13"});
  EXPECT_FALSE(r.setup_passed());
  EXPECT_EQ(r.steps.back().id, "load_cublas");
  EXPECT_NE(r.steps.back().fix.find("nvidia-cublas"), std::string::npos);
  EXPECT_TRUE(r.gemm.empty());
  EXPECT_EQ(r.bandwidth.size(), 6u);
  EXPECT_EQ(r.cublas_load.tried.size(), 1u);
}

TEST(BenchRun, CublasHandleFailureIsNamed) {
  auto r = bench("ok", "create_fail");
  EXPECT_EQ(r.steps.back().id, "cublas_handle");
  EXPECT_EQ(r.steps.back().error_name, "CUBLAS_STATUS_NOT_INITIALIZED");
}

TEST(BenchRun, AllocationFailureIsPerFigureNotACrash) {
  auto r = bench("alloc_fail", "ok");
  ASSERT_FALSE(r.gemm.empty());
  for (const auto& g : r.gemm) EXPECT_NE(g.error.find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << g.error;
  for (const auto& b : r.bandwidth) EXPECT_FALSE(b.error.empty());
}

TEST(BenchRun, KernelFailureOnlyLosesTheKernelFigure) {
  auto r = bench("kernel_fail", "ok");
  EXPECT_NE(bw(r, "d2d_kernel")->error.find("CUDA_ERROR_LAUNCH_FAILED"), std::string::npos);
  EXPECT_TRUE(bw(r, "d2d_memcpy")->error.empty());
}

TEST(BenchRun, InitFailureStopsEarly) {
  auto r = bench("init_fail", "ok");
  EXPECT_FALSE(r.setup_passed());
  EXPECT_EQ(r.steps.back().error_name, "CUDA_ERROR_UNKNOWN");
  EXPECT_TRUE(r.gemm.empty());
  EXPECT_TRUE(r.bandwidth.empty());
}

TEST(BenchJson, ReportSurvivesTheTripFromChildToParent) {
  auto r = bench("ok", "no_bf16");
  auto back = bench_report_from_json(nlohmann::json::parse(to_json(r).dump()));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(r));
}

TEST(BenchJson, HostileReportsAreErrorsNotCrashes) {
  for (const char* text : {"null", "[]", "{}", R"({"schema":"tfgpu.bench/1","gemm":[{"precision":"fp64"}]})",
                           R"({"schema":"tfgpu.bench/1","mode":7})",
                           R"({"schema":"tfgpu.bench/1","bandwidth":[{"bytes":"many"}]})",
                           R"({"schema":"tfgpu.bench/1","steps":[{"status":"pass"}]})"}) {
    EXPECT_FALSE(bench_report_from_json(nlohmann::json::parse(text)).has_value()) << text;
  }
}

TEST(BenchMedian, OddEvenAndEmpty) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_EQ(median({}), 0);
}

TEST(BenchPlan, QuickIsSmallerThanFull) {
  auto q = bench_plan(BenchMode::kQuick), f = bench_plan(BenchMode::kFull);
  EXPECT_LT(q.gemm_sizes.size(), f.gemm_sizes.size());
  EXPECT_LT(q.reps, f.reps);
  EXPECT_LT(q.d2d_bytes, f.d2d_bytes);
  EXPECT_GE(q.warmup, 1);
}

// ---- FP8 through cuBLASLt -----------------------------------------------------------

// A bench with FP8 enabled from a KB floor of 8.9 on a mock card of compute capability `cc`.
BenchReport bench_fp8(const char* cc, const char* cublaslt_mode = "ok",
                      std::vector<std::string> cublaslt = {testing::kMockCudaLibDir + "/libcublasLt.so.13"}) {
  ::setenv("TFGPU_MOCK_CUDA_CC", cc, 1);
  ::setenv("TFGPU_MOCK_CUBLASLT", cublaslt_mode, 1);
  Env e("ok", "ok");
  BenchOptions o;
  o.plan = bench_plan(BenchMode::kQuick);
  o.plan.gemm_sizes = {64, 256};
  o.plan.d2d_bytes = 1u << 20;
  o.plan.host_bytes = 1u << 20;
  o.driver_candidates = {testing::kMockCudaLibDir + "/libcuda.so.1"};
  o.cublas_candidates = {testing::kMockCudaLibDir + "/libcublas.so.13"};
  o.cublaslt_candidates = std::move(cublaslt);
  o.fp8_min_cc = std::pair{8, 9};
  auto r = run_bench(o);
  ::unsetenv("TFGPU_MOCK_CUDA_CC");
  ::unsetenv("TFGPU_MOCK_CUBLASLT");
  return r;
}

TEST(BenchFp8, RunsThroughCublasLtOnAHopperCardAndIsChecked) {
  auto r = bench_fp8("9.0");
  ASSERT_TRUE(r.setup_passed()) << to_json(r).dump(2);
  ASSERT_EQ(r.gemm.size(), 10u);  // 4 cublasGemmEx precisions + FP8, 2 sizes each
  const auto* g = gemm(r, Precision::kFp8, 256);
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(g->error.empty()) << g->error;
  EXPECT_NEAR(g->tflops, 990.0, 0.5);  // the mock cuBLASLt's rate
  EXPECT_EQ(g->check, "ok");           // E4M3 in, BF16 out, matched the host's answer
  EXPECT_EQ(r.cublaslt_version, 130100);
  EXPECT_EQ(r.cublaslt_load.opened, testing::kMockCudaLibDir + "/libcublasLt.so.13");
  EXPECT_TRUE(r.fp8_note.empty());
}

TEST(BenchFp8, PercentOfTheKbFp8PeakIsShownInTextAndJson) {
  auto r = bench_fp8("9.0");
  report::PeakFigures peaks;
  peaks.gpu = "H200 SXM 141GB";
  peaks.matched_by = "name";
  peaks.fp8_tflops = 1979.0;
  std::string text = report::render_bench_text(r, peaks);
  EXPECT_NE(text.find("FP8       256"), std::string::npos) << text;
  EXPECT_NE(text.find("50%"), std::string::npos) << text;  // 990 / 1979
  EXPECT_NE(text.find("cuBLASLt 13.1.0"), std::string::npos) << text;
  auto j = report::bench_json(r, peaks);
  bool seen = false;
  for (const auto& row : j["gemm"]) {
    if (row["precision"] != "fp8") continue;
    seen = true;
    EXPECT_NEAR(row["percent_of_peak"].get<double>(), 100.0 * 990.0 / 1979.0, 0.1);
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(j["cublaslt_library"]["opened"], testing::kMockCudaLibDir + "/libcublasLt.so.13");
}

TEST(BenchFp8, BelowTheKbFloorThereIsNoFp8RowButANote) {
  auto r = bench_fp8("8.6");
  EXPECT_EQ(gemm(r, Precision::kFp8, 64), nullptr);
  EXPECT_EQ(r.gemm.size(), 8u);
  EXPECT_EQ(r.fp8_note, "FP8 GEMM: not supported on this card (CC 8.6 < 8.9)");
  EXPECT_TRUE(r.cublaslt_load.tried.empty());  // not even loaded
  report::PeakFigures none;
  EXPECT_NE(report::render_bench_text(r, none).find("FP8 GEMM: not supported on this card (CC 8.6 < 8.9)"),
            std::string::npos);
  EXPECT_EQ(to_json(r)["fp8_note"], "FP8 GEMM: not supported on this card (CC 8.6 < 8.9)");
}

TEST(BenchFp8, WithoutAKbFloorFp8IsNotMeasuredAndSaysWhy) {
  auto r = bench("ok", "ok");  // no fp8_min_cc
  EXPECT_EQ(gemm(r, Precision::kFp8, 64), nullptr);
  EXPECT_EQ(r.fp8_note, "FP8 GEMM not measured: the KB has no compute-capability floor for FP8");
}

TEST(BenchFp8, MissingCublasLtIsAnErrorOnEachFp8RowOnly) {
  auto r = bench_fp8("9.0", "ok", {testing::kMockCudaLibDir + "/libcublasLt-missing.so.13"});
  EXPECT_TRUE(r.setup_passed());
  for (int size : {64, 256}) {
    const auto* g = gemm(r, Precision::kFp8, size);
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->error.starts_with("cuBLASLt not loaded: ")) << g->error;
    EXPECT_NE(g->error.find("libcublasLt-missing.so.13"), std::string::npos) << g->error;
  }
  EXPECT_TRUE(gemm(r, Precision::kBf16, 256)->error.empty());
  EXPECT_EQ(r.bandwidth.size(), 6u);
  EXPECT_EQ(r.cublaslt_load.tried.size(), 1u);
}

TEST(BenchFp8, CublasLtFailuresAreNamedPerRow) {
  auto create = bench_fp8("9.0", "create_fail");
  EXPECT_EQ(gemm(create, Precision::kFp8, 64)->error, "cublasLtCreate failed: CUBLAS_STATUS_NOT_INITIALIZED");
  auto no_algo = bench_fp8("9.0", "no_algo");
  EXPECT_EQ(gemm(no_algo, Precision::kFp8, 256)->error,
            "cublasLtMatmulAlgoGetHeuristic failed: CUBLAS_STATUS_NOT_SUPPORTED");
  auto fails = bench_fp8("9.0", "matmul_fail");
  EXPECT_EQ(gemm(fails, Precision::kFp8, 64)->error, "cublasLtMatmul failed: CUBLAS_STATUS_EXECUTION_FAILED");
  EXPECT_TRUE(gemm(fails, Precision::kFp16, 64)->error.empty());
}

TEST(BenchFp8, WrongFp8ResultIsFlagged) {
  auto r = bench_fp8("8.9", "wrong_result");  // Ada: at the floor, FP8 runs
  const auto* g = gemm(r, Precision::kFp8, 256);
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(g->check.starts_with("wrong result: D[3,0]")) << g->check;
  EXPECT_GT(g->tflops, 0);
}

TEST(BenchFp8, Fp8RowsSurviveTheTripFromChildToParent) {
  auto r = bench_fp8(
      "9.0", "ok",
      {testing::kMockCudaLibDir + "/libcublasLt-missing.so.13", testing::kMockCudaLibDir + "/libcublasLt.so.13"});
  auto back = bench_report_from_json(nlohmann::json::parse(to_json(r).dump()));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(r));
  EXPECT_EQ(back->cublaslt_load.tried.size(), 2u);
}

TEST(BenchRender, StatesTheMixedPrecisionSpeedUpAndPercentOfPeak) {
  auto r = bench("ok", "ok");
  report::PeakFigures peaks;
  peaks.gpu = "GeForce RTX 4090";
  peaks.matched_by = "name";
  peaks.fp32_tflops = 82.6;
  peaks.bf16_tflops = 165.2;
  peaks.bandwidth_gbs = 1008;
  EXPECT_EQ(report::speedup_line(r, Precision::kBf16), "BF16 GEMM is 2.2x FP32 on this card (256: 155.0 vs 70.0 TFLOPS)");
  std::string text = report::render_bench_text(r, peaks);
  EXPECT_NE(text.find("BF16 GEMM is 2.2x FP32"), std::string::npos) << text;
  EXPECT_NE(text.find("FP16 GEMM is 2.1x FP32"), std::string::npos) << text;
  EXPECT_NE(text.find("85%"), std::string::npos) << text;   // 70 / 82.6
  EXPECT_NE(text.find("94%"), std::string::npos) << text;   // 950 / 1008
  EXPECT_NE(text.find("SM 2520 MHz, memory 10501 MHz"), std::string::npos) << text;
  auto j = report::bench_json(r, peaks);
  EXPECT_NEAR(j["gemm"][0]["percent_of_peak"].get<double>(), 100.0 * 70.0 / 82.6, 0.1);
  EXPECT_TRUE(j["gemm"][2]["percent_of_peak"].is_null());  // no TF32 peak given
  EXPECT_EQ(j["mixed_precision_speedup"]["bf16"], "BF16 GEMM is 2.2x FP32 on this card (256: 155.0 vs 70.0 TFLOPS)");
}

TEST(BenchRender, WithoutKbPeaksSaysSoInsteadOfInventingThem) {
  auto r = bench("ok", "ok");
  report::PeakFigures none;
  none.note = "\"Mock\" is not in the KB";
  std::string text = report::render_bench_text(r, none);
  EXPECT_NE(text.find("is not in the KB (no percent of peak)"), std::string::npos) << text;
  EXPECT_EQ(text.find('%'), std::string::npos) << text;
}

}  // namespace
}  // namespace tfgpu::gpu
