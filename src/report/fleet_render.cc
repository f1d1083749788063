// `tfgpu fleet` as text, Markdown and JSON (docs/fleet-json.md): pure functions of the
// FleetReport.
#include <fmt/format.h>

#include "report/fleet.h"
#include "util/strings.h"

namespace tfgpu::fleet {

namespace {

// Drift rows and outliers shown in text / Markdown (all are in --json).
constexpr size_t kShownDrift = 10;
constexpr size_t kShownOutliers = 20;
constexpr size_t kShownValues = 4;

std::string plural(size_t n, const char* one) { return fmt::format("{} {}{}", n, one, n == 1 ? "" : "s"); }

std::string states_line(const std::map<NodeState, size_t>& states) {
  std::vector<std::string> parts;
  for (const auto& [s, n] : states) parts.push_back(fmt::format("{} {}", n, to_string(s)));
  return join(parts, ", ");
}

std::string values_line(const std::vector<ValueCount>& values) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < values.size() && i < kShownValues; ++i)
    parts.push_back(fmt::format("{} ({})", values[i].value, values[i].nodes));
  if (values.size() > kShownValues) parts.push_back(fmt::format("+{} more", values.size() - kShownValues));
  return join(parts, ", ");
}

std::string blockers_line(const std::vector<ValueCount>& blockers) {
  std::vector<std::string> parts;
  for (const auto& b : blockers) parts.push_back(fmt::format("{} ({})", b.value, b.nodes));
  return join(parts, ", ");
}

std::string headline(const FleetReport& r) {
  std::string s = fmt::format("{}, {}", plural(r.nodes, "node"), plural(r.configurations.size(), "configuration"));
  if (!r.states.empty()) s += ": " + states_line(r.states);
  if (!r.skipped.empty()) s += fmt::format(" ({} skipped)", plural(r.skipped.size(), "snapshot"));
  return s;
}

// Markdown table cells: a '|' would end the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string render_fleet_text(const FleetReport& r) {
  std::string o = fmt::format("tfgpu fleet: {}\n", headline(r));
  if (!r.configurations.empty()) {
    o += "\nConfigurations (worst first):\n";
    for (const auto& c : r.configurations) {
      o += fmt::format("  {:>6}  {:<16}  {}\n", plural(c.nodes, "node"), to_string(c.worst), c.configuration.key());
      std::string detail = c.hostlist;
      if (c.states.size() > 1) detail += "; " + states_line(c.states);
      if (!c.blockers.empty()) detail += "; blockers: " + blockers_line(c.blockers);
      o += fmt::format("  {:>6}  {:<16}  {}\n", "", "", detail);
    }
  }
  size_t info = 0;
  bool header = false;
  for (const auto& f : r.findings) {
    if (f.finding.severity == Severity::kInfo) {
      ++info;
      continue;
    }
    if (!header) o += "\nFindings:\n";
    header = true;
    o += fmt::format("  {:<8} {}: {}: {}: {}\n", to_string(f.finding.severity), f.finding.id, f.finding.title,
                     plural(f.nodes, "node"), f.hostlist);
  }
  if (info > 0) o += fmt::format("  ({} not shown; see --json)\n", plural(info, "info finding"));
  if (r.working > 0 && r.not_working > 0) {
    o += fmt::format("\nDrift (what differs between the {} working and the {} not working nodes):\n", r.working,
                     r.not_working);
    if (r.drift.empty()) o += "  no compared field differs: the difference is outside what the snapshots record\n";
    for (size_t i = 0; i < r.drift.size() && i < kShownDrift; ++i) {
      const auto& d = r.drift[i];
      o += fmt::format("  {}{}: working {}; not working {}\n", d.field, d.splits ? " (splits them)" : "",
                       values_line(d.working), values_line(d.not_working));
    }
    if (r.drift.size() > kShownDrift) o += fmt::format("  (+{} more in --json)\n", r.drift.size() - kShownDrift);
  }
  if (!r.outliers.empty()) {
    o += "\nOutliers:\n";
    for (size_t i = 0; i < r.outliers.size() && i < kShownOutliers; ++i) {
      const auto& x = r.outliers[i];
      o += fmt::format("  {} = {} on {}: {} ({} have {})\n", x.field, x.value, plural(x.nodes, "node"), x.hostlist,
                       x.majority_nodes, x.majority_value);
    }
    if (r.outliers.size() > kShownOutliers)
      o += fmt::format("  (+{} more in --json)\n", r.outliers.size() - kShownOutliers);
  }
  if (!r.duplicates.empty()) {
    o += "\nNode names seen more than once (each snapshot counted):\n";
    for (const auto& d : r.duplicates) o += "  " + d + "\n";
  }
  if (!r.skipped.empty()) {
    o += "\nSkipped:\n";
    for (const auto& s : r.skipped) o += fmt::format("  {}: {}\n", s.source, s.reason);
  }
  return o;
}

