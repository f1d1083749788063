#include "support/report_cases.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "util/strings.h"

namespace tfgpu::testing {

namespace fs = std::filesystem;

std::optional<ReportCase> read_report_case(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t first = text.find("---");
  size_t second = text.find("\n---", first + 3);
  if (first != 0 || second == std::string::npos) return std::nullopt;
  std::string header = text.substr(0, second);
  size_t body_at = text.find('\n', second + 4);
  ReportCase c;
  c.name = p.filename().string();
  c.id = p.stem().string();
  c.body = body_at == std::string::npos ? "" : text.substr(body_at + 1);
  size_t cause = header.find("\ncause:");
  if (cause == std::string::npos) return std::nullopt;
  size_t eol = header.find('\n', cause + 1);
  c.cause = std::string(trim(header.substr(cause + 7, eol - cause - 7)));
  return c;
}

std::vector<ReportCase> read_report_cases(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<ReportCase> out;
  for (const auto& p : files)
    if (auto c = read_report_case(p)) out.push_back(std::move(*c));
  return out;
}

}  // namespace tfgpu::testing
