// tfgpu entry point: everything lives in tfgpu_core; main only turns any escaped
// exception into one clear line and exit code 3.
#include <exception>
#include <iostream>

#include "cli/command.h"
#include "host/host.h"
#include "host/terminal_size.h"
#include "util/error.h"

int main(int argc, char** argv) {
  try {
    auto host = tfgpu::make_system_host();
    return tfgpu::run_cli(tfgpu::command_line_arguments(argc, argv), *host, std::cout, std::cerr,
                          tfgpu::stdout_is_terminal(), tfgpu::stdout_terminal_columns());
  } catch (const std::exception& e) {
    std::cerr << "tfgpu: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "tfgpu: internal error (unknown exception)\n";
  }
  return tfgpu::kExitInternal;
}
