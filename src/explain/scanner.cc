// The streaming pass of explain (see scanner.h). Per byte: one automaton step. Per
// line: work proportional to the literals it contained, plus the extractors its
// keywords selected, each bounded by the prefix cap.
#include "explain/scanner.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

#include "util/strings.h"

namespace tfgpu::explain {

namespace {

enum class RoleKind : uint8_t { kAll, kAny, kNone, kExtractor };

struct Role {
  uint32_t target;  // signature index, or Extractor value
  RoleKind kind;
};

// A pattern literal written `\bword\b` matches only where the byte before (after) it is
// not a word byte [A-Za-z0-9_] (or the line starts / ends): "osx" must not match
// "macosx", "imac" must not match "imacros".
struct Bounded {
  std::string text;
  bool left = false;
  bool right = false;
};
Bounded parse_bounded(std::string_view lit) {
  Bounded b;
  if (lit.size() > 2 && lit.substr(0, 2) == "\\b") {
    b.left = true;
    lit.remove_prefix(2);
  }
  if (lit.size() > 2 && lit.substr(lit.size() - 2) == "\\b") {
    b.right = true;
    lit.remove_suffix(2);
  }
  b.text = std::string(lit);
  return b;
}

bool word_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  while (i < s.size()) {
    unsigned char c = b[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0) return false;
    if (i + len > s.size()) return true;  // cut by the prefix cap: not the input's fault
    for (size_t k = 1; k < len; ++k)
      if ((b[i + k] >> 6) != 0x2) return false;
    i += len;
  }
  return true;
}

}  // namespace

struct Scanner::Impl {
  const SignatureSet& set;
  std::vector<std::string> literals;      // distinct, lower-case (as written, `\b` marks kept)
  std::vector<std::string> match_text;    // what the automaton looks for (marks removed)
  std::vector<uint8_t> bound;             // per literal: 1 = left word boundary, 2 = right
  std::vector<std::string> sig_literals;  // those used by signature all/any lists
  std::vector<std::vector<Role>> roles;   // per literal id
  std::vector<uint32_t> all_needed;       // per signature: distinct `all` literals
  std::unique_ptr<LiteralMatcher> matcher;

  // Current line.
  LiteralMatcher::State state = LiteralMatcher::kStart;
  std::string prefix;
  std::string tail;  // last bytes of a line longer than the prefix cap (for its excerpt)
  std::string carry;  // the end of a prose line that ends with a version keyword (bridge_wrapped_prose)
  int carry_line = 0;
  uint64_t line_len = 0;
  uint64_t line_no = 1;
  bool line_open = false;
  std::vector<uint64_t> lit_stamp;
  std::vector<uint32_t> line_lits;
  // Bounded literals: the bytes just before the current chunk (for a left edge that lies
  // in an earlier chunk) and the occurrences whose right edge is the chunk's last byte
  // (decided by the next byte of the line, or passed at its end).
  std::string hist;
  std::vector<uint32_t> pending_right;
  static constexpr size_t kHist = 256;
  static constexpr size_t kPendingCap = 256;

  // Per-signature counters for the current line.
  std::vector<uint64_t> sig_stamp;
  std::vector<uint32_t> sig_all;
  std::vector<uint8_t> sig_any, sig_none;
  std::vector<uint32_t> line_sigs;
  std::vector<uint32_t> kept;  // hits kept per signature
  std::vector<uint64_t> counts;  // lines matched per signature
  std::string lower;             // the current line's prefix, lower-case (for extractors)

  ScanResult result;

  explicit Impl(const SignatureSet& s) : set(s) {
    std::unordered_map<std::string, uint32_t> ids;
    auto intern = [&](const std::string& lit) {
      auto [it, fresh] = ids.emplace(lit, static_cast<uint32_t>(literals.size()));
      if (fresh) {
        literals.push_back(lit);
        Bounded b = parse_bounded(lit);
        match_text.push_back(b.text);
        bound.push_back(static_cast<uint8_t>((b.left ? 1 : 0) | (b.right ? 2 : 0)));
        roles.emplace_back();
      }
      return it->second;
    };
    auto sigs = set.signatures();
    all_needed.assign(sigs.size(), 0);
    for (uint32_t i = 0; i < sigs.size(); ++i) {
      auto add = [&](const std::vector<std::string>& list, RoleKind kind) {
        std::vector<uint32_t> seen;
        for (const auto& lit : list) {
          uint32_t id = intern(lit);
          if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
          seen.push_back(id);
          roles[id].push_back({i, kind});
          if (kind == RoleKind::kAll) ++all_needed[i];
        }
      };
      add(sigs[i].patterns.all, RoleKind::kAll);
      add(sigs[i].patterns.any, RoleKind::kAny);
      add(sigs[i].patterns.none, RoleKind::kNone);
    }
    for (size_t id = 0; id < literals.size(); ++id) {
      bool used = std::any_of(roles[id].begin(), roles[id].end(), [](const Role& r) { return r.kind != RoleKind::kNone; });
      if (used) sig_literals.push_back(match_text[id]);
    }
    for (const auto& ek : extractor_keywords())
      for (const auto& kw : ek.keywords) roles[intern(kw)].push_back({static_cast<uint32_t>(ek.which), RoleKind::kExtractor});
    matcher = std::make_unique<LiteralMatcher>(match_text);
    lit_stamp.assign(literals.size(), 0);
    sig_stamp.assign(sigs.size(), 0);
    sig_all.assign(sigs.size(), 0);
    sig_any.assign(sigs.size(), 0);
    sig_none.assign(sigs.size(), 0);
    kept.assign(sigs.size(), 0);
    counts.assign(sigs.size(), 0);
    prefix.reserve(kLinePrefixCap);
  }

