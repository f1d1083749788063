// ld.so.conf rules, on a FakeHost machine (includes are read through the Host seam).
#include <gtest/gtest.h>

#include "binfmt/ld_so_conf.h"
#include "host/fake_host.h"

namespace tfgpu::binfmt {
namespace {

using Dirs = std::vector<std::string>;

TEST(LdSoConf, IncludeGlobsAreExpandedInSortedOrderAtTheirPosition) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "/first\ninclude /etc/ld.so.conf.d/*.conf\n/last\n");
  host.add_file("/etc/ld.so.conf.d/zz-cuda.conf", "/usr/local/cuda/lib64\n");
  host.add_file("/etc/ld.so.conf.d/libc.conf", "/usr/local/lib\n");
  host.add_file("/etc/ld.so.conf.d/x86_64-linux-gnu.conf",
                "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n");
  host.add_file("/etc/ld.so.conf.d/README", "/not/a/conf/file\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, (Dirs{"/first", "/usr/local/lib", "/usr/local/lib/x86_64-linux-gnu",
                         "/lib/x86_64-linux-gnu", "/usr/local/cuda/lib64", "/last"}));
}

TEST(LdSoConf, RelativeIncludesAreRelativeToTheIncludingFile) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "include ld.so.conf.d/*.conf\n");
  host.add_file("/etc/ld.so.conf.d/a.conf", "/a\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, Dirs{"/a"});
}

TEST(LdSoConf, CommentsBlankLinesAndHwcapLinesAreIgnored) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "  # comment\n\n/opt/a   # trailing comment\nhwcap 1 nosegneg\nHWCAP 0 x\n\t/opt/b/\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, (Dirs{"/opt/a", "/opt/b"}));
}

TEST(LdSoConf, DuplicateDirectoriesKeepTheirFirstPosition) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "/a\n/b\n/a\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, (Dirs{"/a", "/b"}));
}

TEST(LdSoConf, IncludeCyclesEndAfterOneVisit) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "/a\ninclude /etc/other.conf\n");
  host.add_file("/etc/other.conf", "/b\ninclude /etc/ld.so.conf\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, (Dirs{"/a", "/b"}));
}

TEST(LdSoConf, IncludeWithSeveralPatternsReadsEachInOrder) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "include /etc/b.conf /etc/a.conf\n");
  host.add_file("/etc/a.conf", "/a\n");
  host.add_file("/etc/b.conf", "/b\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, (Dirs{"/b", "/a"}));
}

TEST(LdSoConf, MissingIncludeIsSkippedButMissingRootIsNotFound) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "include /nowhere/*.conf\n/a\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, Dirs{"/a"});
  auto missing = read_ld_so_conf(host, "/etc/absent.conf");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
}

TEST(LdSoConf, TypeSuffixIsNotPartOfTheDirectory) {
  auto lines = parse_ld_so_conf_text("/usr/lib/libc5-compat=libc5\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].value, "/usr/lib/libc5-compat");
}

TEST(LdSoConf, GlobMatchFollowsFnmatch) {
  EXPECT_TRUE(glob_match("*.conf", "cuda.conf"));
  EXPECT_FALSE(glob_match("*.conf", "cuda.conf.bak"));
  EXPECT_TRUE(glob_match("lib?.conf", "libc.conf"));
  EXPECT_TRUE(glob_match("[a-c]*.conf", "b.conf"));
  EXPECT_FALSE(glob_match("[!a-c]*.conf", "b.conf"));
  EXPECT_TRUE(glob_match("\\*.conf", "*.conf"));
  EXPECT_FALSE(glob_match("\\*.conf", "x.conf"));
  EXPECT_TRUE(glob_match("*a*b*c", "xxaxxbxxc"));
  EXPECT_FALSE(glob_match("[abc", "a"));  // unterminated class never matches
}

TEST(LdSoConf, GlobInDirectoryComponentsIsExpanded) {
  FakeHost host;
  host.add_file("/etc/ld.so.conf", "include /etc/conf.d/*/lib.conf\n");
  host.add_file("/etc/conf.d/b/lib.conf", "/b\n");
  host.add_file("/etc/conf.d/a/lib.conf", "/a\n");
  auto dirs = read_ld_so_conf(host);
  ASSERT_TRUE(dirs) << dirs.error().message;
  EXPECT_EQ(*dirs, (Dirs{"/a", "/b"}));
}

}  // namespace
}  // namespace tfgpu::binfmt
