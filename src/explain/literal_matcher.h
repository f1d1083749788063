#pragma once
// Aho-Corasick automaton over a set of literals, folding ASCII case: finds every
// occurrence of every literal in one left-to-right pass, in time linear in the input
// (no backtracking, whatever the input). Streaming: the state carries across calls,
// so a line of any length can be fed in chunks.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfgpu::explain {

class LiteralMatcher {
 public:
  // Literals may repeat; ids are their indexes in `literals`. Empty literals never match.
  explicit LiteralMatcher(const std::vector<std::string>& literals);

  using State = uint32_t;
  static constexpr State kStart = 0;

  // Feeds bytes from `state`; calls on_match(literal_id, end_offset) for each occurrence,
  // end_offset = offset in `text` just past the match's last byte (may be <= the match
  // length when the match began in an earlier chunk). Returns the new state.
  template <typename OnMatch>
  State feed(State state, std::string_view text, OnMatch&& on_match) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    const uint32_t width = alphabet_size_;
    const uint32_t* delta = delta_.data();
    // Table entries carry kHasOutput on states that end a literal, so the common case
    // (no match) is one lookup per byte.
    uint32_t s = state;
    for (size_t i = 0; i < n; ++i) {
      s = delta[static_cast<size_t>(s & kStateMask) * width + klass_[bytes[i]]];
      if (s & kHasOutput) {
        const uint32_t id = s & kStateMask;
        for (uint32_t k = out_begin_[id]; k < out_begin_[id + 1]; ++k) on_match(out_[k], i + 1);
      }
    }
    return s & kStateMask;
  }

  size_t literal_count() const { return literal_count_; }
  size_t state_count() const { return out_begin_.size() - 1; }

 private:
  static constexpr uint32_t kHasOutput = 0x80000000u;
  static constexpr uint32_t kStateMask = 0x7fffffffu;
  uint32_t klass_[256] = {};  // byte -> alphabet class (0 = byte in no literal)
  uint32_t alphabet_size_ = 1;
  std::vector<uint32_t> delta_;      // state * alphabet_size + class -> next state
  std::vector<uint32_t> out_begin_;  // outputs of state s: out_[out_begin_[s] .. out_begin_[s+1])
  std::vector<uint32_t> out_;        // literal ids (own and via suffix links)
  size_t literal_count_ = 0;
};

}  // namespace tfgpu::explain
