// The real `tfgpu explain` binary and its standard input: a piped log is read without
// `-`, a terminal or a directory on stdin is refused (exit 2, one line), and the exit
// code says whether a cause was found.
#include <gtest/gtest.h>

#include "support/shell_posix.h"

namespace tfgpu {
namespace {

using testing::run_shell;

const std::string kExe = TFGPU_EXE;

TEST(ExplainStdin, APipedLogIsReadWithoutADash) {
  auto r = run_shell("printf 'ImportError: A module that was compiled using NumPy 1.x cannot be run in\\n' | " + kExe +
                     " --color=never explain");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("numpy_abi_mismatch"), std::string::npos) << r.out;
}

// At a terminal with no file: say how to give it one (script(1) gives the child a tty).
TEST(ExplainStdin, NoFileAtATerminalSaysHowToPipeALog) {
  if (run_shell("command -v script").code != 0) GTEST_SKIP() << "script(1) (util-linux) is not installed";
  auto r = run_shell("script -qec '" + kExe + " explain' /dev/null < /dev/null");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("pipe one in"), std::string::npos) << r.out;
}

TEST(ExplainStdin, ADirectoryOnStdinIsBadInput) {
  auto r = run_shell(kExe + " explain - < /");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("reading standard input failed"), std::string::npos) << r.out;
}

TEST(ExplainStdin, AWarningLevelCauseStillExitsOne) {
  auto r = run_shell("printf \"ptxas fatal   : Value 'sm_89' is not defined for option 'gpu-name'\\n\" | " + kExe +
                     " explain -");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("ptxas_too_old"), std::string::npos) << r.out;
}

TEST(ExplainStdin, OnlyHarmlessLinesExitZero) {
  auto r = run_shell("printf 'I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized "
                     "to use available CPU instructions in performance-critical operations.\\n' | " +
                     kExe + " explain");
  EXPECT_EQ(r.code, 0) << r.out;
}

}  // namespace
}  // namespace tfgpu
