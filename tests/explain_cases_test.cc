// Real failure reports (shared/cases/dev): fed only the body, explain's top finding must
// be the labelled root cause. The reports are read at test time and never copied here;
// the test skips visibly when the folder is absent.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "explain/explain.h"
#include "kb/kb.h"
#include "util/strings.h"

namespace tfgpu::explain {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::string cause;
  std::string body;
};

// Header between the first two "---" lines; `cause:` is the answer; the body follows.
std::optional<Case> read_case(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t first = text.find("---");
  size_t second = text.find("\n---", first + 3);
  if (first != 0 || second == std::string::npos) return std::nullopt;
  std::string header = text.substr(0, second);
  size_t body_at = text.find('\n', second + 4);
  Case c;
  c.name = p.filename().string();
  c.body = body_at == std::string::npos ? "" : text.substr(body_at + 1);
  size_t cause = header.find("\ncause:");
  if (cause == std::string::npos) return std::nullopt;
  size_t eol = header.find('\n', cause + 1);
  c.cause = std::string(trim(header.substr(cause + 7, eol - cause - 7)));
  return c;
}

// ../shared next to the checkout; a git worktree one level deeper looks one level up.
fs::path cases_dir() {
  for (const char* up : {"..", "../.."}) {
    fs::path p = fs::path(TFGPU_SOURCE_DIR) / up / "shared" / "cases" / "dev";
    if (fs::is_directory(p)) return p;
  }
  return fs::path(TFGPU_SOURCE_DIR) / ".." / "shared" / "cases" / "dev";
}

TEST(ExplainCases, TopFindingIsTheLabelledCauseForEveryDevReport) {
  if (!fs::is_directory(cases_dir())) GTEST_SKIP() << "no " << cases_dir() << ": real reports not available here";
  auto sigs = load_signatures(embedded_kb_files());
  ASSERT_TRUE(sigs) << sigs.error().message;
  auto kb = kb::load_embedded();
  ASSERT_TRUE(kb) << kb.error().message;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(cases_dir()))
    if (e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  int right = 0;
  for (const auto& p : files) {
    auto c = read_case(p);
    ASSERT_TRUE(c) << p << ": no header with cause:";
    ExplainResult r = explain_text(c->body, *sigs, &*kb);
    std::string got = r.findings.empty() ? "(none)" : r.findings.front().id;
    std::string ranking;
    for (size_t i = 0; i < r.findings.size() && i < 4; ++i)
      ranking += fmt::format(" {}={:.2f}", r.findings[i].id, r.findings[i].score);
    EXPECT_EQ(got, c->cause) << c->name << " ranking:" << ranking;
    if (got == c->cause) ++right;
    std::printf("  %-10s expected %-42s got %s\n", c->name.c_str(), c->cause.c_str(), got.c_str());
  }
  std::printf("  %d of %zu dev reports explained correctly\n", right, files.size());
}

}  // namespace
}  // namespace tfgpu::explain
