#pragma once
// The one JSON convention of every `--json` output, for the parts several reports share:
// fix steps as a structured list, and knowledge-base citations as objects
// (docs/doctor-json.md, docs/explain-json.md).

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tfgpu::report {

// A finding's fix (strings, sub-steps indented by two spaces) as
// [{"text": "...", "commands": ["code spans of the text"], "steps": [sub-steps]}];
// "commands" and "steps" appear only when not empty.
nlohmann::json fix_steps_json(const std::vector<std::string>& fix);

// An evidence source that cites the knowledge base ("kb: tensorflow 2.14.0 (https://...
// (tensorflow/docs:site/en/install/source.md@7c36...))", "[unverified]" at the end) as
// {"row", "url", "repo", "path", "commit", "note", "verified"}, the keys present where
// known; null for any other source.
nlohmann::json citation_json(std::string_view source);

}  // namespace tfgpu::report
