#pragma once
// One streaming pass over a log: every line goes through one Aho-Corasick automaton
// holding all signature literals and all extractor keywords; signatures are decided
// per line from the literals it contained, extractors run on the lines that had their
// keywords. Memory is bounded whatever the input: a line is matched as it streams in,
// and only its first kLinePrefixCap bytes are kept (for extractors and evidence).

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "explain/extract.h"
#include "explain/literal_matcher.h"
#include "explain/log_facts.h"
#include "explain/signatures.h"

namespace tfgpu::explain {

inline constexpr size_t kLinePrefixCap = 4096;   // bytes of a line kept for extractors
inline constexpr size_t kExcerptCap = 300;       // bytes of a line kept as evidence
inline constexpr size_t kHitsKeptPerSignature = 20;

// One line a signature matched.
struct SignatureHit {
  const Signature* signature = nullptr;
  int line = 0;
  std::string excerpt;  // the line's start, raw bytes (sanitise before printing)
};

struct InputStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t longest_line = 0;
  uint64_t long_lines = 0;  // lines longer than kLinePrefixCap (matched fully, extracted from the prefix)
  bool has_nul = false;     // NUL bytes seen: binary input
  bool invalid_utf8 = false;
};

struct ScanResult {
  std::vector<SignatureHit> hits;       // in line order, at most kHitsKeptPerSignature per signature
  std::map<std::string, uint64_t> hit_counts;  // signature id -> lines matched (all of them)
  LogFacts facts;
  InputStats stats;
};

class Scanner {
 public:
  explicit Scanner(const SignatureSet& signatures);
  ~Scanner();
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;

  // Feeds the next bytes of the input (any split, including mid-line).
  void feed(std::string_view chunk);
  // Ends the input (a last line without '\n' counts) and returns what was found.
  ScanResult finish();

  // The distinct literals of every signature (for the grep comparison benchmark).
  const std::vector<std::string>& signature_literals() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads `in` to the end in fixed-size blocks through a Scanner.
ScanResult scan_stream(const SignatureSet& signatures, std::istream& in);
ScanResult scan_text(const SignatureSet& signatures, std::string_view text);

// Whether one line (alone) matches a signature: the rule signatures.toml examples obey.
bool line_matches(const SignatureSet& signatures, const Signature& signature, std::string_view line);

}  // namespace tfgpu::explain
