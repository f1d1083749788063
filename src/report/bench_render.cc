#include "report/bench_render.h"
#include "util/terminal_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tfgpu::report {

std::optional<double> peak_tflops(const PeakFigures& p, gpu::Precision precision) {
  switch (precision) {
    case gpu::Precision::kFp32:
      return p.fp32_tflops;
    case gpu::Precision::kTf32:
      return p.tf32_tflops;
    case gpu::Precision::kFp16:
      return p.fp16_tflops;
    case gpu::Precision::kBf16:
      return p.bf16_tflops;
    case gpu::Precision::kFp8:
      break;
  }
  return p.fp8_tflops;
}

namespace {

std::string upper(gpu::Precision p) {
  std::string s = gpu::to_string(p);
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

const gpu::GemmResult* find(const gpu::BenchReport& r, gpu::Precision p, int size) {
  for (const auto& g : r.gemm) {
    if (g.precision == p && g.m == size && g.error.empty() && g.tflops > 0) return &g;
  }
  return nullptr;
}

std::string percent(double value, std::optional<double> peak) {
  if (!peak || *peak <= 0) return "";
  return fmt::format("{:.0f}%", 100.0 * value / *peak);
}

const char* bandwidth_title(const std::string& id) {
  if (id == "d2d_kernel") return "device to device, copy kernel (read + write)";
  if (id == "d2d_memcpy") return "device to device, cuMemcpyDtoD (read + write)";
  if (id == "h2d_pinned") return "host to device, pinned";
  if (id == "h2d_pageable") return "host to device, pageable";
  if (id == "d2h_pinned") return "device to host, pinned";
  if (id == "d2h_pageable") return "device to host, pageable";
  return "?";
}

bool on_device(const std::string& id) { return id.starts_with("d2d"); }

std::string version_of_cublas(int v) {
  if (v <= 0) return "unknown";
  // cublasGetVersion: major*10000 + minor*100 + patch (CUDA 11+)
  return fmt::format("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100);
}

}  // namespace

std::string speedup_line(const gpu::BenchReport& r, gpu::Precision fast) {
  int best_size = 0;
  for (const auto& g : r.gemm) {
    if (g.precision == fast && find(r, fast, g.m) && find(r, gpu::Precision::kFp32, g.m)) best_size = std::max(best_size, g.m);
  }
  if (!best_size) return "";
  const auto* f = find(r, fast, best_size);
  const auto* base = find(r, gpu::Precision::kFp32, best_size);
  return fmt::format("{} GEMM is {:.1f}x FP32 on this card ({}: {:.1f} vs {:.1f} TFLOPS)", upper(fast),
                     f->tflops / base->tflops, best_size, f->tflops, base->tflops);
}

std::string render_bench_text(const gpu::BenchReport& r, const PeakFigures& peaks, Colour c) {
  auto paint = [&](const char* code, const std::string& t) {
    return c == Colour::kOn ? sgr(code) + t + sgr("0") : t;
  };
  std::string out = fmt::format("tfgpu bench ({} mode: {} warm-up + {} timed runs per figure, median reported)\n",
                                r.mode, r.warmup, r.reps);
  bool failed_setup = false;
  for (const auto& s : r.steps) {
    if (s.status != gpu::StepStatus::kFail) continue;
    failed_setup = true;
    out += fmt::format("  {} {}: {}{}\n", paint("1;31", "[FAIL]"), s.title, s.detail,
                       s.error_name.empty() ? "" : " (" + s.error_name + ")");
    if (!s.fix.empty()) out += "         fix: " + s.fix + "\n";
  }
  if (!r.child_failure.empty()) {
    out += fmt::format("  {} the benchmark process did not finish: {}\n", paint("1;31", "[FAIL]"), r.child_failure);
    return out;
  }
  const auto& d = r.device;
  if (d.name.empty()) return out;
  out += fmt::format("\nGPU {}: {} (compute capability {}.{}, {} SMs, {:.1f} GiB)\n", d.ordinal, d.name, d.cc_major,
                     d.cc_minor, d.sm_count, static_cast<double>(d.total_bytes) / (1ull << 30));
  out += fmt::format("  clocks (maximum, as the driver reports them): SM {} MHz, memory {} MHz, {}-bit bus\n",
                     d.clock_khz / 1000, d.memory_clock_khz / 1000, d.bus_width_bits);
  out += fmt::format("  driver: CUDA {} ({})\n", gpu::cuda_version_text(r.driver_cuda_version),
                     r.driver_load.path.empty() ? r.driver_load.opened : r.driver_load.path);
  if (!r.cublas_load.path.empty()) out += fmt::format("  cuBLAS {} ({})\n", version_of_cublas(r.cublas_version), r.cublas_load.path);
  if (!r.cublaslt_load.path.empty()) {
    out += fmt::format("  cuBLASLt {} ({})\n", version_of_cublas(r.cublaslt_version), r.cublaslt_load.path);
  }
  if (!peaks.gpu.empty()) {
    out += fmt::format("  peaks from the KB: {} (matched by {})", peaks.gpu, peaks.matched_by);
    if (!peaks.sources.empty()) out += "; source: " + peaks.sources.front();
    out += "\n";
  } else {
    out += "  peaks: " + (peaks.note.empty() ? std::string("this card is not in the KB") : peaks.note) +
           " (no percent of peak)\n";
  }

  if (!r.gemm.empty()) {
    out += "\nGEMM (cuBLAS cublasGemmEx; FP8: cuBLASLt cublasLtMatmul, E4M3 in, BF16 out; square m = n = k)\n";
    out += fmt::format("  {:<6} {:>6} {:>10} {:>10} {:>9}\n", "type", "size", "ms", "TFLOPS", "of peak");
    for (const auto& g : r.gemm) {
      if (!g.error.empty()) {
        out += fmt::format("  {:<6} {:>6}  {}\n", upper(g.precision), g.m, paint("31", g.error));
        continue;
      }
      auto pk = peak_tflops(peaks, g.precision);
      out += fmt::format("  {:<6} {:>6} {:>10.4g} {:>10.1f} {:>9}", upper(g.precision), g.m, g.median_ms, g.tflops,
                         percent(g.tflops, pk));
      if (!g.check.empty() && g.check != "ok") out += "  " + paint("1;31", "check: " + g.check);
      out += "\n";
    }
    if (!r.fp8_note.empty()) out += "  " + r.fp8_note + "\n";
    std::string bf = speedup_line(r, gpu::Precision::kBf16), fp = speedup_line(r, gpu::Precision::kFp16);
    if (!bf.empty() || !fp.empty()) {
      out += "\nMixed precision:\n";
      if (!fp.empty()) out += "  " + paint("1", fp) + "\n";
      if (!bf.empty()) out += "  " + paint("1", bf) + "\n";
    }
  } else if (!failed_setup) {
    out += "\nGEMM: not measured\n";
  }

  if (!r.bandwidth.empty()) {
    out += "\nBandwidth (1 GB = 1e9 bytes)\n";
    for (const auto& b : r.bandwidth) {
      if (!b.error.empty()) {
        out += fmt::format("  {:<46} {}\n", bandwidth_title(b.id), paint("31", b.error));
        continue;
      }
      std::string pct;
      if (on_device(b.id) && peaks.bandwidth_gbs) {
        pct = fmt::format("{} of {:.0f} GB/s", percent(b.gbs, peaks.bandwidth_gbs), *peaks.bandwidth_gbs);
      }
      out += fmt::format("  {:<46} {:>9.1f} GB/s  {}\n", bandwidth_title(b.id), b.gbs, pct);
    }
  }
  return out;
}

std::string render_bench_markdown(const gpu::BenchReport& r, const PeakFigures& peaks) {
  return "### tfgpu bench\n\n```\n" + render_bench_text(r, peaks, Colour::kOff) + "```\n";
}

nlohmann::json bench_json(const gpu::BenchReport& r, const PeakFigures& peaks) {
  nlohmann::json j = gpu::to_json(r);
  j["schema_version"] = kBenchJsonSchemaVersion;
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  j["peak"] = {{"gpu", peaks.gpu},
               {"matched_by", peaks.matched_by},
               {"fp32_tflops", opt(peaks.fp32_tflops)},
               {"tf32_tflops", opt(peaks.tf32_tflops)},
               {"fp16_tflops", opt(peaks.fp16_tflops)},
               {"bf16_tflops", opt(peaks.bf16_tflops)},
               {"fp8_tflops", opt(peaks.fp8_tflops)},
               {"bandwidth_gbs", opt(peaks.bandwidth_gbs)},
               {"sources", peaks.sources},
               {"note", peaks.note}};
  for (auto& g : j["gemm"]) {
    auto p = gpu::parse_precision(g.value("precision", ""));
    auto pk = p ? peak_tflops(peaks, *p) : std::nullopt;
    g["percent_of_peak"] = pk && *pk > 0 && g.value("tflops", 0.0) > 0
                               ? nlohmann::json(100.0 * g.value("tflops", 0.0) / *pk)
                               : nlohmann::json(nullptr);
  }
  for (auto& b : j["bandwidth"]) {
    bool dev = b.value("id", "").starts_with("d2d");
    b["percent_of_peak"] = dev && peaks.bandwidth_gbs && b.value("gb_per_s", 0.0) > 0
                               ? nlohmann::json(100.0 * b.value("gb_per_s", 0.0) / *peaks.bandwidth_gbs)
                               : nlohmann::json(nullptr);
  }
  nlohmann::json speed = nlohmann::json::object();
  for (auto p : {gpu::Precision::kFp16, gpu::Precision::kBf16}) {
    std::string line = speedup_line(r, p);
    speed[gpu::to_string(p)] = line.empty() ? nlohmann::json(nullptr) : nlohmann::json(line);
  }
  j["mixed_precision_speedup"] = speed;
  return j;
}

}  // namespace tfgpu::report
