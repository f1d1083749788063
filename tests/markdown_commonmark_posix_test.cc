// Markdown output rendered by cmark, the CommonMark reference renderer (Debian package
// `cmark`, installed by scripts/setup.sh): every command, path and piece of evidence
// comes out as the same text in a <code> element, and the prose as written. Skipped,
// visibly, where cmark is not installed.
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "host/host.h"
#include "report/doctor_report.h"
#include "report/markdown.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

std::string html_unescape(std::string s) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}};
  for (const auto& [from, to] : entities)
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += std::string(to).size())
      s.replace(p, std::string(from).size(), to);
  for (size_t p = 0; (p = s.find("&amp;", p)) != std::string::npos; ++p) s.replace(p, 5, "&");
  return s;
}

// cmark's HTML for `markdown`, or nullopt when cmark is not installed.
std::optional<std::string> cmark_html(const std::string& markdown) {
  if (!std::filesystem::exists("/usr/bin/cmark")) return std::nullopt;
  auto host = make_system_host();
  ProcessSpec spec;
  spec.argv = {"/usr/bin/cmark", "--to", "html"};
  spec.stdin_text = markdown;
  auto r = host->run(spec);
  if (!r || !r->exited || r->exit_code != 0) return std::nullopt;
  return r->out;
}

// The text of every <code> element, entities decoded (plain scanning: std::regex recurses
// once per character of a match and overflows the stack on long HTML).
std::multiset<std::string> code_texts(const std::string& html) {
  std::multiset<std::string> out;
  for (size_t p = 0; (p = html.find("<code>", p)) != std::string::npos;) {
    size_t end = html.find("</code>", p);
    if (end == std::string::npos) break;
    out.insert(html_unescape(html.substr(p + 6, end - p - 6)));
    p = end + 7;
  }
  return out;
}

// The visible text: tags dropped, entities decoded.
std::string visible_text(const std::string& html) {
  std::string text;
  bool in_tag = false;
  for (char c : html) {
    if (c == '<')
      in_tag = true;
    else if (c == '>' && in_tag)
      in_tag = false;
    else if (!in_tag)
      text += c;
  }
  return html_unescape(text);
}

const std::vector<std::string> kTricky = {
    "python -c \"import tensorflow as tf; print(tf.__version__)\"",
    "__import__('os').environ['LD_LIBRARY_PATH']",
    "rm -f */lib/*.so.1 && ls -l ~/lib",
    "C:\\Users\\<user>\\miniconda3\\envs\\tf\\Library\\bin",
    "run `tfgpu verify` then ``nvidia-smi``",
    "`starts with a backtick",
    "a|b > c & d <e> [x](y) **not bold** #1 !",
};

TEST(MarkdownCommonMark, DoctorCommandsPathsAndEvidenceRenderVerbatim) {
  Snapshot s = testing::load_scenario("win_classic_guide_tf212");
  DoctorReport r = diagnose(s, testing::test_kb());
  ASSERT_FALSE(r.findings.empty());
  r.findings[0].fix = kTricky;
  r.findings[0].evidence.push_back({kTricky[1], "C:\\Users\\<user>\\x __init__.py", {}});
  r.verdicts[0].sentence = "TensorFlow in C:\\Users\\<user>\\env *and* __main__ `x`";
  std::string md = render_doctor_markdown(r);
  auto html = cmark_html(md);
  if (!html) GTEST_SKIP() << "cmark is not installed (scripts/setup.sh installs it)";
  auto codes = code_texts(*html);
  for (const auto& cmd : kTricky)
    EXPECT_GE(codes.count(cmd), 1u) << "not verbatim in a code span: " << cmd << "\n" << md;
  std::string text = visible_text(*html);
  EXPECT_NE(text.find("TensorFlow in C:\\Users\\<user>\\env *and* __main__ `x`"), std::string::npos) << text;
  EXPECT_NE(text.find("(C:\\Users\\<user>\\x __init__.py)"), std::string::npos) << text;
  auto layers = summarize_layers(s, r.findings);
  for (const auto& fact : layers[0].facts) EXPECT_GE(codes.count(fact), 1u) << fact;
  EXPECT_EQ(html->find("<strong>and"), std::string::npos);
}

TEST(MarkdownCommonMark, ExplainMarkdownFromALogRendersItsEvidenceVerbatim) {
  FakeHost host;  // explain reads the log from disk
  std::string log =
      (std::filesystem::temp_directory_path() / ("tfgpu_md_log_" + std::to_string(::getpid()) + ".txt")).string();
  std::ofstream(log)
      << "Could not "
         "load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No "
         "such file or directory; LD_LIBRARY_PATH: /home/alice/__pkg__/lib:*/opt/*\n";
  std::ostringstream out, err;
  int code = run_cli({"explain", log, "--markdown"}, host, out, err);
  std::filesystem::remove(log);
  ASSERT_LE(code, 1) << err.str();
  auto html = cmark_html(out.str());
  if (!html) GTEST_SKIP() << "cmark is not installed (scripts/setup.sh installs it)";
  std::string text = visible_text(*html);
  EXPECT_EQ(text.find("alice"), std::string::npos) << "home paths in the log are redacted";
  bool found = false;
  for (const auto& c : code_texts(*html))
    found = found || c.find("/home/<user>/__pkg__/lib:*/opt/*") != std::string::npos;
  EXPECT_TRUE(found) << out.str();
}

TEST(MarkdownCommonMark, CodeSpanFenceIsLongerThanAnyBacktickRunInside) {
  EXPECT_EQ(report::md_code("ls"), "`ls`");
  EXPECT_EQ(report::md_code("run `x`"), "`` run `x` ``") << "ends with a backtick: padded";
  EXPECT_EQ(report::md_code("a ``b`` c"), "```a ``b`` c```");
  auto html = cmark_html("x " + report::md_code("run `x`") + " y\n");
  if (!html) GTEST_SKIP() << "cmark is not installed";
  EXPECT_EQ(code_texts(*html).count("run `x`"), 1u) << *html;
}

}  // namespace
}  // namespace tfgpu
