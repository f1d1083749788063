#pragma once
// Log signatures and finding texts for `tfgpu explain`, read from kb/signatures.toml:
// what a recognisable log line means, which finding it supports or refutes, and the
// fix for each finding. Data only; matching lives in scanner.h.

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.h"
#include "kb/embedded.h"
#include "rules/finding.h"
#include "util/error.h"

namespace tfgpu::explain {

enum class SignatureKind {
  kCause,    // names a root cause
  kSymptom,  // a consequence several causes share
  kNoise,    // harmless; shown in the noise list
  kFact,     // a fact about the machine, not a problem
};
const char* to_string(SignatureKind k);

// A weighted link from a signature to a finding it argues for or against.
struct FindingLink {
  std::string finding;
  double weight = 0.0;
};

// Literals are stored lower-case; matching folds ASCII case.
struct Patterns {
  std::vector<std::string> all;   // every one must occur in the line
  std::vector<std::string> any;   // at least one (when non-empty)
  std::vector<std::string> none;  // none may occur
};

struct Signature {
  std::string id;
  SignatureKind kind = SignatureKind::kNoise;
  std::string finding;  // finding it supports ("" for noise / facts)
  double weight = 0.0;
  Severity severity = Severity::kInfo;
  Patterns patterns;
  std::string meaning;
  std::vector<FindingLink> supports;  // further findings, with their own weights
  std::vector<FindingLink> refutes;   // weight = how much to take away (1 when not given)
  std::map<std::string, std::string> sets;  // facts for the partial snapshot
  bool noise_without_gpu = false;  // harmless when nothing says a GPU is wanted
  std::string noise_unless;        // a noise line that is not harmless when this flag is set
  std::vector<std::string> examples;
  std::vector<std::string> counter_examples;
  std::vector<std::string> source;
};

// What to say about a finding: title and fix, per platform where they differ.
struct FindingInfo {
  std::string id;
  Layer layer = Layer::kFramework;
  Severity severity = Severity::kBlocker;
  std::string title;
  std::vector<std::string> fix;
  std::map<std::string, std::vector<std::string>> fix_for;  // "linux" / "windows" / "macos"
  // What to run on the machine to confirm or rule this finding out, and which answer means
  // it (listed when explain is not sure; several findings may share one command).
  std::string check_run, check_means;
  std::map<std::string, std::pair<std::string, std::string>> check_for;  // "windows": {run, means}
  std::vector<std::string> source;
  // Where the cause can happen at all ("windows", "linux", "macos"; empty: anywhere): a
  // report from another platform rules it out (the MSVC runtime on Linux).
  std::vector<std::string> platforms;

  // The fix for a platform ("" = unknown): its own steps if given, else the generic ones.
  const std::vector<std::string>& fix_on(std::string_view os) const;
  // The check for a platform: its own if given, else the generic one ({"", ""} = none).
  std::pair<std::string, std::string> check_on(std::string_view os) const;
};

class SignatureSet {
 public:
  std::span<const Signature> signatures() const { return signatures_; }
  std::span<const FindingInfo> findings() const { return findings_; }
  const FindingInfo* finding(std::string_view id) const;
  const Signature* signature(std::string_view id) const;

 private:
  friend Result<SignatureSet> parse_signatures(std::string_view, std::string_view);
  std::vector<Signature> signatures_;
  std::vector<FindingInfo> findings_;
};

// Parses signatures.toml text. Malformed TOML, an unknown kind / layer / severity, a
// signature without literals, a cause without a known finding, or a duplicate id is a
// kInput error naming the file and the row.
Result<SignatureSet> parse_signatures(std::string_view toml_text, std::string_view file_name);

// signatures.toml from the embedded KB, or from DIR when kb_dir is non-empty (`--kb`).
Result<SignatureSet> load_signatures(const Host& host, const std::string& kb_dir);
// signatures.toml out of a list of named KB texts (the embedded copy, or a test's).
Result<SignatureSet> load_signatures(std::span<const EmbeddedFile> files);

}  // namespace tfgpu::explain
