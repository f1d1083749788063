#pragma once
// The doctor's rules: small pure functions (Snapshot, KB) -> Findings, one concern
// each, listed in one table (rules.cc). The table order is the order of
// fundamentality: when several blockers stop TensorFlow, the verdict names them in
// table order ("TF 2.12 on native Windows is CPU-only" before "cudnn64_8.dll missing").
//
// Rules never conclude from facts that were not probed: a partial Snapshot (from a
// log, ProbeStatus::kNotProbed everywhere it knows nothing) yields only what its
// facts support.

#include <span>
#include <string>
#include <vector>

#include "kb/kb.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace tfgpu {

using RuleFn = std::vector<Finding> (*)(const Snapshot&, const kb::KnowledgeBase&);

struct RuleSpec {
  const char* name;                  // "driver_version"
  const char* concern;               // one line: what the rule checks
  std::vector<const char*> ids;      // the finding ids it may emit
  RuleFn run;
};

// The rule table, most fundamental concern first.
std::span<const RuleSpec> rule_table();

// Runs every rule; findings come back sorted: blockers first, then warnings, then
// info; within a severity in table order.
std::vector<Finding> run_rules(const Snapshot& s, const kb::KnowledgeBase& kb);

// Position of a finding id in the table (for "most fundamental first"); ids not in
// the table sort last.
int fundamental_rank(std::string_view finding_id);

}  // namespace tfgpu
