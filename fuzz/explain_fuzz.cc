// libFuzzer target for explain's extractor and scanner: any bytes, split at a
// fuzzer-chosen point (so chunk boundaries are exercised), must scan, rank and render
// without crashing, and the JSON must stay valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "explain/explain.h"
#include "kb/kb.h"
#include "report/explain_report.h"

namespace {
const tfgpu::explain::SignatureSet& sigs() {
  static const tfgpu::explain::SignatureSet set = *tfgpu::explain::load_signatures(tfgpu::embedded_kb_files());
  return set;
}
const tfgpu::kb::KnowledgeBase& kbase() {
  static const tfgpu::kb::KnowledgeBase k = *tfgpu::kb::load_embedded();
  return k;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t split = size ? data[0] % (size + 1) : 0;
  tfgpu::explain::Scanner scanner(sigs());
  scanner.feed(text.substr(0, split));
  scanner.feed(text.substr(split));
  auto result = tfgpu::explain::explain_scan(scanner.finish(), sigs(), &kbase());
  std::string json = tfgpu::report::render_explain_json(result);
  std::string txt = tfgpu::report::render_explain_text(result);
  if (json.empty() || txt.empty()) __builtin_trap();
  // Every extractor alone, on the raw bytes.
  tfgpu::explain::LogFacts facts;
  for (int e = 0; e < static_cast<int>(tfgpu::explain::Extractor::kCount); ++e)
    tfgpu::explain::run_extractor(static_cast<tfgpu::explain::Extractor>(e), text.substr(0, 4096), 1, facts);
  return 0;
}
