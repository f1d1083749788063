// `tfgpu __probe-driver --library nvml|cuda|cudart|cudnn [--path FILE]`: hidden
// child-process entry point of the probe. Loads one vendor library in this (child)
// process and prints what it said as one JSON line; the parent (probe/driver.cc)
// survives whatever the library does here (crash, hang, exit()).
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "probe/driver_child.h"
#include "util/json_text.h"
#include "util/error.h"

namespace tfgpu {

namespace {

int answer(const std::string& library, const std::string& path, Platform platform, std::ostream& out,
           std::ostream& err) {
  probe::ChildQuery q;
  if (!probe::parse_vendor_library(library, &q.library)) {
    err << "tfgpu __probe-driver: unknown --library '" << library << "' (nvml, cuda, cudart, cudnn)\n";
    return static_cast<int>(kExitUsage);
  }
  q.path = path;
  q.platform = platform;
  out << dump_json(probe::run_child_query(q, err), -1) << "\n";
  out.flush();
  return static_cast<int>(kExitOk);
}

}  // namespace

std::optional<int> run_probe_driver_direct(const std::vector<std::string>& args, const Host& host, std::ostream& out,
                                           std::ostream& err) {
  // Exactly what probe_child.cc starts: __probe-driver --library L [--path P].
  if (args.size() != 3 && args.size() != 5) return std::nullopt;
  if (args[0] != "__probe-driver" || args[1] != "--library") return std::nullopt;
  if (args.size() == 5 && args[3] != "--path") return std::nullopt;
  return answer(args[2], args.size() == 5 ? args[4] : std::string(), host.platform(), out, err);
}

CommandRunner define_probe_driver(CLI::App& sub) {
  auto library = std::make_shared<std::string>("nvml");
  auto path = std::make_shared<std::string>();
  sub.add_option("--library", *library, "nvml, cuda, cudart or cudnn");
  sub.add_option("--path", *path, "open this file only, instead of the default names");
  return [library, path](CommandIo& io) { return answer(*library, *path, io.host.platform(), io.out, io.err); };
}

}  // namespace tfgpu
