#include "util/strings.h"

#include <gtest/gtest.h>

namespace tfgpu {
namespace {

TEST(Strings, SplitNonemptyDropsEmptyPathEntries) {
  EXPECT_EQ(split_nonempty("/a::/b:", ':'), (std::vector<std::string>{"/a", "/b"}));
  EXPECT_EQ(split("a::b", ':'), (std::vector<std::string>{"a", "", "b"}));
}

TEST(Strings, CaseInsensitiveHelpersFoldAsciiOnly) {
  EXPECT_TRUE(iequals("CUDART64_110.DLL", "cudart64_110.dll"));
  EXPECT_TRUE(icontains("NVIDIA GeForce RTX 3060", "rtx 3060"));
  EXPECT_FALSE(icontains("GTX 1060", "RTX"));
}

TEST(Strings, EditDistanceCountsSingleEdits) {
  EXPECT_EQ(edit_distance("2.10", "2.11"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Strings, TrimRemovesAsciiWhitespaceBothEnds) { EXPECT_EQ(trim("  \t2.10\r\n"), "2.10"); }

}  // namespace
}  // namespace tfgpu