  void bytes(std::string_view part) {
    line_open = true;
    line_len += part.size();
    if (prefix.size() < kLinePrefixCap) prefix.append(part.substr(0, kLinePrefixCap - prefix.size()));
    if (line_len > kLinePrefixCap) {
      constexpr size_t kTail = kExcerptCap / 2;
      if (part.size() >= kTail) {
        tail.assign(part.substr(part.size() - kTail));
      } else {
        tail.append(part);
        if (tail.size() > kTail) tail.erase(0, tail.size() - kTail);
      }
    }
    const uint64_t stamp = line_no;
    const uint64_t base = line_len - part.size();
    if (!pending_right.empty() && !part.empty()) {
      if (!word_byte(part[0]))
        for (uint32_t id : pending_right) hit(id, stamp);
      pending_right.clear();
    }
    state = matcher->feed(state, part, [&](uint32_t id, size_t end) {
      if (bound[id] && !at_word_edges(id, part, base, end)) return;
      hit(id, stamp);
    });
    if (part.size() >= kHist) {
      hist.assign(part.substr(part.size() - kHist));
    } else {
      hist.append(part);
      if (hist.size() > kHist) hist.erase(0, hist.size() - kHist);
    }
  }

  void hit(uint32_t id, uint64_t stamp) {
    if (lit_stamp[id] != stamp) {
      lit_stamp[id] = stamp;
      line_lits.push_back(id);
    }
  }

  // Bounded literal `id` ends at `end` in `part` (which starts at line offset `base`):
  // is it a whole word at its bounded edges? A left edge before the kept history counts
  // as a boundary; a right edge at the chunk's end waits for the next byte.
  bool at_word_edges(uint32_t id, std::string_view part, uint64_t base, size_t end) {
    if (bound[id] & 1) {
      const uint64_t start = base + end - match_text[id].size();  // line offset of the match
      if (start > 0) {
        const uint64_t before = start - 1;
        if (before >= base) {
          if (word_byte(part[before - base])) return false;
        } else if (base - before <= hist.size()) {
          if (word_byte(hist[hist.size() - (base - before)])) return false;
        }
      }
    }
    if (bound[id] & 2) {
      if (end < part.size()) return !word_byte(part[end]);
      if (pending_right.size() < kPendingCap) pending_right.push_back(id);
      return false;
    }
    return true;
  }

