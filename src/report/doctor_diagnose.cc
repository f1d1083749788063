#include <algorithm>

#include "report/doctor_report.h"
#include "util/error.h"
#include "rules/rules.h"
#include "rules/runtime_loads.h"

namespace tfgpu {

DoctorReport diagnose(const Snapshot& s, const kb::KnowledgeBase& kb) {
  DoctorReport r;
  r.snapshot = &s;
  // One loader simulation per environment for the rules and the verdicts alike.
  rules::LoaderScope loads(s, kb);
  r.findings = run_rules(s, kb);
  r.verdicts = build_verdicts(s, kb, r.findings);
  r.exit_code = doctor_exit_code(r.findings);
  return r;
}

void add_lock_findings(DoctorReport& r, const plan::Lock& lock) {
  for (auto& f : plan::check_lock(lock, *r.snapshot)) {
    if (f.severity == Severity::kBlocker) r.exit_code = std::max(r.exit_code, static_cast<int>(kExitProblems));
    r.findings.push_back(std::move(f));
  }
}

}  // namespace tfgpu
