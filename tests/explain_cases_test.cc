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
#include "support/report_cases.h"
#include "util/strings.h"

namespace tfgpu::explain {
namespace {

namespace fs = std::filesystem;

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
  auto cases = ::tfgpu::testing::read_report_cases(cases_dir());
  ASSERT_FALSE(cases.empty());
  int right = 0;
  for (const auto& cc : cases) {
    const auto* c = &cc;
    ExplainResult r = explain_text(c->body, *sigs, &*kb);
    std::string got = r.findings.empty() ? "(none)" : r.findings.front().id;
    std::string ranking;
    for (size_t i = 0; i < r.findings.size() && i < 4; ++i)
      ranking += fmt::format(" {}={:.2f}", r.findings[i].id, r.findings[i].score);
    EXPECT_EQ(got, c->cause) << c->name << " ranking:" << ranking;
    if (got == c->cause) ++right;
    std::printf("  %-10s expected %-42s got %s\n", c->name.c_str(), c->cause.c_str(), got.c_str());
  }
  std::printf("  %d of %zu dev reports explained correctly\n", right, cases.size());
}

}  // namespace
}  // namespace tfgpu::explain
