// The KB's Tensor Core precision floors (kb/gpus.toml [[tensor_precision]]): FP8 from
// compute capability 8.9, sourced; malformed rows are errors naming the row.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "kb/kb.h"
#include "kb/tensor_precision.h"
#include "util/strings.h"

namespace tfgpu::kb {
namespace {

TEST(KbTensorPrecision, Fp8NeedsComputeCapability89AndIsSourced) {
  auto rows = load_tensor_precisions(embedded_kb_files());
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  const TensorPrecision* fp8 = find_tensor_precision(*rows, "fp8");
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->min_cc.str(), "8.9");
  EXPECT_TRUE(fp8->prov.verified);
  EXPECT_EQ(find_tensor_precision(*rows, "fp4"), nullptr);
}

TEST(KbTensorPrecision, EverySourceIsAKnownIdOrUrl) {
  auto kb = load_embedded();
  ASSERT_TRUE(kb.has_value()) << kb.error().message;
  auto rows = load_tensor_precisions(embedded_kb_files());
  ASSERT_TRUE(rows.has_value());
  ASSERT_FALSE(rows->empty());
  for (const auto& r : *rows) {
    for (const auto& s : r.prov.source) {
      EXPECT_TRUE(kb->source(s) != nullptr || starts_with(s, "https://")) << r.precision << ": " << s;
    }
  }
}

TEST(KbTensorPrecision, EveryCardWithAnFp8PeakIsAtOrAboveTheFloor) {
  auto kb = load_embedded();
  auto rows = load_tensor_precisions(embedded_kb_files());
  ASSERT_TRUE(kb.has_value() && rows.has_value());
  const TensorPrecision* fp8 = find_tensor_precision(*rows, "fp8");
  ASSERT_NE(fp8, nullptr);
  int with_peak = 0;
  for (const auto& g : kb->gpus()) {
    if (!g.peak || !g.peak->fp8_tflops) continue;
    ++with_peak;
    EXPECT_GE(g.cc, fp8->min_cc) << g.name;
  }
  EXPECT_GT(with_peak, 0);
}

TEST(KbTensorPrecision, MalformedRowsAreErrorsThatNameTheRow) {
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {"tensor_precision = 3", "must be an array of tables"},
      {"[[tensor_precision]]\nmin_cc = \"8.9\"\nsource = [\"x\"]", "#1: 'precision' is missing"},
      {"[[tensor_precision]]\nprecision = \"fp8\"\nsource = [\"x\"]", "'min_cc' is missing"},
      {"[[tensor_precision]]\nprecision = \"fp8\"\nmin_cc = \"eight\"\nsource = [\"x\"]",
       "'eight' is not a compute capability"},
      {"[[tensor_precision]]\nprecision = \"fp8\"\nmin_cc = \"8.9\"", "'source' is missing"},
      {"[[tensor_precision]\nprecision", "t.toml:1"},
  };
  for (const auto& c : cases) {
    auto r = parse_tensor_precisions(c.text, "t.toml");
    ASSERT_FALSE(r.has_value()) << c.text;
    EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
  }
  // No table at all is no rows, not an error (a KB without floors measures no FP8).
  auto none = parse_tensor_precisions("[[gpu]]\nname = \"x\"\n", "t.toml");
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->empty());
}

TEST(KbTensorPrecision, HostileTextIsAnErrorOrRowsNeverACrash) {
  std::string good = "[[tensor_precision]]\nprecision = \"fp8\"\nmin_cc = \"8.9\"\nsource = [\"x\"]\n";
  std::mt19937 rng(11);
  for (int i = 0; i < 300; ++i) {
    std::string s = good;
    for (int k = 0; k < 4; ++k) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    auto r = parse_tensor_precisions(s, "t.toml");
    if (r) EXPECT_LE(r->size(), 1u);
  }
  for (size_t cut = 0; cut < good.size(); cut += 7) (void)parse_tensor_precisions(good.substr(0, cut), "t.toml");
  std::string huge(1 << 16, '[');
  EXPECT_FALSE(parse_tensor_precisions(huge, "t.toml").has_value());
}

}  // namespace
}  // namespace tfgpu::kb
