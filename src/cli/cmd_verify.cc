// `tfgpu verify`: prove the GPU works end to end. The driver check runs in a child
// process (`tfgpu __verify-child`) so a crashing or hanging driver cannot take tfgpu
// down; with --python, that interpreter runs TensorFlow's own check and its answer is
// compared with the prediction.
#include <memory>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "snapshot/snapshot_json.h"
#include "cli/verify_prediction.h"
#include "gpu/child.h"
#include "gpu/tf_check.h"
#include "gpu/verify.h"
#include "kb/kb.h"
#include "report/verify_render.h"
#include "util/error.h"
#include "util/json_text.h"
#include "util/text_encoding.h"

namespace tfgpu {

namespace {

struct VerifyOptions {
  std::string python;
  std::string prediction_file;
  int timeout_s = 60;
  int python_timeout_s = 300;
  std::vector<std::string> drivers;
};

// The prediction to hold TensorFlow's answer against: --prediction FILE, either a small
// prediction object or a saved `tfgpu doctor --json` report (its verdict for --python).
// Without FILE, doctor's verdict is computed in-process (verify_prediction.h).
Result<std::optional<gpu::TfPrediction>> load_prediction(const Host& host, const std::string& file,
                                                         const std::string& python) {
  if (file.empty()) return std::optional<gpu::TfPrediction>{};
  auto text = host.read_file(file, 1u << 20);
  if (!text) return fail(Error::input(text.error().message));
  *text = decode_text(*text);  // a UTF-8 BOM or UTF-16 (Windows PowerShell 5.1's `>`)
  if (json_nesting_depth(*text) > kMaxJsonDepth)
    return fail(Error::input(fmt::format("{}: JSON nested deeper than {} levels", file, kMaxJsonDepth)));
  auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail(Error::input(file + ": not JSON"));
  auto p = gpu::prediction_from_json(j, python);
  if (!p) return fail(Error::input(file + ": " + p.error().message));
  if (p->source.empty()) p->source = file;
  return std::optional<gpu::TfPrediction>{*p};
}

}  // namespace

CommandRunner define_verify(CLI::App& sub) {
  auto opt = std::make_shared<VerifyOptions>();
  sub.add_option("--python", opt->python, "Also run TensorFlow's own GPU check in this Python interpreter")
      ->option_text("PATH");
  sub.add_option("--prediction", opt->prediction_file,
                 "Prediction to compare TensorFlow's answer with, instead of doctor's verdict computed here: "
                 "`tfgpu doctor --json` output or docs/verify-json.md")
      ->option_text("FILE");
  sub.add_option("--timeout", opt->timeout_s, "Seconds the driver check may take (default 60)")
      ->option_text("SECONDS")
      ->check(usage::whole_number(1, 3600));
  sub.add_option("--python-timeout", opt->python_timeout_s, "Seconds the TensorFlow check may take (default 300)")
      ->option_text("SECONDS")
      ->check(usage::whole_number(1, 3600));
  sub.add_option("--driver", opt->drivers, "Driver library to load instead of libcuda.so.1 / nvcuda.dll (repeatable)")
      ->option_text("LIB");
  return [opt](CommandIo& io) {
    // A FIFO or a directory given as the interpreter is refused, not started (a name
    // looked up on PATH, "python3", does not exist as a path and is left to the child).
    if (!opt->python.empty() && io.host.exists(opt->python) && !io.host.is_file(opt->python)) {
      io.err << "tfgpu verify: --python " << opt->python << ": not a regular file (a Python interpreter is)\n";
      return static_cast<int>(kExitUsage);
    }
    auto prediction = load_prediction(io.host, opt->prediction_file, opt->python);
    if (!prediction) {
      io.err << "tfgpu verify: " << prediction.error().message << "\n";
      return exit_code_for(prediction.error());
    }
    report::VerifyOutcome v;
    gpu::ChildRun child;
    child.args = {"__verify-child"};
    for (const auto& d : opt->drivers) {
      child.args.push_back("--driver");
      child.args.push_back(d);
    }
    child.timeout = std::chrono::seconds(opt->timeout_s);
    auto j = gpu::run_child_json(io.host, child);
    if (!j) {
      v.driver.child_failure = j.error().message;
    } else if (auto r = gpu::verify_report_from_json(*j); r) {
      v.driver = std::move(*r);
    } else {
      v.driver.child_failure = "unreadable report: " + r.error().message;
    }
    if (!opt->python.empty()) {
      v.python = opt->python;
      std::string note;
      if (opt->prediction_file.empty()) {
        // No FILE: doctor's own verdict for this interpreter, from a live probe.
        if (auto kb = kb::load_for_command(io.host, io.global.kb_dir); kb) {
          auto dp = predict_with_doctor(io.host, *kb, opt->python);
          *prediction = dp.prediction;
          note = dp.note;
        } else {
          note = "no prediction for " + opt->python + ": " + kb.error().message;
        }
      }
      v.predicted = *prediction ? gpu::describe_prediction(**prediction) : note;
      v.tf = gpu::run_tf_check(io.host, opt->python, std::chrono::seconds(opt->python_timeout_s));
      v.prediction = gpu::compare_prediction(*prediction, *v.tf);
      if (!note.empty() && v.prediction->verdict == gpu::PredictionCheck::Verdict::kNoPrediction) {
        // "no prediction to compare with; TensorFlow sees 1 GPU" -> say why there is none.
        auto semi = v.prediction->summary.find(';');
        v.prediction->summary = note + (semi == std::string::npos ? "" : v.prediction->summary.substr(semi));
      }
    }
    switch (io.global.format) {
      case OutputFormat::kJson:
        io.out << dump_json(report::verify_json(v)) << "\n";
        break;
      case OutputFormat::kMarkdown:
        io.out << report::render_verify_markdown(v, local_redactor(io.host));
        break;
      case OutputFormat::kText:
        io.out << report::wrap_text(report::render_verify_text(v, io.global.color ? report::Colour::kOn : report::Colour::kOff),
                                    io.global.width);
        break;
    }
    return v.passed() ? static_cast<int>(kExitOk) : static_cast<int>(kExitProblems);
  };
}

CommandRunner define_verify_child(CLI::App& sub) {
  auto drivers = std::make_shared<std::vector<std::string>>();
  sub.add_option("--driver", *drivers, "Driver library candidates");
  return [drivers](CommandIo& io) {
    gpu::DriverCheckOptions o;
    o.driver_candidates = *drivers;
    io.out << dump_json(gpu::to_json(gpu::run_driver_check(o)), -1) << "\n";
    return static_cast<int>(kExitOk);
  };
}

}  // namespace tfgpu
