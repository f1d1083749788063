#pragma once
// Renderers for `tfgpu explain`: text (terminal), JSON (docs/explain-json.md) and
// Markdown (paste into a bug report). Pure functions of an ExplainResult. Log text is
// untrusted bytes: every renderer sanitises it (invalid UTF-8 -> U+FFFD, control
// characters -> '?'), so binary input never breaks a terminal or the JSON.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "explain/explain.h"
#include "report/markdown.h"

namespace tfgpu::report {

// 2: findings[].fix is a list of step objects, evidence[].citation (docs/explain-json.md).
inline constexpr int kExplainJsonSchema = 2;

// Valid UTF-8, no control characters except tab, at most max_bytes (cut at a character).
std::string sanitize_log_text(std::string_view raw, size_t max_bytes = 240);

struct ExplainTextOptions {
  bool color = false;
  size_t max_findings = 5;  // the rest are summarised in one line
};

std::string render_explain_text(const explain::ExplainResult& r, const ExplainTextOptions& options = {});
nlohmann::json explain_to_json(const explain::ExplainResult& r);
std::string render_explain_json(const explain::ExplainResult& r);
// Redacted (report/markdown.h); log lines and fixes are code spans.
std::string render_explain_markdown(const explain::ExplainResult& r, const Redactor& redactor = {});

}  // namespace tfgpu::report
