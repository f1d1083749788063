// `tfgpu plan`: placeholder until its issue lands; says so plainly and exits 3.
#include "cli/command.h"
#include "util/error.h"

namespace tfgpu {

CommandRunner define_plan(CLI::App&) {
  return [](CommandIo& io) {
    io.err << "tfgpu plan: not implemented yet in this build\n";
    return static_cast<int>(kExitInternal);
  };
}

}  // namespace tfgpu