std::string render_fleet_markdown(const FleetReport& r) {
  std::string o = fmt::format("## tfgpu fleet\n\n{}\n", headline(r));
  if (!r.configurations.empty()) {
    o += "\n### Configurations\n\n| nodes | verdict | configuration | hosts | blockers |\n|---:|---|---|---|---|\n";
    for (const auto& c : r.configurations)
      o += fmt::format("| {} | {} | {} | `{}` | {} |\n", c.nodes,
                       c.states.size() > 1 ? states_line(c.states) : to_string(c.worst), cell(c.configuration.key()),
                       cell(c.hostlist), cell(blockers_line(c.blockers)));
  }
  if (!r.findings.empty()) {
    o += "\n### Findings\n\n| severity | id | finding | nodes | hosts |\n|---|---|---|---:|---|\n";
    for (const auto& f : r.findings)
      o += fmt::format("| {} | `{}` | {} | {} | `{}` |\n", to_string(f.finding.severity), f.finding.id,
                       cell(f.finding.title), f.nodes, cell(f.hostlist));
  }
  if (r.working > 0 && r.not_working > 0) {
    o += fmt::format("\n### Drift ({} working, {} not working)\n\n", r.working, r.not_working);
    if (r.drift.empty()) {
      o += "No compared field differs.\n";
    } else {
      o += "| field | splits | working | not working |\n|---|---|---|---|\n";
      for (size_t i = 0; i < r.drift.size() && i < kShownDrift; ++i) {
        const auto& d = r.drift[i];
        o += fmt::format("| {} | {} | {} | {} |\n", cell(d.field), d.splits ? "yes" : "partly",
                         cell(values_line(d.working)), cell(values_line(d.not_working)));
      }
    }
  }
  if (!r.outliers.empty()) {
    o += "\n### Outliers\n\n| field | value | nodes | hosts | most nodes have |\n|---|---|---:|---|---|\n";
    for (size_t i = 0; i < r.outliers.size() && i < kShownOutliers; ++i) {
      const auto& x = r.outliers[i];
      o += fmt::format("| {} | {} | {} | `{}` | {} ({}) |\n", cell(x.field), cell(x.value), x.nodes, cell(x.hostlist),
                       cell(x.majority_value), x.majority_nodes);
    }
  }
  if (!r.skipped.empty()) {
    o += "\n### Skipped snapshots\n\n";
    for (const auto& s : r.skipped) o += fmt::format("- `{}`: {}\n", cell(s.source), cell(s.reason));
  }
  return o;
}

nlohmann::json fleet_to_json(const FleetReport& r) {
  using nlohmann::json;
  auto counts = [](const std::vector<ValueCount>& v) {
    json a = json::array();
    for (const auto& x : v) a.push_back({{"value", x.value}, {"nodes", x.nodes}});
    return a;
  };
  auto states = [](const std::map<NodeState, size_t>& m) {
    json o = json::object();
    for (NodeState s : {NodeState::kBlocked, NodeState::kWillNotUseGpu, NodeState::kCannotTell,
                        NodeState::kNoTensorflow, NodeState::kOk})
      o[to_string(s)] = m.contains(s) ? m.at(s) : 0;
    return o;
  };
  json j;
  j["schema_version"] = kFleetJsonSchemaVersion;
  j["tool_version"] = TFGPU_VERSION;
  j["nodes"] = r.nodes;
  j["states"] = states(r.states);
  json configs = json::array();
  for (const auto& c : r.configurations) {
    json blockers = json::array();
    for (const auto& b : c.blockers) blockers.push_back({{"id", b.value}, {"nodes", b.nodes}});
    configs.push_back({{"nodes", c.nodes},
                       {"worst", to_string(c.worst)},
                       {"states", states(c.states)},
                       {"hostlist", c.hostlist},
                       {"summary", c.configuration.key()},
                       {"gpus", c.configuration.gpus},
                       {"driver", c.configuration.driver},
                       {"cuda", c.configuration.cuda},
                       {"cudnn", c.configuration.cudnn},
                       {"tensorflow", c.configuration.envs},
                       {"blockers", blockers}});
  }
  j["configurations"] = configs;
  json findings = json::array();
  for (const auto& f : r.findings)
    findings.push_back({{"id", f.finding.id},
                        {"severity", to_string(f.finding.severity)},
                        {"layer", to_string(f.finding.layer)},
                        {"title", f.finding.title},
                        {"nodes", f.nodes},
                        {"hostlist", f.hostlist}});
  j["findings"] = findings;
  json drift = json::array();
  for (const auto& d : r.drift)
    drift.push_back({{"field", d.field},
                     {"splits", d.splits},
                     {"score", d.score},
                     {"working", counts(d.working)},
                     {"not_working", counts(d.not_working)}});
  j["drift"] = {{"working_nodes", r.working}, {"not_working_nodes", r.not_working}, {"fields", drift}};
  json outliers = json::array();
  for (const auto& x : r.outliers)
    outliers.push_back({{"field", x.field},
                        {"value", x.value},
                        {"nodes", x.nodes},
                        {"hostlist", x.hostlist},
                        {"majority_value", x.majority_value},
                        {"majority_nodes", x.majority_nodes}});
  j["outliers"] = outliers;
  json skipped = json::array();
  for (const auto& s : r.skipped) skipped.push_back({{"source", s.source}, {"reason", s.reason}});
  j["skipped"] = skipped;
  j["duplicates"] = r.duplicates;
  j["exit_code"] = r.exit_code;
  return j;
}

}  // namespace tfgpu::fleet
