#pragma once
// Rendering of a doctor run: the four layers (✓ / ✗ / ! with the key facts), the
// findings with their fixes, and the verdicts, as text (colour optional), JSON
// (docs/doctor-json.md) or Markdown for a bug report (user names in home paths and GPU
// UUIDs redacted). All pure functions of the data.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kb/kb.h"
#include "plan/lock.h"
#include "rules/finding.h"
#include "rules/verdict.h"
#include "snapshot/snapshot.h"
#include "report/markdown.h"

namespace tfgpu {

// 2: findings[].fix is a list of step objects, evidence[].citation (docs/doctor-json.md).
inline constexpr int kDoctorJsonSchemaVersion = 2;

struct DoctorReport {
  const Snapshot* snapshot = nullptr;
  std::vector<Finding> findings;  // as run_rules returns them
  std::vector<Verdict> verdicts;
  int exit_code = 0;
};

enum class LayerStatus { kOk, kWarning, kBlocked, kUnknown };
const char* to_string(LayerStatus s);  // "ok", "warning", "blocked", "unknown"

struct LayerSummary {
  Layer layer = Layer::kHardware;
  LayerStatus status = LayerStatus::kUnknown;
  std::vector<std::string> facts;  // the key facts, one line each
};

// The four layers in order: hardware, driver, runtime, framework. With `verdicts`, the
// marks agree with them: when no environment has TensorFlow the framework layer is not ✓.
std::vector<LayerSummary> summarize_layers(const Snapshot& s, const std::vector<Finding>& findings,
                                           const std::vector<Verdict>* verdicts = nullptr);

enum class Color { kOff, kOn };
// `ascii`: the terminal's locale is not UTF-8: status marks as [ok] [x] [!] [i].
std::string render_doctor_text(const DoctorReport& r, Color color, bool ascii = false);
nlohmann::json doctor_to_json(const DoctorReport& r);
// Redacted (report/markdown.h): `redactor` adds this machine's user and host names.
std::string render_doctor_markdown(const DoctorReport& r, const report::Redactor& redactor = {});

// Replaces user names in home paths (/home/<user>, /Users/<user>, C:\Users\<user>) and
// GPU/MIG UUIDs with placeholders (report::Redactor without names).
std::string redact(std::string_view text);

}  // namespace tfgpu

namespace tfgpu {

// Rules + verdicts over a Snapshot: the doctor's whole judgement, ready to render.
DoctorReport diagnose(const Snapshot& s, const kb::KnowledgeBase& kb);

// `--lock`: the drift of the report's snapshot from a lock (plan::check_lock) appended
// to its findings; a blocker among them makes the exit code 1. doctor and fleet alike.
void add_lock_findings(DoctorReport& r, const plan::Lock& lock);

}  // namespace tfgpu
