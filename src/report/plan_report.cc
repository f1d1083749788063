// Plan rendering. The text form is what a person reads first: the chosen set on top,
// then why not the others, grouped by release so "TF 2.15 on native Windows: no GPU
// build" reads as one line per cause.
#include "report/plan_report.h"

#include <fmt/format.h>

#include "util/strings.h"
#include "report/markdown.h"

namespace tfgpu::report {
namespace {

std::string status_line(const plan::PlanResult& p) {
  switch (p.status) {
    case plan::PlanStatus::kOk: return "Plan";
    case plan::PlanStatus::kNeedsDriverUpdate: return "Plan (after a driver update)";
    case plan::PlanStatus::kNearest: return "Nearest feasible plan (the request cannot be met)";
    case plan::PlanStatus::kNoPlan: return "No plan";
  }
  return "Plan";
}

std::string machine_line(const plan::Machine& m, plan::Target t) {
  std::string os = m.os + (m.inside_wsl2 ? " (WSL2)" : "");
  std::string gpu = m.gpu_name.empty() ? "GPU unknown"
                                       : fmt::format("{}{}", m.gpu_name, m.cc ? " (compute " + m.cc->str() + ")" : "");
  std::string drv = m.driver ? "driver " + plan::driver_text(*m.driver) : "driver unknown";
  return fmt::format("{}, target {}, {}, {}", os, plan::to_string(t), gpu, drv);
}

nlohmann::ordered_json option_json(const plan::Option& o) {
  nlohmann::ordered_json j;
  j["tensorflow"] = o.tf ? o.tf->version.str() : "";
  j["package"] = o.package;
  j["python"] = o.python ? o.python->str() : "";
  j["python_reused"] = o.python_reused;
  j["cuda"] = o.cuda.str();
  j["cudnn"] = o.cudnn.str();
  j["driver_min"] = plan::driver_text(o.min_driver);
  j["driver_basis"] = o.driver_basis;
  j["driver_recommended"] = o.recommended_driver ? plan::driver_text(*o.recommended_driver) : "";
  j["cc_support"] = std::string(kb::to_string(o.cc_support));
  j["cc_detail"] = o.cc_detail;
  j["method"] = plan::to_string(o.method);
  j["reuse_cuda"] = o.reuse_cuda ? o.reuse_cuda->root : "";
  j["reuse_cudnn"] = o.reuse_cudnn ? o.reuse_cudnn->root : "";
  j["warnings"] = o.warnings;
  auto cites = nlohmann::ordered_json::array();
  for (const auto& c : o.cites) cites.push_back({{"row", c.row}, {"sources", c.sources}, {"verified", c.verified}});
  j["sources"] = cites;
  return j;
}

}  // namespace

std::string render_plan_text(const PlanReport& r) {
  const auto& p = r.plan;
  std::string s;
  s += fmt::format("Machine: {}\n", machine_line(p.machine, p.target));
  for (const auto& n : p.machine.notes) s += "  note: " + n + "\n";
  s += "\n";
  for (const auto& e : p.explanation) s += "! " + e + "\n";
  if (!p.explanation.empty()) s += "\n";
  if (p.chosen) {
    const auto& o = *p.chosen;
    s += fmt::format("{}: {}\n", status_line(p), o.label());
    s += fmt::format("  package   {}=={} (install method: {})\n", o.package, o.tf->version.str(), plan::to_string(o.method));
    s += fmt::format("  driver    >= {} ({}){}\n", plan::driver_text(o.min_driver), o.driver_basis,
                     o.recommended_driver ? fmt::format("; {} or newer for every CUDA {} feature", plan::driver_text(*o.recommended_driver), o.cuda.str()) : "");
    if (o.cc_support != kb::CcSupport::kUnknown || !o.cc_detail.empty())
      s += fmt::format("  kernels   {}: {}\n", kb::to_string(o.cc_support), o.cc_detail);
    if (o.python) s += fmt::format("  python    {}{}\n", o.python->str(), o.python_reused ? " (already installed)" : "");
    if (o.reuse_cuda) s += fmt::format("  reuse     CUDA {} at {}\n", o.reuse_cuda->version.str(), o.reuse_cuda->root);
    if (o.reuse_cudnn) s += fmt::format("  reuse     cuDNN {} at {}\n", o.reuse_cudnn->version.str(), o.reuse_cudnn->root);
    for (const auto& w : o.warnings) s += "  warning   " + w + "\n";
    s += "\nSteps:\n";
    for (size_t i = 0; i < p.steps.size(); ++i) s += fmt::format("  {}. {}\n", i + 1, p.steps[i]);
  } else {
    s += status_line(p) + "\n";
  }
  if (!p.runners_up.empty()) {
    s += "\nRunners-up:\n";
    for (const auto& o : p.runners_up) s += fmt::format("  - {} ({}, driver >= {})\n", o.label(), plan::to_string(o.method), plan::driver_text(o.min_driver));
  }
  if (!p.rejected.empty()) {
    s += "\nRejected:\n";
    for (const auto& rj : p.rejected) s += fmt::format("  - [{}] {}\n", rj.constraint, rj.reason);
  }
  if (!r.written.empty()) {
    s += fmt::format("\nWrote {} files to {} (nothing was executed):\n", r.written.size(), r.out_dir);
    for (const auto& w : r.written) s += "  " + w + "\n";
  } else if (r.lock) {
    s += "\nGive --out DIR to write tfgpu.lock.toml, the setup script, requirements.txt, environment.yml, Dockerfile and verify.py.\n";
  }
  return s;
}

nlohmann::ordered_json plan_to_json(const PlanReport& r) {
  const auto& p = r.plan;
  nlohmann::ordered_json j;
  j["schema_version"] = kPlanJsonSchemaVersion;
  j["status"] = plan::to_string(p.status);
  nlohmann::ordered_json m;
  m["os"] = p.machine.os;
  m["inside_wsl2"] = p.machine.inside_wsl2;
  m["target"] = plan::to_string(p.target);
  m["gpu"] = p.machine.gpu_name;
  m["gpu_pci_id"] = p.machine.gpu_pci_id;
  m["compute_capability"] = p.machine.cc ? p.machine.cc->str() : "";
  m["driver"] = p.machine.driver ? plan::driver_text(*p.machine.driver) : "";
  m["notes"] = p.machine.notes;
  j["machine"] = m;
  j["explanation"] = p.explanation;
  j["chosen"] = p.chosen ? option_json(*p.chosen) : nlohmann::ordered_json(nullptr);
  auto ru = nlohmann::ordered_json::array();
  for (const auto& o : p.runners_up) ru.push_back(option_json(o));
  j["runners_up"] = ru;
  auto rej = nlohmann::ordered_json::array();
  for (const auto& x : p.rejected) rej.push_back({{"tensorflow", x.tf.str()}, {"constraint", x.constraint}, {"reason", x.reason}});
  j["rejected"] = rej;
  j["steps"] = p.steps;
  j["written"] = r.written;
  return j;
}

std::string render_plan_markdown(const PlanReport& r, const Redactor& redactor) {
  auto code = [&](std::string_view t) { return md_code(redactor.apply(t)); };
  auto text = [&](std::string_view t) { return md_text(redactor.apply(t)); };
  const auto& p = r.plan;
  std::string s = "### tfgpu plan\n\n";
  s += fmt::format("**Machine:** {}\n\n", text(machine_line(p.machine, p.target)));
  for (const auto& e : p.explanation) s += "> " + text(e) + "\n";
  if (!p.explanation.empty()) s += "\n";
  if (p.chosen) {
    const auto& o = *p.chosen;
    s += fmt::format("**{}:** {} ({}, method {}, driver >= {})\n\n", text(status_line(p)), text(o.label()),
                     md_code(o.package + "==" + o.tf->version.str()), md_code(plan::to_string(o.method)),
                     text(plan::driver_text(o.min_driver)));
    for (const auto& w : o.warnings) s += "- warning: " + text(w) + "\n";
    if (!o.warnings.empty()) s += "\n";
    s += "**Steps:**\n\n";
    for (size_t i = 0; i < p.steps.size(); ++i) s += fmt::format("{}. {}\n", i + 1, code(p.steps[i]));
    s += "\n";
  } else {
    s += "**No plan.**\n\n";
  }
  if (!p.runners_up.empty()) {
    s += "| runner-up | method | driver >= |\n|---|---|---|\n";
    for (const auto& o : p.runners_up)
      s += fmt::format("| {} | {} | {} |\n", text(o.label()), text(plan::to_string(o.method)), text(plan::driver_text(o.min_driver)));
    s += "\n";
  }
  if (!p.rejected.empty()) {
    s += "| rejected | constraint | why |\n|---|---|---|\n";
    for (const auto& x : p.rejected)
      s += fmt::format("| TF {} | {} | {} |\n", x.tf.truncated(2).str(), md_code(x.constraint), text(x.reason));
  }
  if (!r.written.empty()) {
    s += "\n**Files written:**\n\n";
    for (const auto& w : r.written) s += "- " + code(w) + "\n";
  }
  return s;
}

}  // namespace tfgpu::report
