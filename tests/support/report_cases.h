#pragma once
// Real failure reports in the shared/cases format (shared/cases/dev, tests/explain_corpus):
// a header between the first two "---" lines whose `cause:` is the answer, then the body
// that explain is fed.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tfgpu::testing {

struct ReportCase {
  std::string name;   // file name
  std::string id;     // file stem
  std::string cause;  // the labelled root cause
  std::string body;   // what the reporter wrote (never the header)
};

std::optional<ReportCase> read_report_case(const std::filesystem::path& p);
// Every *.md under `dir` (sorted by name) that has a header with `cause:`.
std::vector<ReportCase> read_report_cases(const std::filesystem::path& dir);

}  // namespace tfgpu::testing
