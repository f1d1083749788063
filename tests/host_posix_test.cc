// The real POSIX host: child processes end, crash or hang, and tfgpu survives all three.
#include <gtest/gtest.h>

#include "host/host.h"

namespace tfgpu {
namespace {

TEST(PosixHost, RunCapturesOutputAndExitCode) {
  auto host = make_system_host();
  auto r = host->run({{"sh", "-c", "echo out; echo err >&2; exit 3"}, std::chrono::milliseconds(5000)});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->exited);
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
}

TEST(PosixHost, RunKillsAHangingChildAtTheTimeout) {
  auto host = make_system_host();
  auto r = host->run({{"sh", "-c", "sleep 30"}, std::chrono::milliseconds(300)});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->timed_out);
  EXPECT_FALSE(r->exited);
}

TEST(PosixHost, RunReportsACrashingChildAsASignal) {
  auto host = make_system_host();
  auto r = host->run({{"sh", "-c", "kill -SEGV $$"}, std::chrono::milliseconds(5000)});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->signal, 11);
  EXPECT_NE(r->describe().find("signal 11"), std::string::npos);
}

TEST(PosixHost, RunPassesStdinAndEnvironmentOverrides) {
  auto host = make_system_host();
  ProcessSpec spec{{"sh", "-c", "read x; echo \"$x-$TFGPU_T\""}, std::chrono::milliseconds(5000)};
  spec.stdin_text = "hello\n";
  spec.env_overrides["TFGPU_T"] = "set";
  auto r = host->run(spec);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->out, "hello-set\n");
}

TEST(PosixHost, MissingFilesAreErrorsNotCrashes) {
  auto host = make_system_host();
  auto r = host->read_file("/nonexistent/tfgpu/file");
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("/nonexistent/tfgpu/file"), std::string::npos);
  EXPECT_FALSE(host->stat("/nonexistent/tfgpu/file").has_value());
}

}  // namespace
}  // namespace tfgpu
