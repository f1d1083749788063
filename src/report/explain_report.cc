// Text / JSON / Markdown for explain results (see explain_report.h).
#include "report/explain_report.h"
#include "report/json_convention.h"

#include <cmath>

#include <fmt/format.h>

#include "report/markdown.h"
#include "snapshot/snapshot_json.h"
#include "util/terminal_text.h"

namespace tfgpu::report {

using explain::ExplainResult;

std::string sanitize_log_text(std::string_view raw, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(raw.size(), max_bytes) + 8);
  const auto* b = reinterpret_cast<const unsigned char*>(raw.data());
  size_t i = 0;
  bool cut = false;
  while (i < raw.size()) {
    if (out.size() >= max_bytes) {
      cut = true;
      break;
    }
    unsigned char c = b[i];
    if (c < 0x80) {
      out += (c == '\t' || (c >= 0x20 && c != 0x7f)) ? static_cast<char>(c) : '?';
      ++i;
      continue;
    }
    size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len != 0 && i + len <= raw.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (b[i + k] >> 6) == 0x2;
    if (ok) {
      out.append(raw.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  if (cut) out += "...";
  return out;
}

namespace {

std::string color(bool on, const char* code) { return on ? sgr(code) : std::string(); }

std::string fact_line(const char* label, const explain::Fact& f) {
  if (f.empty()) return {};
  return fmt::format("  {:<22} {}{}\n", label, sanitize_log_text(f.value, 120),
                     f.line ? fmt::format("  (line {})", f.line) : "");
}

std::string facts_text(const explain::LogFacts& f) {
  std::string s;
  std::string os = f.os.value;
  if (!f.wsl.empty()) os += " (WSL2)";
  if (!f.container.empty()) os += " in a container";
  s += fact_line("platform", {os, f.os.line});
  if (!f.tf_from_tfjs_node.empty())
    s += fact_line("TensorFlow", {f.tf_version.value + " (the libtensorflow tfjs-node " + f.tf_from_tfjs_node.value +
                                      " downloads)",
                                  f.tf_version.line});
  else
    s += fact_line("TensorFlow", f.tf_version);
  s += fact_line("tfjs-node", f.tfjs_node_version);
  s += fact_line("Python", f.python_version);
  if (!f.python_bits.empty()) s += fact_line("Python bits", f.python_bits);
  s += fact_line("CUDA", f.cuda_version);
  s += fact_line("cuDNN", f.cudnn_version);
  s += fact_line("cuDNN loaded", f.cudnn_loaded);
  s += fact_line("cuDNN compiled with", f.cudnn_compiled);
  s += fact_line("driver", f.driver_version);
  s += fact_line("driver CUDA (max)", f.driver_cuda_version);
  for (const auto& g : f.gpu_names) s += fact_line("GPU", g);
  s += fact_line("compute capability", f.compute_capability);
  s += fact_line("CPU", f.cpu_model);
  s += fact_line("CPU flags", f.cpu_flags);
  for (const auto& l : f.failed_libraries) s += fact_line("not loaded", {l.name, l.line});
  return s;
}

}  // namespace

std::string render_explain_text(const ExplainResult& r, const ExplainTextOptions& o) {
  const std::string bold = color(o.color, "1");
  const std::string red = color(o.color, "31");
  const std::string yellow = color(o.color, "33");
  const std::string green = color(o.color, "32");
  const std::string dim = color(o.color, "2");
  const std::string reset = color(o.color, "0");
  std::string s;
  s += fmt::format("{}tfgpu explain{}: {} lines, {} bytes{}\n", bold, reset, r.stats.lines, r.stats.bytes,
                   r.stats.has_nul ? " (binary data: NUL bytes)" : r.stats.invalid_utf8 ? " (not valid UTF-8)" : "");
  std::string facts = facts_text(r.facts);
  if (!facts.empty()) s += fmt::format("\n{}What the log says about the machine{}\n{}", bold, reset, facts);

  if (r.findings.empty()) {
    // No finding: nothing recognised, or a crash / error explain knows no cause of (then never
    // "only harmless messages", whatever harmless lines are beside it).
    s += fmt::format("\n{}No known problem recognised.{} {}\n", bold, reset,
                     r.crash ? "The input shows an error or a crash that matches no known cause."
                             : "Nothing in the input matches a known message.");
    s += "Paste the full output of the failing command (with TF_CPP_MAX_VLOG_LEVEL=3 on TF >= 2.12), or run: tfgpu doctor\n";
  } else {
    s += fmt::format("\n{}Findings, most likely root cause first{}\n", bold, reset);
    size_t n = 0;
    for (const auto& f : r.findings) {
      if (n == o.max_findings) {
        s += fmt::format("  ... and {} less likely finding(s); see --json\n", r.findings.size() - n);
        break;
      }
      ++n;
      const std::string& c = f.severity == Severity::kBlocker ? red : f.severity == Severity::kWarning ? yellow : green;
      s += fmt::format("\n{}. {}{}{} [{}, {}] {}(likelihood {:.2f}){}\n   {}\n", n, c, bold, f.id, to_string(f.severity),
                       to_string(f.layer), reset, f.score, reset, f.title);
      if (!f.evidence.empty()) {
        s += "   evidence:\n";
        for (const auto& e : f.evidence) {
          if (e.line > 0)
            s += fmt::format("     {}line {:>5}{}  {}\n", dim, e.line, reset, sanitize_log_text(e.fact));
          else
            s += fmt::format("     {}{:<10}{}  {} [{}]\n", dim, "kb", reset, sanitize_log_text(e.fact), e.source);
        }
      }
      if (!f.fix.empty()) {
        s += "   fix:\n";
        for (size_t i = 0; i < f.fix.size(); ++i) s += fmt::format("     {}. {}\n", i + 1, f.fix[i]);
      }
    }
  }
  if (!r.checks.empty()) {
    s += fmt::format("\n{}Not sure yet: run these on the machine to tell the findings above apart{}\n", bold, reset);
    for (const auto& c : r.checks) {
      s += fmt::format("  $ {}\n", c.run);
      for (const auto& a : c.answers) s += fmt::format("      {} -> {}\n", a.means, a.finding);
    }
    s += "  Or run `tfgpu doctor` on that machine: it checks every layer without importing TensorFlow.\n";
  }
  if (!r.noise.empty()) {
    s += fmt::format("\n{}Harmless lines (not the problem){}\n", bold, reset);
    for (const auto& nl : r.noise) {
      s += fmt::format("  {}line {:>5}{}  {}{}\n", dim, nl.line, reset, sanitize_log_text(nl.text, 120),
                       nl.count > 1 ? fmt::format("  (x{})", nl.count) : "");
      s += fmt::format("              {}\n", nl.why);
    }
  }
  return s;
}

nlohmann::json explain_to_json(const ExplainResult& r) {
  using nlohmann::json;
  json j;
  j["schema_version"] = kExplainJsonSchema;
  j["input"] = {{"bytes", r.stats.bytes},
                {"lines", r.stats.lines},
                {"longest_line", r.stats.longest_line},
                {"long_lines", r.stats.long_lines},
                {"binary", r.stats.has_nul},
                {"valid_utf8", !r.stats.invalid_utf8},
                {"crash", r.crash}};
  json findings = json::array();
  for (const auto& f : r.findings) {
    json ev = json::array();
    for (const auto& e : f.evidence) {
      json je = {{"text", sanitize_log_text(e.fact, 400)}, {"source", e.source}};
      if (json c = citation_json(e.source); !c.is_null()) je["citation"] = std::move(c);
      je["line"] = e.line > 0 ? json(e.line) : json(nullptr);
      ev.push_back(std::move(je));
    }
    findings.push_back({{"id", f.id},
                        {"severity", to_string(f.severity)},
                        {"layer", to_string(f.layer)},
                        {"title", f.title},
                        {"score", std::round(f.score * 1000.0) / 1000.0},
                        {"evidence", std::move(ev)},
                        {"fix", fix_steps_json(f.fix)}});
  }
  j["findings"] = std::move(findings);
  json checks = json::array();
  for (const auto& c : r.checks) {
    json answers = json::array();
    for (const auto& a : c.answers) answers.push_back({{"finding", a.finding}, {"means", a.means}});
    checks.push_back({{"run", c.run}, {"answers", std::move(answers)}});
  }
  j["checks"] = std::move(checks);
  json noise = json::array();
  for (const auto& n : r.noise)
    noise.push_back({{"signature", n.signature},
                     {"line", n.line},
                     {"count", n.count},
                     {"text", sanitize_log_text(n.text, 400)},
                     {"why", n.why}});
  j["noise"] = std::move(noise);
  json facts = json::object();
  auto put = [&](const char* key, const explain::Fact& f) {
    if (!f.empty()) facts[key] = {{"value", sanitize_log_text(f.value, 200)}, {"line", f.line}};
  };
  put("os", r.facts.os);
  put("wsl", r.facts.wsl);
  put("container", r.facts.container);
  put("tensorflow", r.facts.tf_version);
  put("tfjs_node", r.facts.tfjs_node_version);
  put("python", r.facts.python_version);
  put("python_bits", r.facts.python_bits);
  put("cuda", r.facts.cuda_version);
  put("cudnn", r.facts.cudnn_version);
  put("cudnn_loaded", r.facts.cudnn_loaded);
  put("cudnn_compiled", r.facts.cudnn_compiled);
  put("driver", r.facts.driver_version);
  put("driver_cuda", r.facts.driver_cuda_version);
  put("compute_capability", r.facts.compute_capability);
  put("cpu_model", r.facts.cpu_model);
  put("cpu_flags", r.facts.cpu_flags);
  json gpus = json::array();
  for (const auto& g : r.facts.gpu_names) gpus.push_back({{"value", sanitize_log_text(g.value, 120)}, {"line", g.line}});
  if (!gpus.empty()) facts["gpus"] = std::move(gpus);
  json libs = json::array();
  for (const auto& l : r.facts.failed_libraries)
    libs.push_back({{"name", sanitize_log_text(l.name, 120)}, {"component", l.component},
                    {"detail", sanitize_log_text(l.detail, 200)}, {"line", l.line}});
  if (!libs.empty()) facts["libraries_not_loaded"] = std::move(libs);
  j["facts"] = std::move(facts);
  j["snapshot"] = snapshot_to_json(r.snapshot);
  return j;
}

std::string render_explain_json(const ExplainResult& r) {
  return explain_to_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string render_explain_markdown(const ExplainResult& r, const Redactor& redactor) {
  // The log is from this machine and about to be published: redacted like doctor's
  // Markdown, every log line and fix a code span.
  auto code = [&](std::string_view t) { return md_code(redactor.apply(t)); };
  auto text = [&](std::string_view t) { return md_text(redactor.apply(t)); };
  std::string s = "## tfgpu explain\n\n";
  if (r.findings.empty()) {
    s += "No known problem recognised in the log.\n";
  } else {
    s += "| # | finding | severity | likelihood |\n|---|---|---|---|\n";
    for (size_t i = 0; i < r.findings.size(); ++i)
      s += fmt::format("| {} | {} | {} | {:.2f} |\n", i + 1, md_code(r.findings[i].id), to_string(r.findings[i].severity),
                       r.findings[i].score);
    const auto& top = r.findings.front();
    s += fmt::format("\n### Most likely: {}\n\n{}\n\nEvidence:\n\n", md_code(top.id), text(top.title));
    for (const auto& e : top.evidence)
      s += e.line > 0 ? fmt::format("- line {}: {}\n", e.line, code(sanitize_log_text(e.fact)))
                      : fmt::format("- {} ({})\n", code(sanitize_log_text(e.fact)), text(e.source));
    s += "\nFix:\n\n";
    for (size_t i = 0; i < top.fix.size(); ++i) s += fmt::format("{}. {}\n", i + 1, code(top.fix[i]));
  }
  if (!r.checks.empty()) {
    s += "\n### Not sure yet: to tell the findings apart, run\n\n";
    for (const auto& c : r.checks) {
      s += fmt::format("- {}\n", code(c.run));
      for (const auto& a : c.answers) s += fmt::format("  - {}: {}\n", text(a.means), md_code(a.finding));
    }
  }
  if (!r.noise.empty()) {
    s += "\n### Harmless lines\n\n";
    for (const auto& n : r.noise) s += fmt::format("- line {}: {}\n", n.line, text(n.why));
  }
  return s;
}

}  // namespace tfgpu::report
