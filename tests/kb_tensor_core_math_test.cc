// The KB's Tensor Core floors (kb/gpus.toml [[tensor_core_math]]): FP16 Tensor Cores from
// compute capability 7.0, BF16/TF32 from 8.0, FP8 from 8.9, each sourced; and every card
// the KB gives an FP8 peak sits at or above the FP8 floor.
#include <gtest/gtest.h>

#include "kb/kb.h"
#include "util/strings.h"

namespace tfgpu::kb {
namespace {

TEST(KbTensorCoreMath, FloorsAreFp16At70Bf16At80Fp8At89AndSourced) {
  auto kb = load_embedded();
  ASSERT_TRUE(kb.has_value()) << kb.error().message;
  for (auto [feature, cc] : {std::pair{"fp16", "7.0"}, {"bf16", "8.0"}, {"fp8", "8.9"}}) {
    const TensorCoreMath* row = kb->tensor_core_min(feature);
    ASSERT_NE(row, nullptr) << feature;
    EXPECT_EQ(row->min_cc.str(), cc) << feature;
    EXPECT_TRUE(row->prov.verified) << feature;
    ASSERT_FALSE(row->prov.source.empty()) << feature;
    for (const auto& s : row->prov.source)
      EXPECT_TRUE(kb->source(s) != nullptr || starts_with(s, "https://")) << feature << ": " << s;
  }
  EXPECT_EQ(kb->tensor_core_min("fp4"), nullptr);
}

TEST(KbTensorCoreMath, EveryCardWithAnFp8PeakIsAtOrAboveTheFp8Floor) {
  auto kb = load_embedded();
  ASSERT_TRUE(kb.has_value()) << kb.error().message;
  const TensorCoreMath* fp8 = kb->tensor_core_min("fp8");
  ASSERT_NE(fp8, nullptr);
  int with_peak = 0;
  for (const auto& g : kb->gpus()) {
    if (!g.peak || !g.peak->fp8_tflops) continue;
    ++with_peak;
    EXPECT_GE(g.cc, fp8->min_cc) << g.name;
  }
  EXPECT_GT(with_peak, 0);
}

}  // namespace
}  // namespace tfgpu::kb
