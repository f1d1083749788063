// The real Windows host, run under Wine in CI: processes, registry, Unicode environment.
#include <gtest/gtest.h>

#include "host/dynamic_library.h"
#include "host/host.h"

namespace tfgpu {
namespace {

TEST(Win32Host, RunCapturesOutputAndExitCode) {
  auto host = make_system_host();
  auto r = host->run({{"cmd.exe", "/c", "echo out& exit 3"}, std::chrono::milliseconds(20000)});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->exited);
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_NE(r->out.find("out"), std::string::npos);
}

TEST(Win32Host, MissingProgramIsAnErrorValue) {
  auto host = make_system_host();
  auto r = host->run({{"Z:\\nonexistent\\tfgpu-nothing.exe"}, std::chrono::milliseconds(5000)});
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("tfgpu-nothing.exe"), std::string::npos);
}

TEST(Win32Host, EnvironmentRoundTripsUnicode) {
  auto host = make_system_host();
  ProcessSpec spec{{"cmd.exe", "/c", "echo %TFGPU_U%"}, std::chrono::milliseconds(20000)};
  spec.env_overrides["TFGPU_U"] = "x";
  auto r = host->run(spec);
  ASSERT_TRUE(r.has_value());
  EXPECT_NE(r->out.find("x"), std::string::npos);
  EXPECT_TRUE(host->env("PATH").has_value() || host->env("Path").has_value());
}

TEST(Win32Host, ReadsTheRegistryAndListsSubkeys) {
  auto host = make_system_host();
  auto build = host->registry_value("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "CurrentBuildNumber");
  ASSERT_TRUE(build.has_value()) << build.error().message;
  EXPECT_FALSE(build->empty());
  auto keys = host->registry_subkeys("HKLM\\SOFTWARE\\Microsoft");
  ASSERT_TRUE(keys.has_value());
  EXPECT_FALSE(keys->empty());
  EXPECT_FALSE(host->registry_value("HKLM\\SOFTWARE\\tfgpu-no-such-key", "x").has_value());
  EXPECT_FALSE(host->registry_value("HKXX\\whatever", "x").has_value());
}

TEST(Win32Host, SystemDirectoryAndSelfAreFiles) {
  auto host = make_system_host();
  EXPECT_TRUE(host->is_file(host->self_exe()));
  EXPECT_EQ(host->os_release().kernel_name, "Windows");
  EXPECT_FALSE(host->os_release().kernel_release.empty());
}

TEST(Win32DynamicLibrary, BareNamesLoadFromSystem32AndFailuresKeepTheText) {
  LoadOutcome outcome;
  auto k32 = DynamicLibrary::open({"kernel32.dll"}, &outcome);
  ASSERT_TRUE(k32.has_value());
  EXPECT_NE(k32->symbol("GetProcAddress"), nullptr);
  LoadOutcome missing;
  auto none = DynamicLibrary::open({"tfgpu_no_such_library.dll"}, &missing);
  ASSERT_FALSE(none.has_value());
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_NE(missing.errors[0].find("126"), std::string::npos);
}

}  // namespace
}  // namespace tfgpu
