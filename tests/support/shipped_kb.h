#pragma once
// The knowledge base and explain signatures as shipped (kb/*.toml embedded in the binary),
// loaded once per test binary. A KB that does not load stops the test binary with its error
// (every test that reads it would fail anyway).
#include <cstdio>
#include <cstdlib>

#include "explain/signatures.h"
#include "kb/embedded.h"
#include "kb/kb.h"

namespace tfgpu::testing {

template <typename T>
T loaded_or_abort(Result<T> r, const char* what) {
  if (!r) {
    std::fprintf(stderr, "the shipped %s does not load: %s\n", what, r.error().message.c_str());
    std::abort();
  }
  return std::move(*r);
}

inline const explain::SignatureSet& shipped_signatures() {
  static const explain::SignatureSet set =
      loaded_or_abort(explain::load_signatures(embedded_kb_files()), "explain signatures");
  return set;
}

inline const kb::KnowledgeBase& shipped_kb() {
  static const kb::KnowledgeBase k = loaded_or_abort(kb::load_embedded(), "knowledge base");
  return k;
}

}  // namespace tfgpu::testing
