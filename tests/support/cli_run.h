#pragma once
// Runs the whole command line (run_cli) on a Host and keeps what it printed: the one way
// the CLI tests call tfgpu in-process.
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "host/fake_host.h"

namespace tfgpu::testing {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

inline CliRun run_on(Host& host, const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int code = run_cli(args, host, out, err);
  return {code, out.str(), err.str()};
}

inline CliRun run(Host& host, const std::vector<std::string>& args) { return run_on(host, args); }

// On a fresh FakeHost of `platform`.
inline CliRun run(const std::vector<std::string>& args, Platform platform = Platform::kLinux) {
  FakeHost host(platform);
  return run_on(host, args);
}

}  // namespace tfgpu::testing
