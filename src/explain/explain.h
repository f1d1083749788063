#pragma once
// `tfgpu explain`: reads a TensorFlow log, traceback, pip error or bug report in one
// streaming pass and says what the root cause most likely is, with the evidence lines
// and the fix, plus the lines it recognised as harmless. Findings use the same ids as
// the doctor rules (shared/cases/README.md).
//
// For `tfgpu doctor --log FILE`: call explain_log() with the doctor's KB and pass
// its own rule runner in ExplainOptions::rules; the returned findings merge both.

#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "explain/log_facts.h"
#include "explain/scanner.h"
#include "explain/signatures.h"
#include "kb/kb.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace tfgpu::explain {

// A recognised harmless line (one entry per signature: its first line and how many).
struct NoiseLine {
  std::string signature;  // signature id
  int line = 0;           // first line it was seen on
  uint64_t count = 0;     // lines it matched in all
  std::string text;       // the first line (raw bytes; renderers sanitise)
  std::string why;        // why it is harmless
};

// Runs the doctor rules over a (partial) snapshot. Optional: explain works without it.
using RuleRunner = std::function<std::vector<Finding>(const Snapshot&, const kb::KnowledgeBase&)>;

// Steps naming exact versions for a finding, put before its generic fix (the CLI builds
// them from the KB and packaging rows; see cli/explain_fix.h). Optional.
using SpecificFix = std::function<std::vector<std::string>(const Finding&, const LogFacts&)>;

struct ExplainOptions {
  RuleRunner rules;          // e.g. doctor's run_rules; its findings are merged as extra evidence
  SpecificFix specific_fix;  // version-specific fix steps
};

// Below this likelihood the top finding is a guess (the corpus test prints how often such
// guesses are right): explain then lists the checks that tell the candidates apart.
inline constexpr double kSureFrom = 0.5;
inline constexpr size_t kCheckedFindings = 3;

// One command to run on the machine, and what each answer means (which finding it points at).
struct Check {
  struct Answer {
    std::string finding;
    std::string means;
  };
  std::string run;
  std::vector<Answer> answers;
};

struct ExplainResult {
  std::vector<Finding> findings;  // most likely root cause first (Finding::score)
  // When no finding reaches kSureFrom: the commands that tell the listed ones apart.
  std::vector<Check> checks;
  std::vector<NoiseLine> noise;   // harmless lines, in line order
  LogFacts facts;                 // what the log says about the machine
  bool crash = false;             // a traceback, F-level line, abort, segfault or Windows crash status
  Snapshot snapshot;              // the same as a partial Snapshot (origin "log")
  InputStats stats;
};

// Streams `in` to the end. `kb` supplies the version facts (which CUDA a TF release
// loads, which Python it supports, ...); nullptr = signatures only.
ExplainResult explain_log(std::istream& in, const SignatureSet& signatures, const kb::KnowledgeBase* kb,
                          const ExplainOptions& options = {});
ExplainResult explain_text(std::string_view text, const SignatureSet& signatures, const kb::KnowledgeBase* kb,
                           const ExplainOptions& options = {});
// The ranking step alone, over a finished scan.
ExplainResult explain_scan(ScanResult scan, const SignatureSet& signatures, const kb::KnowledgeBase* kb,
                           const ExplainOptions& options = {});

}  // namespace tfgpu::explain
