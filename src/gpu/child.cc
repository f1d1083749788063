#include "gpu/child.h"

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::gpu {

Result<nlohmann::json> run_child_json(const Host& host, const ChildRun& run) {
  ProcessSpec spec;
  spec.argv.push_back(host.self_exe());
  spec.argv.insert(spec.argv.end(), run.args.begin(), run.args.end());
  spec.timeout = run.timeout;
  spec.env_overrides = run.env;
  keep_child_loader_off_current_dir(host, spec);  // never ./libnvidia-ml.so.1 from an empty LD_LIBRARY_PATH element
  auto r = host.run(spec);
  if (!r) return fail(Error::io(fmt::format("could not start the child process: {}", r.error().message)));
  std::string err(trim(r->err));
  if (err.size() > 400) err = "..." + err.substr(err.size() - 400);
  std::string tail = err.empty() ? "" : "; stderr: " + err;
  if (!r->exited || r->timed_out || r->signal != 0) return fail(Error::io(r->describe() + tail));
  auto j = nlohmann::json::parse(r->out, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return fail(Error::io(fmt::format("{}, but printed no JSON report{}", r->describe(), tail)));
  }
  return j;
}

}  // namespace tfgpu::gpu
