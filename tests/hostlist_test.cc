// Slurm-style hostlist compression. Every expected string below is what
// `scontrol show hostlistsorted` of Debian's slurm-client 22.05.8 printed for the same
// names (run by hand here; tests/real/slurm_fleet.sh checks it on the live Slurm).
#include <gtest/gtest.h>

#include "util/hostlist.h"

namespace tfgpu {
namespace {

TEST(Hostlist, ConsecutiveZeroPaddedNodesBecomeOneRange) {
  EXPECT_EQ(compress_hostlist({"gpu017", "gpu018", "gpu019", "gpu020", "gpu030", "login1"}), "gpu[017-020,030],login1");
}

TEST(Hostlist, GapsSplitRangesInsideOneBracket) {
  EXPECT_EQ(compress_hostlist({"gpu1", "gpu2", "gpu3", "gpu5", "login1"}), "gpu[1-3,5],login1");
}

TEST(Hostlist, NaturalNumbersRunAcrossADigitCount) {
  EXPECT_EQ(compress_hostlist({"gpu9", "gpu10", "gpu11"}), "gpu[9-11]");
  EXPECT_EQ(compress_hostlist({"n0", "n1", "n2"}), "n[0-2]");
}

TEST(Hostlist, ANaturalNumberContinuesTheZeroPaddedRangeOfItsWidth) {
  EXPECT_EQ(compress_hostlist({"n098", "n099", "n100"}), "n[098-100]");
  EXPECT_EQ(compress_hostlist({"n98", "n099", "n100"}), "n[98,099-100]");
}

TEST(Hostlist, PaddedAndNaturalNumbersStayApartNaturalFirst) {
  EXPECT_EQ(compress_hostlist({"node1", "node01", "node2"}), "node[1-2,01]");
  EXPECT_EQ(compress_hostlist({"n9", "n10", "n010", "n011"}), "n[9-10,010-011]");
}

TEST(Hostlist, OnlyATrailingNumberIsRangedAsSlurmExpandsNoSuffix) {
  // Slurm 22.05: `scontrol show hostnames 'gpu[01-02].cluster'` says "Invalid hostlist".
  EXPECT_EQ(compress_hostlist({"gpu01.cluster", "gpu02.cluster"}), "gpu01.cluster,gpu02.cluster");
  EXPECT_EQ(compress_hostlist({"rack1-n3", "rack1-n4", "rack2-n3"}), "rack1-n[3-4],rack2-n3");
}

TEST(Hostlist, NamesWithoutNumbersAndOneNodeAreNotBracketed) {
  EXPECT_EQ(compress_hostlist({"c", "a", "b"}), "a,b,c");
  EXPECT_EQ(compress_hostlist({"login1", "gpu1"}), "gpu1,login1");
  EXPECT_EQ(compress_hostlist({}), "");
}

TEST(Hostlist, DuplicatesCountOnce) {
  // scontrol keeps them ("gpu[017,017-018]"); a fleet report counts nodes, not files.
  EXPECT_EQ(compress_hostlist({"gpu017", "gpu017", "gpu018"}), "gpu[017-018]");
  HostlistBuilder b;
  EXPECT_TRUE(b.add("gpu017"));
  EXPECT_FALSE(b.add("gpu017"));
  EXPECT_TRUE(b.add("gpu018"));
  EXPECT_EQ(b.size(), 2u);
}

TEST(Hostlist, RangesMergeInAnyOrderOfArrival) {
  HostlistBuilder b;
  for (int n : {5, 3, 1, 2, 4, 9, 7, 8}) b.add("gpu" + std::to_string(n));
  EXPECT_EQ(b.str(), "gpu[1-5,7-9]");
  EXPECT_EQ(b.size(), 8u);
}

TEST(Hostlist, NumbersTooLongForARangeStayWhole) {
  std::string long_name = "n1234567890123456789012";
  EXPECT_EQ(compress_hostlist({long_name, "n1"}), "n1," + long_name);
}

}  // namespace
}  // namespace tfgpu
