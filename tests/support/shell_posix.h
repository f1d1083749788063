#pragma once
// Runs a shell command for POSIX-only tests (emitted scripts, verify.py): its exit code and
// stdout + stderr together, as a user at a terminal would see them.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace tfgpu::testing {

struct ShellRun {
  int code = -1;    // exit status; -1 when it did not exit normally or could not start
  std::string out;  // stdout and stderr, interleaved
};

inline ShellRun run_shell(const std::string& command) {
  ShellRun r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace tfgpu::testing