  // Prose hard-wrapped between a keyword and its version ("... with the latest pip and
  // Python\n3.5.1."), as mail clients, terminals and condensed reports wrap it: the end of
  // the previous line and the start of this one are read together by the version
  // extractors, as the previous line (a fact already read stays as it was).
  void bridge_wrapped_prose() {
    if (!carry.empty()) {
      size_t i = 0;
      while (i < prefix.size() && (prefix[i] == ' ' || prefix[i] == '\t')) ++i;
      if (i < prefix.size() && prefix[i] >= '0' && prefix[i] <= '9') {
        std::string joined = carry + " " + prefix.substr(i, 24);
        const std::string joined_lower = to_lower(joined);
        for (Extractor e : {Extractor::kTensorflow, Extractor::kPython, Extractor::kCuda, Extractor::kCudnn,
                            Extractor::kDriver})
          run_extractor(e, joined, joined_lower, carry_line, result.facts);
      }
      carry.clear();
    }
    // This line ends with a keyword whose version may be on the next line.
    size_t end = prefix.size();
    while (end > 0 && (prefix[end - 1] == ' ' || prefix[end - 1] == '\t' || prefix[end - 1] == ':')) --end;
    size_t start = end;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(prefix[start - 1]))) --start;
    if (start == end || end - start > 10) return;
    const std::string word = to_lower(std::string_view(prefix).substr(start, end - start));
    static constexpr std::string_view kKeywords[] = {"python", "tensorflow", "tf", "cuda", "cudnn", "driver", "version"};
    if (std::find(std::begin(kKeywords), std::end(kKeywords), word) == std::end(kKeywords)) return;
    size_t from = start > 40 ? start - 40 : 0;
    carry = prefix.substr(from, end - from);
    carry_line = static_cast<int>(std::min<uint64_t>(line_no, INT32_MAX));
  }

  void end_line() {
    auto& stats = result.stats;
    ++stats.lines;
    stats.longest_line = std::max(stats.longest_line, line_len);
    if (line_len > kLinePrefixCap) ++stats.long_lines;
    for (uint32_t id : pending_right) hit(id, line_no);  // the line ends after them
    pending_right.clear();
    if (!prefix.empty() && prefix.back() == '\r') prefix.pop_back();
    if (!stats.has_nul && std::memchr(prefix.data(), 0, prefix.size()) != nullptr) stats.has_nul = true;

    if (result.facts.asked.line > 0 && static_cast<uint64_t>(result.facts.asked.line) + 1 == line_no)
      read_answer(prefix, static_cast<int>(line_no), result.facts);
    if (!line_lits.empty()) {
      const int line = static_cast<int>(std::min<uint64_t>(line_no, INT32_MAX));
      uint32_t extractor_mask = 0;
      for (uint32_t id : line_lits) {
        for (const Role& r : roles[id]) {
          if (r.kind == RoleKind::kExtractor) {
            extractor_mask |= 1u << r.target;
            continue;
          }
          const uint32_t s = r.target;
          if (sig_stamp[s] != line_no) {
            sig_stamp[s] = line_no;
            sig_all[s] = 0;
            sig_any[s] = 0;
            sig_none[s] = 0;
            line_sigs.push_back(s);
          }
          if (r.kind == RoleKind::kAll) ++sig_all[s];
          else if (r.kind == RoleKind::kAny) sig_any[s] = 1;
          else sig_none[s] = 1;
        }
      }
      std::sort(line_sigs.begin(), line_sigs.end());
      auto sigs = set.signatures();
      bool any_hit = false;
      for (uint32_t s : line_sigs) {
        const Signature& sig = sigs[s];
        bool ok = sig_all[s] == all_needed[s] && (sig.patterns.any.empty() || sig_any[s]) && !sig_none[s];
        if (!ok) continue;
        any_hit = true;
        ++counts[s];
        if (kept[s] < kHitsKeptPerSignature) {
          ++kept[s];
          // A huge line: its start and its end (where a message usually is).
          std::string excerpt = line_len > kLinePrefixCap
                                    ? prefix.substr(0, kExcerptCap / 2 - 8) + " [...] " + tail
                                    : prefix.substr(0, kExcerptCap);
          result.hits.push_back({&sig, line, std::move(excerpt)});
        }
        for (const auto& [key, value] : sig.sets) {
          if (key == "os") {
            if (result.facts.os_votes[value]++ == 0) result.facts.os_first_line[value] = line;
          } else if (result.facts.flags.find(key) == result.facts.flags.end()) {
            result.facts.flags.emplace(key, Fact{value, line});
          }
        }
      }
      if (any_hit && !stats.invalid_utf8 && !valid_utf8(prefix)) stats.invalid_utf8 = true;
      if (extractor_mask) {
        lower.assign(prefix);
        for (char& c : lower)
          if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
        for (uint32_t e = 0; e < static_cast<uint32_t>(Extractor::kCount); ++e)
          if (extractor_mask & (1u << e)) run_extractor(static_cast<Extractor>(e), prefix, lower, line, result.facts);
      }
    }

    bridge_wrapped_prose();

    line_lits.clear();
    line_sigs.clear();
    prefix.clear();
    tail.clear();
    hist.clear();
    line_len = 0;
    line_open = false;
    state = LiteralMatcher::kStart;
    ++line_no;
  }

  void feed(std::string_view chunk) {
    result.stats.bytes += chunk.size();
    while (!chunk.empty()) {
      const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
      if (!nl) {
        bytes(chunk);
        return;
      }
      size_t len = static_cast<const char*>(nl) - chunk.data();
      bytes(chunk.substr(0, len));
      end_line();
      chunk.remove_prefix(len + 1);
    }
  }
};

Scanner::Scanner(const SignatureSet& signatures) : impl_(std::make_unique<Impl>(signatures)) {}
Scanner::~Scanner() = default;

void Scanner::feed(std::string_view chunk) { impl_->feed(chunk); }

ScanResult Scanner::finish() {
  if (impl_->line_open) impl_->end_line();
  auto sigs = impl_->set.signatures();
  for (size_t i = 0; i < sigs.size(); ++i)
    if (impl_->counts[i]) impl_->result.hit_counts[sigs[i].id] = impl_->counts[i];
  std::fill(impl_->counts.begin(), impl_->counts.end(), 0);
  ScanResult out = std::move(impl_->result);
  out.facts.decide_platform();
  impl_->result = ScanResult{};
  return out;
}

const std::vector<std::string>& Scanner::signature_literals() const { return impl_->sig_literals; }

ScanResult scan_stream(const SignatureSet& signatures, std::istream& in) {
  Scanner scanner(signatures);
  std::vector<char> buf(1u << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::streamsize got = in.gcount();
    if (got <= 0) break;
    scanner.feed(std::string_view(buf.data(), static_cast<size_t>(got)));
  }
  return scanner.finish();
}

ScanResult scan_text(const SignatureSet& signatures, std::string_view text) {
  Scanner scanner(signatures);
  scanner.feed(text);
  return scanner.finish();
}

bool line_matches(const SignatureSet& signatures, const Signature& signature, std::string_view line) {
  ScanResult r = scan_text(signatures, line);
  return r.hit_counts.count(signature.id) > 0;
}

}  // namespace tfgpu::explain
