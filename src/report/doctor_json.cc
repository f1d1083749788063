// `tfgpu doctor --json` (schema: docs/doctor-json.md).
#include "report/doctor_report.h"
#include "report/json_convention.h"

namespace tfgpu {

nlohmann::json doctor_to_json(const DoctorReport& r) {
  using nlohmann::json;
  const Snapshot& s = *r.snapshot;
  json j;
  j["schema_version"] = kDoctorJsonSchemaVersion;
  j["tool_version"] = TFGPU_VERSION;
  j["snapshot"] = {{"origin", s.origin}, {"created_at", s.created_at}, {"os", s.host.os},
                   {"wsl2", s.host.wsl2 == Tri::kYes}, {"container", s.host.container}};
  json layers = json::array();
  for (const auto& l : summarize_layers(s, r.findings, &r.verdicts))
    layers.push_back({{"layer", to_string(l.layer)}, {"status", to_string(l.status)}, {"facts", l.facts}});
  j["layers"] = layers;
  json findings = json::array();
  for (const auto& f : r.findings) {
    json ev = json::array();
    for (const auto& e : f.evidence) {
      json one = {{"fact", e.fact}, {"source", e.source}};
      if (json c = report::citation_json(e.source); !c.is_null()) one["citation"] = std::move(c);
      if (e.line > 0) one["line"] = e.line;
      if (!e.trail.empty()) {
        json trail = json::array();
        for (const auto& t : e.trail) {
          json step = {{"source", t.source}, {"path", t.path}, {"why", t.why}, {"detail", t.detail}};
          if (t.position > 0) step["position"] = t.position;
          trail.push_back(std::move(step));
        }
        one["trail"] = std::move(trail);
      }
      ev.push_back(one);
    }
    findings.push_back({{"id", f.id},
                        {"layer", to_string(f.layer)},
                        {"severity", to_string(f.severity)},
                        {"title", f.title},
                        {"env", f.env},
                        {"evidence", ev},
                        {"fix", report::fix_steps_json(f.fix)}});
  }
  j["findings"] = findings;
  json verdicts = json::array();
  for (const auto& v : r.verdicts) {
    json libraries = json::array();
    for (const auto& l : v.libraries)
      libraries.push_back({{"component", l.component},
                           {"file", l.file},
                           {"must_load", l.must_load},
                           {"outcome", l.outcome},
                           {"path", l.path},
                           {"why", l.why}});
    verdicts.push_back({{"kind", to_string(v.kind)},
                        {"env", v.env},
                        {"tf_package", v.tf_package},
                        {"tf_version", v.tf_version},
                        {"gpu_count", v.gpu_count},
                        {"blocker_ids", v.blocker_ids},
                        {"because", v.because},
                        {"run", v.run},
                        {"sentence", v.sentence},
                        {"libraries", libraries}});
  }
  j["verdicts"] = verdicts;
  j["exit_code"] = r.exit_code;
  return j;
}

}  // namespace tfgpu
