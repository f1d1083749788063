// The literal automaton and the streaming scanner: every occurrence found, case folded,
// chunk boundaries invisible, and hostile input (huge lines, NULs, random bytes, empty)
// handled in bounded memory.
#include <random>

#include <gtest/gtest.h>

#include "explain/literal_matcher.h"
#include "explain/scanner.h"
#include "kb/embedded.h"
#include "support/shipped_kb.h"
#include "support/signature_toml.h"
#include "util/strings.h"

namespace tfgpu::explain {
namespace {

using testing::shipped_signatures;

std::vector<std::pair<uint32_t, size_t>> all_matches(const LiteralMatcher& m, std::string_view text) {
  std::vector<std::pair<uint32_t, size_t>> out;
  m.feed(LiteralMatcher::kStart, text, [&](uint32_t id, size_t end) { out.emplace_back(id, end); });
  return out;
}

TEST(LiteralMatcher, FindsOverlappingAndNestedLiterals) {
  LiteralMatcher m({"he", "she", "his", "hers"});
  auto hits = all_matches(m, "ushers");
  // "she" ends at 4, "he" ends at 4, "hers" ends at 6.
  ASSERT_EQ(hits.size(), 3u);
  std::set<std::pair<uint32_t, size_t>> got(hits.begin(), hits.end());
  EXPECT_TRUE(got.count({1, 4}));
  EXPECT_TRUE(got.count({0, 4}));
  EXPECT_TRUE(got.count({3, 6}));
}

TEST(LiteralMatcher, FoldsAsciiCaseOnly) {
  LiteralMatcher m({"cudnn"});
  EXPECT_EQ(all_matches(m, "Loaded CuDNN").size(), 1u);
  EXPECT_EQ(all_matches(m, "CUDNN cudnn").size(), 2u);
  EXPECT_TRUE(all_matches(m, "cud\xC3\xB1n").empty());
}

TEST(LiteralMatcher, StateCarriesAcrossChunks) {
  LiteralMatcher m({"could not load dynamic library"});
  std::string text = "W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'";
  for (size_t split = 1; split < text.size(); ++split) {
    int hits = 0;
    auto s = m.feed(LiteralMatcher::kStart, std::string_view(text).substr(0, split), [&](uint32_t, size_t) { ++hits; });
    m.feed(s, std::string_view(text).substr(split), [&](uint32_t, size_t) { ++hits; });
    EXPECT_EQ(hits, 1) << "split at " << split;
  }
}

TEST(LiteralMatcher, RepeatedAndEmptyLiteralsAreHarmless) {
  LiteralMatcher m({"", "aa", "aa", "a"});
  auto hits = all_matches(m, "aaa");
  // "a" x3, "aa" (ids 1 and 2) x2 each.
  EXPECT_EQ(hits.size(), 7u);
}

TEST(LiteralMatcher, AdversarialInputStaysLinear) {
  // Classic backtracking killers: many prefixes of a long run of one letter.
  std::vector<std::string> lits;
  for (int n = 1; n <= 64; ++n) lits.push_back(std::string(static_cast<size_t>(n), 'a') + "b");
  LiteralMatcher m(lits);
  std::string text(1 << 20, 'a');
  size_t hits = 0;
  m.feed(LiteralMatcher::kStart, text, [&](uint32_t, size_t) { ++hits; });
  EXPECT_EQ(hits, 0u);  // finishes: one table step per byte whatever the literals
}

TEST(ExplainScanner, ChunkingDoesNotChangeTheResult) {
  std::string log =
      "2023-01-01 W tensorflow/tsl/platform/default/dso_loader.cc:66] Could not load dynamic library "
      "'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file\r\n"
      "I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available "
      "CPU instructions in performance-critical operations.\n"
      "TensorFlow version: 2.11.0\nno newline at the end: Could not create cudnn handle";
  ScanResult whole = scan_text(shipped_signatures(), log);
  Scanner bytewise(shipped_signatures());
  for (char c : log) bytewise.feed(std::string_view(&c, 1));
  ScanResult split = bytewise.finish();
  EXPECT_EQ(whole.hit_counts, split.hit_counts);
  EXPECT_EQ(whole.stats.lines, 4u);
  EXPECT_EQ(split.stats.lines, 4u);
  EXPECT_EQ(whole.facts.tf_version.value, "2.11.0");
  EXPECT_EQ(split.facts.tf_version.value, "2.11.0");
  EXPECT_TRUE(whole.hit_counts.count("dlopen_cudart_failed"));
  EXPECT_TRUE(whole.hit_counts.count("cudnn_handle_failed"));
  ASSERT_EQ(whole.facts.failed_libraries.size(), 1u);
  EXPECT_EQ(whole.facts.failed_libraries[0].name, "libcudart.so.11.0");
  EXPECT_EQ(whole.facts.failed_libraries[0].line, 1);
}

TEST(ExplainScanner, EmptyInputHasNoLinesAndNoHits) {
  ScanResult r = scan_text(shipped_signatures(), "");
  EXPECT_EQ(r.stats.lines, 0u);
  EXPECT_EQ(r.stats.bytes, 0u);
  EXPECT_TRUE(r.hits.empty());
}

TEST(ExplainScanner, NulFilledInputIsBinaryWithoutHits) {
  std::string nuls(1 << 20, '\0');
  ScanResult r = scan_text(shipped_signatures(), nuls);
  EXPECT_TRUE(r.stats.has_nul);
  EXPECT_EQ(r.stats.lines, 1u);
  EXPECT_TRUE(r.hits.empty());
}

TEST(ExplainScanner, MatchesPastThePrefixCapOfAHugeLine) {
  // 200 MB of one line streamed in 1 MB chunks (1 GB works the same; this size keeps
  // the suite fast on two cores). The signature at the end is still found, and memory
  // stays bounded because only the prefix is kept.
  Scanner s(shipped_signatures());
  std::string chunk(1 << 20, 'x');
  for (int i = 0; i < 200; ++i) s.feed(chunk);
  s.feed(" Failed to initialize NVML: Driver/library version mismatch");
  s.feed("\nTensorFlow version: 2.15.0\n");
  ScanResult r = s.finish();
  EXPECT_EQ(r.stats.lines, 2u);
  EXPECT_EQ(r.stats.long_lines, 1u);
  EXPECT_GE(r.stats.longest_line, 200u << 20);
  EXPECT_TRUE(r.hit_counts.count("driver_library_version_mismatch"));
  ASSERT_FALSE(r.hits.empty());
  EXPECT_LE(r.hits.front().excerpt.size(), kExcerptCap);
  // The excerpt of a huge line keeps its end, where the message is.
  EXPECT_NE(r.hits.front().excerpt.find("Driver/library version mismatch"), std::string::npos);
  EXPECT_EQ(r.facts.tf_version.value, "2.15.0");
  EXPECT_EQ(r.facts.tf_version.line, 2);
}

TEST(ExplainScanner, RandomBytesNeverCrashAndCountEveryLine) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 50; ++round) {
    std::string junk(static_cast<size_t>(rng() % 20000), '\0');
    size_t newlines = 0;
    for (auto& c : junk) {
      c = static_cast<char>(rng() & 0xff);
      if (c == '\n') ++newlines;
    }
    ScanResult r = scan_text(shipped_signatures(), junk);
    size_t expected = newlines + ((!junk.empty() && junk.back() != '\n') ? 1 : 0);
    EXPECT_EQ(r.stats.lines, expected);
    EXPECT_EQ(r.stats.bytes, junk.size());
  }
}

