// Aho-Corasick construction (Aho & Corasick 1975): a trie of the literals, failure
// links by breadth-first search, then a full transition table (goto + failure folded
// together) so that matching is one table lookup per byte. The byte alphabet is
// compressed to the classes that occur in literals (everything else is class 0), which
// keeps the table small for a few hundred literals.
#include "explain/literal_matcher.h"

#include <array>
#include <deque>

namespace tfgpu::explain {

namespace {
unsigned char fold(unsigned char c) { return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + 32) : c; }
}  // namespace

LiteralMatcher::LiteralMatcher(const std::vector<std::string>& literals) : literal_count_(literals.size()) {
  // Alphabet classes: one per distinct (folded) byte used by a literal.
  uint32_t next_class = 1;
  std::array<uint32_t, 256> by_byte{};
  for (const auto& lit : literals)
    for (unsigned char c : lit) {
      unsigned char f = fold(c);
      if (!by_byte[f]) by_byte[f] = next_class++;
    }
  for (int b = 0; b < 256; ++b) klass_[b] = by_byte[fold(static_cast<unsigned char>(b))];
  alphabet_size_ = next_class;

  // Trie; 0 = no edge (the root is never a child).
  std::vector<uint32_t> trie(alphabet_size_, 0);
  std::vector<std::vector<uint32_t>> own_out(1);
  auto new_state = [&]() {
    trie.resize(trie.size() + alphabet_size_, 0);
    own_out.emplace_back();
    return static_cast<uint32_t>(own_out.size() - 1);
  };
  for (uint32_t id = 0; id < literals.size(); ++id) {
    const auto& lit = literals[id];
    if (lit.empty()) continue;
    uint32_t s = 0;
    for (unsigned char c : lit) {
      uint32_t k = klass_[c];
      uint32_t& edge = trie[static_cast<size_t>(s) * alphabet_size_ + k];
      if (!edge) {
        uint32_t fresh = new_state();  // may reallocate `trie`: re-index below
        trie[static_cast<size_t>(s) * alphabet_size_ + k] = fresh;
        s = fresh;
      } else {
        s = edge;
      }
    }
    own_out[s].push_back(id);
  }
  const size_t states = own_out.size();

  // BFS: failure links and the full transition table.
  delta_.assign(states * alphabet_size_, 0);
  std::vector<uint32_t> fail_link(states, 0);
  std::vector<std::vector<uint32_t>> outs(states);
  std::deque<uint32_t> queue;
  for (uint32_t k = 0; k < alphabet_size_; ++k) {
    uint32_t child = trie[k];
    delta_[k] = child;  // 0 when no edge: stay at the root
    if (child) {
      fail_link[child] = 0;
      queue.push_back(child);
    }
  }
  outs[0] = own_out[0];
  while (!queue.empty()) {
    uint32_t s = queue.front();
    queue.pop_front();
    outs[s] = own_out[s];
    const auto& inherited = outs[fail_link[s]];
    outs[s].insert(outs[s].end(), inherited.begin(), inherited.end());
    for (uint32_t k = 0; k < alphabet_size_; ++k) {
      uint32_t child = trie[static_cast<size_t>(s) * alphabet_size_ + k];
      uint32_t via_fail = delta_[static_cast<size_t>(fail_link[s]) * alphabet_size_ + k];
      if (child) {
        fail_link[child] = via_fail;
        delta_[static_cast<size_t>(s) * alphabet_size_ + k] = child;
        queue.push_back(child);
      } else {
        delta_[static_cast<size_t>(s) * alphabet_size_ + k] = via_fail;
      }
    }
  }
  // Class 0 (bytes in no literal) always returns to the root: nothing can continue.
  for (auto& next : delta_)
    if (!outs[next].empty()) next |= kHasOutput;
  out_begin_.assign(states + 1, 0);
  for (size_t s = 0; s < states; ++s) out_begin_[s + 1] = out_begin_[s] + static_cast<uint32_t>(outs[s].size());
  out_.reserve(out_begin_[states]);
  for (size_t s = 0; s < states; ++s) out_.insert(out_.end(), outs[s].begin(), outs[s].end());
}

}  // namespace tfgpu::explain
