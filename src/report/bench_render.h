#pragma once
// Renders `tfgpu bench`: every GEMM and bandwidth figure next to the card's peak from the
// KB (percent of peak), the mixed-precision speed-up stated plainly, the clocks noted.
// Pure functions of the measurements and the peak figures.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpu/bench.h"
#include "gpu/cuda_driver.h"
#include "report/verify_render.h"

namespace tfgpu::report {

// The card's theoretical peaks as the KB gives them (dense tensor figures, FP32 accumulate).
struct PeakFigures {
  std::string gpu;         // KB row name, "" when the card is not in the KB
  std::string matched_by;  // "PCI id 10de:2684" or "name"
  std::optional<double> fp32_tflops, tf32_tflops, fp16_tflops, bf16_tflops, fp8_tflops, bandwidth_gbs;
  std::vector<std::string> sources;
  std::string note;  // the KB row's note, or why there are no peaks
};
std::optional<double> peak_tflops(const PeakFigures& p, gpu::Precision precision);

// "BF16 GEMM is 2.2x FP32 on this card (8192: 155.0 vs 70.0 TFLOPS)"; "" without both figures.
std::string speedup_line(const gpu::BenchReport& r, gpu::Precision fast);

std::string render_bench_text(const gpu::BenchReport& r, const PeakFigures& peaks, Colour colour = Colour::kOff);
std::string render_bench_markdown(const gpu::BenchReport& r, const PeakFigures& peaks);
// "schema_version" of bench_json, as every --json output has (docs/bench-json.md).
inline constexpr int kBenchJsonSchemaVersion = 1;
nlohmann::json bench_json(const gpu::BenchReport& r, const PeakFigures& peaks);  // docs/bench-json.md

}  // namespace tfgpu::report
