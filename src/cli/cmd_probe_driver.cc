// `tfgpu __probe-driver --library nvml|cuda|cudart|cudnn [--path FILE]`: hidden
// child-process entry point of the probe. Loads one vendor library in this (child)
// process and prints what it said as one JSON line; the parent (probe/driver.cc)
// survives whatever the library does here (crash, hang, exit()).
#include <memory>

#include "cli/command.h"
#include "probe/driver_child.h"
#include "util/json_text.h"
#include "util/error.h"

namespace tfgpu {

CommandRunner define_probe_driver(CLI::App& sub) {
  auto library = std::make_shared<std::string>("nvml");
  auto path = std::make_shared<std::string>();
  sub.add_option("--library", *library, "nvml, cuda, cudart or cudnn");
  sub.add_option("--path", *path, "open this file only, instead of the default names");
  return [library, path](CommandIo& io) {
    probe::ChildQuery q;
    if (!probe::parse_vendor_library(*library, &q.library)) {
      io.err << "tfgpu __probe-driver: unknown --library '" << *library << "' (nvml, cuda, cudart, cudnn)\n";
      return static_cast<int>(kExitUsage);
    }
    q.path = *path;
    q.platform = io.host.platform();
    io.out << dump_json(probe::run_child_query(q, io.err), -1) << "\n";
    io.out.flush();
    return static_cast<int>(kExitOk);
  };
}

}  // namespace tfgpu