TEST(ExplainScanner, HitsKeptPerSignatureAreBoundedButAllAreCounted) {
  std::string log;
  for (int i = 0; i < 500; ++i)
    log += "I cuda_gpu_executor.cc:910] successful NUMA node read from SysFS had negative value (-1)\n";
  ScanResult r = scan_text(shipped_signatures(), log);
  EXPECT_EQ(r.hit_counts["numa_node_negative"], 500u);
  EXPECT_EQ(r.hits.size(), kHitsKeptPerSignature);
}

TEST(ExplainScanner, InvalidUtf8IsReportedNotFatal) {
  std::string log = "Could not create cudnn handle: \xff\xfe CUDNN_STATUS_INTERNAL_ERROR\n";
  ScanResult r = scan_text(shipped_signatures(), log);
  EXPECT_TRUE(r.stats.invalid_utf8);
  EXPECT_TRUE(r.hit_counts.count("cudnn_handle_failed"));
}

TEST(ExplainScanner, SignatureLiteralsAreDistinctAndLowerCase) {
  Scanner s(shipped_signatures());
  const auto& lits = s.signature_literals();
  std::set<std::string> uniq(lits.begin(), lits.end());
  EXPECT_EQ(uniq.size(), lits.size());
  for (const auto& l : lits) EXPECT_EQ(l, to_lower(l));
}

// `\bword\b` literals match whole words only, wherever the line is cut into chunks.
TEST(ExplainScanner, BoundedLiteralsMatchWholeWordsOnly) {
  auto set = parse_signatures(std::string(R"(
[[signature]]
id = "mac"
kind = "fact"
severity = "info"
patterns = { any = ["\\bosx\\b", "\\bon mac\\b", "\\brtx"] }
meaning = "m"
examples = ["OSX"]
source = ["s"]
)") + testing::kHarmlessFindingToml,
                              "t.toml");
  ASSERT_TRUE(set) << set.error().message;
  auto hits = [&](std::string_view text, size_t chunk) {
    Scanner sc(*set);
    for (size_t i = 0; i < text.size(); i += chunk) sc.feed(text.substr(i, chunk));
    return sc.finish().hit_counts.count("mac") ? 1 : 0;
  };
  for (size_t chunk : {1u, 2u, 3u, 1000u}) {
    EXPECT_EQ(hits("osx", chunk), 1) << chunk;
    EXPECT_EQ(hits("on OSX 10.14\n", chunk), 1) << chunk;
    EXPECT_EQ(hits("(osx)", chunk), 1) << chunk;
    EXPECT_EQ(hits("RTX3080", chunk), 1) << chunk;  // left edge only
    EXPECT_EQ(hits("macosx_10_9", chunk), 0) << chunk;
    EXPECT_EQ(hits("osx_arm64", chunk), 0) << chunk;
    EXPECT_EQ(hits("ran it on machine 2", chunk), 0) << chunk;
    EXPECT_EQ(hits("cortx", chunk), 0) << chunk;
    EXPECT_EQ(hits("macosx osx", chunk), 1) << chunk;  // a later whole-word occurrence counts
  }
}

// Random bytes name no platform: short words must not fire inside noise.
TEST(ExplainScanner, RandomLettersDoNotNameMacos) {
  std::mt19937 rng(7);
  std::string text;
  for (int i = 0; i < 200000; ++i) text.push_back(static_cast<char>('a' + rng() % 26));
  ScanResult r = scan_text(shipped_signatures(), text);
  EXPECT_EQ(r.hit_counts.count("os_macos"), 0u);
}

}  // namespace
}  // namespace tfgpu::explain
