// `tfgpu bench`: GEMM throughput and memory bandwidth, measured in a child process
// (`tfgpu __bench-child`) so a crashing driver or cuBLAS cannot take tfgpu down, then
// shown against the card's peak from the KB. On a terminal a progress line shows which
// measurement is running (the child writes it to a small file the parent polls).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <memory>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "gpu/bench.h"
#include "gpu/child.h"
#include "kb/kb.h"
#include "report/bench_peak.h"
#include "report/bench_render.h"
#include "util/error.h"
#include "util/json_text.h"
#include "util/strings.h"
#include "util/terminal_text.h"

namespace tfgpu {

namespace {

struct BenchCliOptions {
  bool quick = false;
  std::string sizes;  // "1024,4096"
  int copy_mib = 0;
  int device = 0;
  int timeout_s = 0;
  std::vector<std::string> cublas;
  std::vector<std::string> cublaslt;
  std::vector<std::string> drivers;
};

Result<std::vector<int>> parse_sizes(const std::string& text) {
  std::vector<int> out;
  // Every piece counts: "1024,,4096" or a trailing comma is a typo, not a shorter list.
  for (const auto& part : split(text, ',')) {
    std::string p(trim(part));
    char* end = nullptr;
    long v = std::strtol(p.c_str(), &end, 10);
    if (p.empty() || *end != '\0' || v < 16 || v > 65536) {
      return fail(Error::usage(fmt::format(
          "--sizes: '{}' is not a size between 16 and 65536; give sizes joined by commas, e.g. --sizes 1024,4096", p)));
    }
    out.push_back(static_cast<int>(v));
  }
  if (out.empty()) return fail(Error::usage("--sizes: give at least one size, e.g. --sizes 1024,4096"));
  return out;
}

std::string temp_dir(const Host& host) {
  for (const char* var : {"TMPDIR", "TEMP", "TMP"}) {
    if (auto v = host.env(var); v && !v->empty()) return *v;
  }
  return host.platform() == Platform::kWindows ? "." : "/tmp";
}

}  // namespace

CommandRunner define_bench(CLI::App& sub) {
  auto opt = std::make_shared<BenchCliOptions>();
  sub.add_flag("--quick", opt->quick, "Quick run (under 10 s): 2 GEMM sizes, smaller copies, fewer repetitions");
  sub.add_option("--sizes", opt->sizes, "GEMM sizes to run instead of the mode's (square, comma-separated)")
      ->option_text("N,N,...");
  sub.add_option("--copy-mib", opt->copy_mib, "MiB per device-to-device copy (host copies use a quarter)")
      ->option_text("MIB")
      ->check(usage::whole_number(1, 65536));
  sub.add_option("--device", opt->device, "CUDA device ordinal to measure (default 0)")->option_text("N")->check(usage::whole_number(0, 1023));
  sub.add_option("--timeout", opt->timeout_s, "Seconds the measurements may take (default 60 quick, 600 full)")
      ->option_text("SECONDS")
      ->check(usage::whole_number(1, 7200));
  sub.add_option("--cublas", opt->cublas, "cuBLAS library to load instead of the KB's names (repeatable)")
      ->option_text("LIB");
  sub.add_option("--cublaslt", opt->cublaslt,
                 "cuBLASLt library (FP8 GEMM) to load instead of the KB's names (repeatable)")
      ->option_text("LIB");
  sub.add_option("--driver", opt->drivers, "Driver library to load instead of libcuda.so.1 / nvcuda.dll (repeatable)")
      ->option_text("LIB");
  return [opt](CommandIo& io) {
    auto kb = kb::load_for_command(io.host, io.global.kb_dir);
    if (!kb) {
      io.err << "tfgpu bench: " << kb.error().message << "\n";
      return exit_code_for(kb.error());
    }
    gpu::BenchPlan plan = gpu::bench_plan(opt->quick ? gpu::BenchMode::kQuick : gpu::BenchMode::kFull);
    if (!opt->sizes.empty()) {
      auto sizes = parse_sizes(opt->sizes);
      if (!sizes) {
        io.err << "tfgpu bench: " << sizes.error().message << "\n";
        return exit_code_for(sizes.error());
      }
      plan.gemm_sizes = *sizes;
    }
    if (opt->copy_mib > 0) {
      plan.d2d_bytes = static_cast<uint64_t>(opt->copy_mib) << 20;
      plan.host_bytes = std::max<uint64_t>(plan.d2d_bytes / 4, 1u << 20);
    }
    auto cublas = opt->cublas.empty() ? report::cublas_candidates(*kb, io.host.platform()) : opt->cublas;

    gpu::ChildRun child;
    child.args = {"__bench-child", "--mode", opt->quick ? "quick" : "full", "--device", std::to_string(opt->device),
                  "--d2d-bytes", std::to_string(plan.d2d_bytes), "--host-bytes", std::to_string(plan.host_bytes)};
    for (int s : plan.gemm_sizes) {
      child.args.push_back("--size");
      child.args.push_back(std::to_string(s));
    }
    for (const auto& c : cublas) {
      child.args.push_back("--cublas");
      child.args.push_back(c);
    }
    for (const auto& c : opt->cublaslt.empty() ? report::cublaslt_candidates(*kb, io.host.platform()) : opt->cublaslt) {
      child.args.push_back("--cublaslt");
      child.args.push_back(c);
    }
    // FP8 runs only on cards at or above the KB's floor (kb/gpus.toml [[tensor_core_math]]).
    if (const kb::TensorCoreMath* fp8 = kb->tensor_core_min("fp8")) {
      child.args.push_back("--fp8-min-cc");
      child.args.push_back(fp8->min_cc.str());
    }
    for (const auto& d : opt->drivers) {
      child.args.push_back("--driver");
      child.args.push_back(d);
    }
    child.timeout = std::chrono::seconds(opt->timeout_s > 0 ? opt->timeout_s : opt->quick ? 60 : 600);

    const bool live = io.global.stdout_is_terminal && io.global.format == OutputFormat::kText;
    std::string progress_file;
    if (live) {
      std::random_device rd;
      progress_file = fmt::format("{}/tfgpu-bench-{:08x}.progress", temp_dir(io.host), rd());
      child.args.push_back("--progress");
      child.args.push_back(progress_file);
    }
    auto task = std::async(std::launch::async, [&] { return gpu::run_child_json(io.host, child); });
    if (live) {
      std::string shown;
      while (task.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) {
        auto text = io.host.read_file(progress_file, 4096);
        if (text && !text->empty() && *text != shown) {
          shown = *text;
          io.out << erase_line() << "  measuring " << trim(shown) << std::flush;
        }
      }
      io.out << erase_line() << std::flush;
      std::remove(progress_file.c_str());  // the child's file; Host has no delete, and it is ours
    }
    auto j = task.get();

    gpu::BenchReport r;
    if (!j) {
      r.child_failure = j.error().message;
    } else if (auto parsed = gpu::bench_report_from_json(*j); parsed) {
      r = std::move(*parsed);
    } else {
      // Our own child printed a report of the wrong shape: a bug, one line, exit 3.
      io.err << "tfgpu bench: the benchmark process's report is unreadable: " << parsed.error().message << "\n";
      return static_cast<int>(kExitInternal);
    }
    report::PeakFigures peaks = report::find_peaks(*kb, io.host, r.device);
    switch (io.global.format) {
      case OutputFormat::kJson:
        io.out << dump_json(report::bench_json(r, peaks)) << "\n";
        break;
      case OutputFormat::kMarkdown:
        io.out << report::render_bench_markdown(r, peaks);
        break;
      case OutputFormat::kText:
        io.out << report::wrap_text(report::render_bench_text(r, peaks, io.global.color ? report::Colour::kOn : report::Colour::kOff),
                                    io.global.width);
        break;
    }
    bool ok = r.setup_passed();
    for (const auto& g : r.gemm) {
      // FP8 is measured where it can be: a missing cuBLASLt or an FP8 algorithm the
      // library lacks is reported on its rows but is not a failure; a wrong FP8 result is.
      bool optional_row = g.precision == gpu::Precision::kFp8;
      ok = ok && (g.error.empty() || optional_row) && (g.check.empty() || g.check == "ok");
    }
    for (const auto& b : r.bandwidth) ok = ok && b.error.empty();
    return ok ? static_cast<int>(kExitOk) : static_cast<int>(kExitProblems);
  };
}

CommandRunner define_bench_child(CLI::App& sub) {
  struct ChildOptions {
    std::string mode = "quick";
    int device = 0;
    uint64_t d2d_bytes = 0, host_bytes = 0;
    std::vector<int> sizes;
    std::vector<std::string> cublas, cublaslt, drivers;
    std::string progress;
    std::string fp8_min_cc;  // "8.9"
  };
  auto o = std::make_shared<ChildOptions>();
  sub.add_option("--mode", o->mode)->check(CLI::IsMember({"quick", "full"}));
  sub.add_option("--device", o->device);
  sub.add_option("--d2d-bytes", o->d2d_bytes);
  sub.add_option("--host-bytes", o->host_bytes);
  sub.add_option("--size", o->sizes);
  sub.add_option("--cublas", o->cublas);
  sub.add_option("--cublaslt", o->cublaslt);
  sub.add_option("--fp8-min-cc", o->fp8_min_cc);
  sub.add_option("--driver", o->drivers);
  sub.add_option("--progress", o->progress);
  return [o](CommandIo& io) {
    gpu::BenchOptions b;
    b.plan = gpu::bench_plan(o->mode == "full" ? gpu::BenchMode::kFull : gpu::BenchMode::kQuick);
    if (!o->sizes.empty()) b.plan.gemm_sizes = o->sizes;
    if (o->d2d_bytes >= 16) b.plan.d2d_bytes = o->d2d_bytes / 16 * 16;
    if (o->host_bytes > 0) b.plan.host_bytes = o->host_bytes;
    b.device = o->device;
    b.cublas_candidates = o->cublas;
    b.cublaslt_candidates = o->cublaslt;
    if (int major = 0, minor = 0; std::sscanf(o->fp8_min_cc.c_str(), "%d.%d", &major, &minor) == 2) {
      b.fp8_min_cc = std::pair{major, minor};
    }
    b.driver_candidates = o->drivers;
    if (!o->progress.empty()) {
      // The child is the process that touches the GPU; this small status file is the
      // only thing it writes, for the parent's progress line.
      b.progress = [path = o->progress](const std::string& line) {
        std::ofstream f(path, std::ios::trunc);
        f << line;
      };
    }
    io.out << dump_json(gpu::to_json(gpu::run_bench(b)), -1) << "\n";
    return static_cast<int>(kExitOk);
  };
}

}  // namespace tfgpu
