// tfgpu entry point: everything lives in tfgpu_core; main only turns any escaped
// exception into one clear line and exit code 3.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "host/host.h"
#include "util/error.h"

#ifdef _WIN32
#include <io.h>
#define TFGPU_ISATTY(fd) _isatty(fd)
#else
#include <unistd.h>
#define TFGPU_ISATTY(fd) isatty(fd)
#endif

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    auto host = tfgpu::make_system_host();
    return tfgpu::run_cli(args, *host, std::cout, std::cerr, TFGPU_ISATTY(1) != 0);
  } catch (const std::exception& e) {
    std::cerr << "tfgpu: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "tfgpu: internal error (unknown exception)\n";
  }
  return tfgpu::kExitInternal;
}
