#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "util/error.h"
#include "support/cli_run.h"

namespace tfgpu {
namespace {

using testing::CliRun;
using testing::run;

TEST(Cli, HelpListsEveryCommand) {
  auto r = run({"--help"});
  EXPECT_EQ(r.code, kExitOk);
  for (const auto& spec : command_table()) {
    if (!spec.hidden) EXPECT_NE(r.out.find(spec.name), std::string::npos) << spec.name;
  }
}

TEST(Cli, UnknownCommandIsAUsageErrorOnOneLine) {
  auto r = run({"frobnicate"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_EQ(r.err.find("tfgpu: "), 0u);
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
}

TEST(Cli, JsonAndMarkdownExcludeEachOther) {
  auto r = run({"--json", "--markdown", "probe"});
  EXPECT_EQ(r.code, kExitUsage);
}

TEST(Cli, VersionFlagPrintsVersion) {
  auto r = run({"--version"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.out.find("tfgpu "), 0u);
}

}  // namespace
}  // namespace tfgpu
