// Text rendering of a doctor report for a terminal: layers, findings with fixes,
// verdicts. ANSI colour only when asked (the CLI decides: tty, NO_COLOR, --color).
#include <algorithm>

#include <fmt/format.h>

#include "report/doctor_report.h"
#include "report/trail_render.h"
#include "util/terminal_text.h"

namespace tfgpu {

namespace {

struct Paint {
  Color color;
  bool ascii = false;  // the locale is not UTF-8: [ok] [x] [!] [i] instead of the symbols
  std::string operator()(std::string_view code, std::string_view text) const {
    if (ascii) text = text == "✓" ? "[ok]" : text == "✗" ? "[x]" : text == "!" ? "[!]" : text == "i" ? "[i]" : text;
    if (color == Color::kOff) return std::string(text);
    return sgr(code) + std::string(text) + sgr("0");
  }
};

constexpr std::string_view kRed = "31";
constexpr std::string_view kGreen = "32";
constexpr std::string_view kYellow = "33";
constexpr std::string_view kBold = "1";
constexpr std::string_view kDim = "2";

size_t ascii_width(LayerStatus s) { return s == LayerStatus::kOk ? 4 : 3; }  // "[ok]", "[x]", "[!]"

std::string mark(LayerStatus s, const Paint& p) {
  switch (s) {
    case LayerStatus::kOk:
      return p(kGreen, "✓");
    case LayerStatus::kBlocked:
      return p(kRed, "✗");
    case LayerStatus::kWarning:
    case LayerStatus::kUnknown:
      break;
  }
  return p(kYellow, "!");
}

std::string mark(Severity s, const Paint& p) {
  switch (s) {
    case Severity::kBlocker:
      return p(kRed, "✗");
    case Severity::kWarning:
      return p(kYellow, "!");
    case Severity::kInfo:
      break;
  }
  return p(kDim, "i");
}

std::string mark(VerdictKind k, const Paint& p) {
  switch (k) {
    case VerdictKind::kWillUseGpu:
      return p(kGreen, "✓");
    case VerdictKind::kWillNotUseGpu:
      return p(kRed, "✗");
    case VerdictKind::kCannotTell:
    case VerdictKind::kNoTensorflow:
      break;
  }
  return p(kYellow, "!");
}

}  // namespace

std::string render_doctor_text(const DoctorReport& r, Color color, bool ascii) {
  Paint p{color, ascii};
  std::string out;
  const Snapshot& s = *r.snapshot;
  out += p(kBold, "tfgpu doctor");
  if (s.origin == "file" || s.origin == "log" || s.origin == "test")
    out += fmt::format(" (snapshot{})", s.created_at.empty() ? "" : " of " + s.created_at);
  out += "\n";
  std::string layers;
  for (const auto& l : summarize_layers(s, r.findings, &r.verdicts)) {
    for (size_t i = 0; i < l.facts.size(); ++i) {
      // ASCII marks are wider than one column ("[ok]" vs "✓"): pad them to one width so
      // the layer names and the facts below line up.
      if (i == 0)
        layers += fmt::format("  {}{} {:<10} {}\n", mark(l.status, p),
                           std::string(p.ascii ? 4 - ascii_width(l.status) : 0, ' '), to_string(l.layer), l.facts[i]);
      else
        layers += fmt::format("  {} {:<10} {}\n", std::string(p.ascii ? 4 : 1, ' '), "", l.facts[i]);
    }
  }
  std::string findings;
  if (!r.findings.empty()) {
    findings += "\n" + p(kBold, "Findings") + "\n";
    for (const auto& f : r.findings) {
      findings += fmt::format("\n  {} {} {}\n", mark(f.severity, p), p(kBold, f.title), p(kDim, "[" + f.id + "]"));
      if (!f.env.empty()) findings += fmt::format("      in {}\n", f.env);
      for (const auto& e : f.evidence) {
        findings += fmt::format("      - {} {}\n", e.fact, p(kDim, "(" + e.source + ")"));
        // The loader's trail, shortened (JSON has all of it).
        for (const auto& l : short_trail(e.trail)) findings += fmt::format("          {}\n", p(kDim, l));
      }
      if (!f.fix.empty()) {
        findings += "      fix:\n";
        int n = 0;
        for (const auto& step : f.fix) {
          // Indented steps ("  A1. ...") are sub-steps of the previous one: keep them unnumbered.
          if (step.rfind("  ", 0) == 0)
            findings += fmt::format("           {}\n", step.substr(2));
          else
            findings += fmt::format("        {}. {}\n", ++n, step);
        }
      }
    }
  }
  // With a blocker the first screen shows what is wrong, then the machine; otherwise the
  // machine comes first and the findings (warnings, notes) follow it.
  bool blocked = std::any_of(r.findings.begin(), r.findings.end(),
                             [](const Finding& f) { return f.severity == Severity::kBlocker; });
  if (blocked) {
    out += findings;
    out += "\n" + p(kBold, "Machine") + "\n\n" + layers;
  } else {
    out += "\n" + layers + findings;
  }
  out += "\n" + p(kBold, "Verdict") + "\n";
  for (const auto& v : r.verdicts) out += fmt::format("  {} {}\n", mark(v.kind, p), v.sentence);
  return out;
}

}  // namespace tfgpu
