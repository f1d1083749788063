#include "util/version.h"

#include <gtest/gtest.h>

namespace tfgpu {
namespace {

Version v(const char* s) { return Version::parse(s).value(); }

TEST(Version, ParsesDottedNumbers) {
  EXPECT_EQ(v("2.10").parts(), (std::vector<int>{2, 10}));
  EXPECT_EQ(v("522.06").parts(), (std::vector<int>{522, 6}));
  EXPECT_EQ(v("v11.8").str(), "11.8");
  EXPECT_EQ(v("12.5.1").patch(), 1);
}

TEST(Version, DropsPreReleaseAndBuildSuffixes) {
  EXPECT_EQ(v("2.16.0rc1").str(), "2.16.0");
  EXPECT_EQ(v("12.5.1+cuda").str(), "12.5.1");
  EXPECT_EQ(v("2.10.0-dev").str(), "2.10.0");
}

TEST(Version, RejectsNonVersions) {
  EXPECT_FALSE(Version::parse("").has_value());
  EXPECT_FALSE(Version::parse("abc").has_value());
  EXPECT_FALSE(Version::parse("1.2/3").has_value());
  EXPECT_FALSE(Version::parse("99999999999").has_value());
}

TEST(Version, ComparesNumericallyNotLexically) {
  EXPECT_LT(v("2.9"), v("2.10"));
  EXPECT_LT(v("11.8"), v("12.0"));
  EXPECT_EQ(v("11.8"), v("11.8.0"));
  EXPECT_GT(v("535.104.05"), v("535.54.03"));
}

TEST(Version, PrefixCoversLongerVersions) {
  EXPECT_TRUE(v("11.8.89").matches_prefix(v("11.8")));
  EXPECT_TRUE(v("11.8.89").matches_prefix(v("11")));
  EXPECT_FALSE(v("11.2").matches_prefix(v("11.8")));
  EXPECT_FALSE(v("11").matches_prefix(v("11.8")));
}

TEST(VersionRange, InclusiveBoundsCompareByPrefix) {
  auto r = VersionRange::parse("3.7-3.10").value();
  EXPECT_TRUE(r.contains(v("3.7")));
  EXPECT_TRUE(r.contains(v("3.10.12")));
  EXPECT_FALSE(r.contains(v("3.11")));
  EXPECT_FALSE(r.contains(v("3.6.9")));
  EXPECT_EQ(r.str(), "3.7-3.10");
}

TEST(VersionRange, AcceptsEnDashOpenBoundsAndSingleValues) {
  EXPECT_TRUE(VersionRange::parse("3.9\xE2\x80\x93" "3.11").value().contains(v("3.11")));
  EXPECT_TRUE(VersionRange::parse(">=525").value().contains(v("535.104.05")));
  EXPECT_FALSE(VersionRange::parse("<=2.10").value().contains(v("2.11")));
  EXPECT_TRUE(VersionRange::parse("3.12").value().contains(v("3.12.1")));
  EXPECT_TRUE(VersionRange::parse("*").value().contains(v("1.0")));
}

TEST(VersionRange, RejectsBackwardsAndMalformedRanges) {
  EXPECT_FALSE(VersionRange::parse("3.10-3.7").has_value());
  EXPECT_FALSE(VersionRange::parse("").has_value());
  EXPECT_FALSE(VersionRange::parse("x-y").has_value());
}

}  // namespace
}  // namespace tfgpu

namespace tfgpu {
namespace {

TEST(VersionSpecifier, EveryClauseMustHold) {
  auto v = [](const char* s) { return *Version::parse(s); };
  EXPECT_TRUE(satisfies_specifier(v("1.26.4"), "<2"));
  EXPECT_FALSE(satisfies_specifier(v("2.1.3"), "<2"));
  EXPECT_TRUE(satisfies_specifier(v("1.23.5"), ">=1.23.5,<2.0.0"));
  EXPECT_FALSE(satisfies_specifier(v("1.22"), ">=1.23.5,<2.0.0"));
  EXPECT_FALSE(satisfies_specifier(v("4.21.0"), "!=4.21.0,<5"));
  EXPECT_TRUE(satisfies_specifier(v("3.0"), "<=3.0, >2"));
  EXPECT_TRUE(satisfies_specifier(v("9"), "<nonsense"));  // unreadable clause: ignored
}

}  // namespace
}  // namespace tfgpu
