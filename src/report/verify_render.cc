#include "report/verify_render.h"
#include "report/markdown.h"
#include "util/strings.h"
#include "util/terminal_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tfgpu::report {

bool VerifyOutcome::passed() const {
  if (!driver.passed()) return false;
  if (prediction && (prediction->verdict == gpu::PredictionCheck::Verdict::kDiffers ||
                     prediction->verdict == gpu::PredictionCheck::Verdict::kNoAnswer)) {
    return false;
  }
  return true;
}

namespace {

std::string paint(Colour c, const char* code, const std::string& text) {
  return c == Colour::kOn ? sgr(code) + text + sgr("0") : text;
}

std::string tag(const gpu::StepResult& s, Colour c) {
  switch (s.status) {
    case gpu::StepStatus::kPass:
      return paint(c, "32", "[pass]");
    case gpu::StepStatus::kFail:
      return paint(c, "1;31", "[FAIL]");
    case gpu::StepStatus::kSkip:
      break;
  }
  return paint(c, "2", "[skip]");
}

void step_lines(std::string& out, const gpu::StepResult& s, Colour c, const char* indent) {
  out += fmt::format("{}{} {}", indent, tag(s, c), s.title);
  if (!s.detail.empty()) out += ": " + s.detail;
  if (!s.error_text.empty()) out += fmt::format(" ({})", s.error_text);
  out += "\n";
  if (!s.fix.empty()) out += fmt::format("{}       fix: {}\n", indent, s.fix);
}

const gpu::StepResult* first_failure(const gpu::VerifyReport& r) {
  for (const auto& s : r.steps) {
    if (s.status == gpu::StepStatus::kFail) return &s;
  }
  for (const auto& d : r.devices) {
    for (const auto& s : d.steps) {
      if (s.status == gpu::StepStatus::kFail) return &s;
    }
  }
  return nullptr;
}

std::string headline(const VerifyOutcome& v) {
  const auto& r = v.driver;
  if (!r.child_failure.empty()) return "FAILED: the driver check did not finish (" + r.child_failure + ")";
  if (const auto* f = first_failure(r)) {
    return fmt::format("FAILED at \"{}\"{}", f->title, f->error_name.empty() ? "" : " (" + f->error_name + ")");
  }
  if (r.devices.empty()) return "FAILED: no GPU checked";
  return fmt::format("the GPU works end to end ({} device{} checked)", r.devices.size(),
                     r.devices.size() == 1 ? "" : "s");
}

void tf_lines(std::string& out, const VerifyOutcome& v, Colour c) {
  out += fmt::format("\nTensorFlow ({})\n", v.python.value_or("?"));
  const auto& t = *v.tf;
  if (!t.failure.empty()) {
    out += "  no answer: " + t.failure + "\n";
  } else if (!t.import_error.empty()) {
    out += fmt::format("  Python {}: `import tensorflow` failed: {}\n", t.python_version, t.import_error);
  } else {
    out += fmt::format("  TensorFlow {} on Python {}, {}", t.tf_version, t.python_version,
                       t.built_with_cuda ? "built with CUDA" : "a CPU-only build");
    if (!t.build_cuda.empty()) out += fmt::format(" {} / cuDNN {}", t.build_cuda, t.build_cudnn);
    out += "\n";
    out += fmt::format("  GPUs TensorFlow lists: {}", t.gpus.size());
    for (size_t i = 0; i < t.gpus.size(); ++i) {
      std::string name = i < t.gpu_names.size() ? t.gpu_names[i] : "";
      std::string cc = i < t.gpu_compute_capabilities.size() ? t.gpu_compute_capabilities[i] : "";
      out += fmt::format("{} {}{}", i ? "," : "", t.gpus[i],
                         name.empty() ? "" : fmt::format(" ({}{})", name, cc.empty() ? "" : ", CC " + cc));
    }
    out += "\n  memory growth: " + t.memory_growth + "\n";
    auto mm = [](const gpu::TfMatmul& m) {
      if (!m.error.empty()) return "failed: " + m.error;
      if (!m.ran) return std::string("not run");
      return fmt::format("{:.2f} ms on {}", m.ms, m.device);
    };
    out += "  matmul 1024x1024 on /CPU:0: " + mm(t.matmul_cpu) + "\n";
    if (!t.gpus.empty()) {
      out += "  matmul 1024x1024 on /GPU:0: " + mm(t.matmul_gpu);
      if (t.results_match) out += *t.results_match ? " (same result as the CPU)" : " (DIFFERENT result from the CPU)";
      out += "\n";
    }
    if (!t.mixed_precision_error.empty()) {
      out += "  mixed precision: " + t.mixed_precision_error + "\n";
    } else if (!t.mixed_precision_policy.empty()) {
      out += fmt::format("  mixed precision: policy {} (compute dtype {})\n", t.mixed_precision_policy,
                         t.mixed_precision_compute_dtype);
    }
  }
  if (v.prediction) {
    const auto& p = *v.prediction;
    bool bad = p.verdict == gpu::PredictionCheck::Verdict::kDiffers;
    if (!v.predicted.empty()) out += "\n  " + v.predicted + "\n";
    out += "\n" + paint(c, bad ? "1;31" : "1", (bad ? "!!! " : "") + p.summary) + "\n";
    for (const auto& d : p.differences) out += "  - " + d + "\n";
    if (!p.libraries_note.empty()) out += "  (" + p.libraries_note + ")\n";
  }
}

}  // namespace

