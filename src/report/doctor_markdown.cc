// `tfgpu doctor --markdown`: a block to paste into a bug report. Everything is redacted
// (report/markdown.h: host and user names, home folders, GPU UUIDs) because it is meant
// to be published, and every fact, path, trail line and fix step is a code span, so the
// rendered text is the text tfgpu meant (no `__init__` in bold, no lost backslash).
#include <fmt/format.h>

#include "report/doctor_report.h"
#include "report/markdown.h"
#include "report/trail_render.h"

namespace tfgpu {

std::string redact(std::string_view text) { return report::Redactor{}.apply(text); }

namespace {

const char* layer_icon(LayerStatus s) {
  switch (s) {
    case LayerStatus::kOk:
      return "✓";
    case LayerStatus::kBlocked:
      return "✗";
    case LayerStatus::kWarning:
    case LayerStatus::kUnknown:
      break;
  }
  return "!";
}

}  // namespace

std::string render_doctor_markdown(const DoctorReport& r, const report::Redactor& redactor_in) {
  using report::md_code;
  using report::md_text;
  const Snapshot& s = *r.snapshot;
  report::Redactor redactor = redactor_in;
  redactor.learn_from(s);  // /home/alice in one path hides alice in /data/alice too
  auto code = [&](std::string_view t) { return md_code(redactor.apply(t)); };
  auto text = [&](std::string_view t) { return md_text(redactor.apply(t)); };
  std::string out = "### tfgpu doctor report\n\n";
  for (const auto& v : r.verdicts) out += fmt::format("**Verdict:** {}\n\n", text(v.sentence));
  for (const auto& l : summarize_layers(s, r.findings, &r.verdicts)) {
    out += fmt::format("- **{}**: {} {}\n", to_string(l.layer), layer_icon(l.status), to_string(l.status));
    for (const auto& fact : l.facts) out += fmt::format("  - {}\n", code(fact));
  }
  if (!r.findings.empty()) {
    out += "\n#### Findings\n";
    for (const auto& f : r.findings) {
      out += fmt::format("\n- **{}** {}: {}\n", to_string(f.severity), md_code(f.id), text(f.title));
      if (!f.env.empty()) out += fmt::format("  - environment: {}\n", code(f.env));
      for (const auto& e : f.evidence) {
        out += fmt::format("  - {} _({})_\n", code(e.fact), text(e.source));
        for (const auto& l : short_trail(e.trail)) out += fmt::format("    - {}\n", code(l));
      }
      int n = 0;
      for (const auto& step : f.fix) {
        if (step.rfind("  ", 0) == 0)
          out += fmt::format("     - {}\n", code(step.substr(2)));
        else
          out += fmt::format("  {}. fix: {}\n", ++n, code(step));
      }
    }
  }
  out += fmt::format("\n<sub>tfgpu {} doctor, snapshot {} {}</sub>\n", TFGPU_VERSION, text(s.origin), text(s.created_at));
  return out;
}

}  // namespace tfgpu
