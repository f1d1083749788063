// `tfgpu doctor --markdown`: a block to paste into a bug report. The whole text is
// redacted (user names in home paths, GPU UUIDs) because it is meant to be published.
#include <regex>

#include <fmt/format.h>

#include "report/doctor_report.h"
#include "report/trail_render.h"

namespace tfgpu {

std::string redact(std::string_view text) {
  // Home folders: /home/NAME, /Users/NAME, C:\Users\NAME (also C:/Users and JSON-escaped C:\\Users\\).
  // Windows user names may hold spaces ("Bob Smith"): taken up to the next separator.
  static const std::regex kWinHome(R"(([A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))([^/\\"'`:;,()<>\[\]|\r\n]+?)(?=\\|/))",
                                   std::regex::icase);
  static const std::regex kHome(R"((/home/|/Users/|[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))([^/\\\s"'`:;,()<>\[\]|]+))",
                                std::regex::icase);
  static const std::regex kUuid(R"(\b(GPU|MIG)-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b)");
  std::string out = std::regex_replace(std::string(text), kWinHome, "$1<user>");
  out = std::regex_replace(out, kHome, "$1<user>");
  out = std::regex_replace(out, kUuid, "$1-<redacted>");
  return out;
}

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

// Table cells must not break the row.
std::string cell(std::string_view t) {
  std::string out;
  for (char c : t) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string render_doctor_markdown(const DoctorReport& r) {
  const Snapshot& s = *r.snapshot;
  std::string out = "### tfgpu doctor report\n\n";
  for (const auto& v : r.verdicts) out += fmt::format("**Verdict:** {}\n\n", v.sentence);
  out += "| layer | status | facts |\n|---|---|---|\n";
  for (const auto& l : summarize_layers(s, r.findings)) {
    std::string facts;
    for (size_t i = 0; i < l.facts.size(); ++i) facts += (i ? "<br>" : "") + cell(l.facts[i]);
    out += fmt::format("| {} | {} {} | {} |\n", to_string(l.layer), layer_icon(l.status), to_string(l.status), facts);
  }
  if (!r.findings.empty()) {
    out += "\n#### Findings\n";
    for (const auto& f : r.findings) {
      out += fmt::format("\n- **{}** `{}`: {}\n", to_string(f.severity), f.id, f.title);
      if (!f.env.empty()) out += fmt::format("  - environment: {}\n", f.env);
      for (const auto& e : f.evidence) {
        out += fmt::format("  - {} _({})_\n", e.fact, e.source);
        for (const auto& l : short_trail(e.trail)) out += fmt::format("    - {}\n", l);
      }
      int n = 0;
      for (const auto& step : f.fix) {
        if (step.rfind("  ", 0) == 0)
          out += fmt::format("     - {}\n", step.substr(2));
        else
          out += fmt::format("  {}. fix: {}\n", ++n, step);
      }
    }
  }
  out += fmt::format("\n<sub>tfgpu {} doctor, snapshot {} {}</sub>\n", TFGPU_VERSION, s.origin, s.created_at);
  return redact(out);
}

}  // namespace tfgpu