std::string render_verify_text(const VerifyOutcome& v, Colour c) {
  const auto& r = v.driver;
  std::string out = "tfgpu verify: " + paint(c, v.passed() ? "1;32" : "1;31", headline(v)) + "\n\nDriver\n";
  for (const auto& s : r.steps) step_lines(out, s, c, "  ");
  if (!r.child_failure.empty()) {
    out += fmt::format("  {} The driver check (child process): {}\n", paint(c, "1;31", "[FAIL]"), r.child_failure);
    out += "         fix: the driver crashed or hung inside a basic call: check `dmesg` for NVRM/Xid errors and "
           "`nvidia-smi`; reinstall the driver or reboot.\n";
  }
  for (const auto& d : r.devices) {
    out += fmt::format("\nGPU {}: {} (compute capability {}.{}, {}, {} total)\n", d.ordinal, d.name, d.cc_major,
                       d.cc_minor, d.pci_bus_id.empty() ? "bus id unknown" : d.pci_bus_id, gib(d.total_bytes));
    for (const auto& s : d.steps) step_lines(out, s, c, "  ");
  }
  if (v.tf) tf_lines(out, v, c);
  return out;
}

std::string render_verify_markdown(const VerifyOutcome& v, const Redactor& redactor) {
  auto text = [&](std::string_view t) { return md_text(redactor.apply(t)); };
  std::string out = "### tfgpu verify\n\n**" + text(headline(v)) + "**\n\n| step | result | detail |\n|---|---|---|\n";
  auto row = [&](const std::string& where, const gpu::StepResult& s) {
    std::string detail = text(s.detail);
    if (!s.error_name.empty()) detail += " (" + md_code(s.error_name) + ")";
    if (!s.fix.empty()) detail += "<br>fix: " + md_code(redactor.apply(s.fix));
    out += fmt::format("| {}{} | {} | {} |\n", where, text(s.title), gpu::to_string(s.status), detail);
  };
  for (const auto& s : v.driver.steps) row("", s);
  for (const auto& d : v.driver.devices) {
    for (const auto& s : d.steps) row(fmt::format("GPU {}: ", d.ordinal), s);
  }
  if (!v.driver.child_failure.empty()) out += "\nThe driver check did not finish: " + text(v.driver.child_failure) + "\n";
  if (v.tf) {
    std::string tf;
    tf_lines(tf, v, Colour::kOff);
    out += "\n" + md_block(redactor.apply(tf));
  }
  return out;
}

nlohmann::json verify_json(const VerifyOutcome& v) {
  nlohmann::json j = gpu::to_json(v.driver);
  j["schema_version"] = kVerifyJsonSchemaVersion;
  j["passed"] = v.passed();
  j["driver_passed"] = v.driver.passed();
  if (v.tf) {
    j["tensorflow"] = gpu::to_json(*v.tf);
    j["tensorflow"]["interpreter"] = v.python.value_or("");
  }
  if (v.prediction) {
    j["prediction"] = gpu::to_json(*v.prediction);
    j["prediction"]["predicted"] = v.predicted;
  }
  return j;
}

}  // namespace tfgpu::report
