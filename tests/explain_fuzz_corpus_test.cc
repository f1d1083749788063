// Runs the libFuzzer entry point of fuzz/explain_fuzz.cc under the normal test build
// (g++, no clang needed): random bytes, truncations of every signature example,
// and examples with bytes flipped. (Each run builds a scanner, so the counts stay small.) A crash or sanitizer report fails the suite.
#include <random>

#include <gtest/gtest.h>

#include "../fuzz/explain_fuzz.cc"

namespace tfgpu::explain {
namespace {

int fuzz_one(const std::string& s) {
  return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

TEST(ExplainFuzzCorpus, RandomBytes) {
  std::mt19937 rng(7);
  for (int i = 0; i < 40; ++i) {
    std::string s(static_cast<size_t>(rng() % 3000), '\0');
    for (auto& c : s) c = static_cast<char>(rng() & 0xff);
    EXPECT_EQ(fuzz_one(s), 0);
  }
}

TEST(ExplainFuzzCorpus, TruncationsOfEveryExample) {
  for (const auto& sig : sigs().signatures())
    for (const auto& ex : sig.examples)
      for (size_t n : {size_t{0}, ex.size() / 3, ex.size() / 2, ex.size() - 1})
        EXPECT_EQ(fuzz_one(ex.substr(0, n)), 0) << sig.id;
}

TEST(ExplainFuzzCorpus, ExamplesWithFlippedBytesAndNoNewlines) {
  std::mt19937 rng(11);
  std::string all;
  for (const auto& sig : sigs().signatures())
    for (const auto& ex : sig.examples) all += ex + (rng() % 3 ? "\n" : "\r");
  for (int round = 0; round < 10; ++round) {
    std::string s = all;
    for (int k = 0; k < 50; ++k) s[rng() % s.size()] = static_cast<char>(rng() & 0xff);
    EXPECT_EQ(fuzz_one(s), 0);
  }
}

}  // namespace
}  // namespace tfgpu::explain
