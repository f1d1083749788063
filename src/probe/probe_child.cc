#include "probe/probe_child.h"

#include <fmt/format.h>

#include "gpu/cuda_driver.h"
#include "gpu/nvml.h"
#include "util/strings.h"

namespace tfgpu::probe {

using nlohmann::json;

namespace {

// The last "tfgpu-stage: <call>" line the child wrote before it died.
std::string last_stage(const std::string& err) {
  std::string stage;
  for (const auto& line : split(err, '\n')) {
    if (starts_with(line, "tfgpu-stage: ")) stage = line.substr(13);
  }
  return stage;
}

std::string first_line_of(const std::string& text) {
  for (const auto& line : split(text, '\n')) {
    if (!trim(line).empty() && !starts_with(line, "tfgpu-stage: ")) return std::string(trim(line));
  }
  return "";
}

// The subdirectories in which ld.so also looks inside each directory (glibc-hwcaps, and
// the legacy tls / platform / hwcap ones glibc < 2.37 still searches) on x86-64.
constexpr const char* kSearchSubdirs[] = {"glibc-hwcaps", "tls", "haswell", "xeon_phi", "x86_64", "avx512_1", "i686"};

// dlopen(name) in the child would certainly fail with "No such file or directory" for
// every name: no entry with that name in any directory the dynamic loader reads, no
// mention of it in /etc/ld.so.cache, nothing preloaded. Conservative: any doubt (a
// relative or empty LD_LIBRARY_PATH element, a hwcaps subdirectory, an unreadable cache,
// another architecture or C library) answers false and the child runs.
bool certainly_not_found(const Host& host, const ProcessSpec& spec, const std::vector<std::string>& names) {
#if defined(__x86_64__) && defined(__GLIBC__)
  if (host.platform() != Platform::kLinux) return false;
  auto child_env = [&](const std::string& key) -> std::optional<std::string> {
    if (auto it = spec.env_overrides.find(key); it != spec.env_overrides.end())
      return it->second.empty() ? std::nullopt : std::optional<std::string>(it->second);
    return host.env(key);
  };
  if (auto preload = child_env("LD_PRELOAD"); preload && !trim(*preload).empty()) return false;
  if (host.lstat("/etc/ld.so.preload")) return false;
  std::vector<std::string> dirs;
  if (auto llp = child_env("LD_LIBRARY_PATH")) {
    for (const auto& d : split(*llp, ':')) {
      if (d.empty() || d[0] != '/') return false;
      dirs.push_back(d);
    }
  }
  for (auto& d : ld_so_default_dir_candidates("x86_64")) dirs.push_back(std::move(d));
  for (const auto& d : dirs) {
    for (const auto& n : names)
      if (host.lstat(d + "/" + n)) return false;
    for (const char* sub : kSearchSubdirs)
      if (host.lstat(d + "/" + sub)) return false;
  }
  if (host.lstat("/etc/ld.so.cache")) {
    auto cache = host.read_file("/etc/ld.so.cache", 64u << 20);
    if (!cache) return false;
    for (const auto& n : names)
      if (cache->find(n) != std::string::npos) return false;
  }
  return true;
#else
  (void)host;
  (void)spec;
  (void)names;
  return false;
#endif
}

}  // namespace

ChildAnswer run_vendor_child(const Host& host, const ProbeOptions& options, VendorLibrary library,
                             const std::string& path) {
  ChildAnswer a;
  a.attempt.library = vendor_library_name(library);
  ProcessSpec spec;
  spec.argv = {options.self_exe.empty() ? host.self_exe() : options.self_exe, "__probe-driver", "--library",
               vendor_library_name(library)};
  if (!path.empty()) {
    spec.argv.push_back("--path");
    spec.argv.push_back(path);
  }
  spec.timeout = options.child_timeout;
  spec.env_overrides = options.child_env;
  keep_child_loader_off_current_dir(host, spec);  // never ./libnvidia-ml.so.1 from an empty LD_LIBRARY_PATH element
  if (path.empty() && options.skip_certainly_absent) {
    // The child's answer is known without starting it (~1.2 ms of CPU each): the same
    // names tried and glibc's own dlerror text for each, as the child would print.
    std::vector<std::string> names = library == VendorLibrary::kNvml         ? nvml::default_candidates(host.platform())
                                     : library == VendorLibrary::kCudaDriver ? gpu::default_cuda_driver_candidates()
                                                                              : std::vector<std::string>{};
    if (!names.empty() && certainly_not_found(host, spec, names)) {
      a.attempt.tried = names;
      for (const auto& n : names) a.attempt.errors.push_back(n + ": cannot open shared object file: No such file or directory");
      a.summary = a.attempt.errors.back();
      return a;
    }
  }
  spec.max_output = 1u << 20;
  auto r = host.run(spec);
  if (!r) {
    a.attempt.init_result = "failed: cannot start the probe child: " + r.error().message;
    a.summary = a.attempt.init_result;
    return a;
  }
  if (r->timed_out || !r->exited) {
    std::string stage = last_stage(r->err);
    a.attempt.init_result = r->timed_out
                                ? fmt::format("timed out after {} ms", options.child_timeout.count())
                                : r->describe();
    if (!stage.empty()) a.attempt.init_result += " in " + stage;
    if (!path.empty()) a.attempt.tried = {path};
    a.summary = a.attempt.library + " " + a.attempt.init_result;
    return a;
  }
  json j = json::parse(r->out, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    // A library that exits (even with 0) while being loaded or initialised is a failure
    // of that library, not the absence of a driver.
    std::string why = first_line_of(r->err);
    std::string stage = last_stage(r->err);
    a.attempt.init_result = fmt::format("failed: the probe child ({}) printed no answer{}{}", r->describe(),
                                        stage.empty() ? "" : " in " + stage, why.empty() ? "" : ": " + why);
    if (!path.empty()) a.attempt.tried = {path};
    a.summary = a.attempt.init_result;
    return a;
  }
  a.json = j;
  auto strings = [&](const char* key) {
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
      for (const auto& v : j[key])
        if (v.is_string()) out.push_back(v.get<std::string>());
    return out;
  };
  a.attempt.tried = strings("tried");
  a.attempt.errors = strings("errors");
  if (j.contains("path") && j["path"].is_string()) a.attempt.opened = j["path"].get<std::string>();
  if (a.attempt.opened.empty() && j.contains("opened") && j["opened"].is_string())
    a.attempt.opened = j["opened"].get<std::string>();
  if (j.contains("init_result") && j["init_result"].is_string()) a.attempt.init_result = j["init_result"].get<std::string>();
  a.ok = j.contains("ok") && j["ok"].is_boolean() && j["ok"].get<bool>();
  if (a.ok) {
    a.summary = a.attempt.library + " ok";
  } else if (a.attempt.opened.empty()) {
    a.summary = a.attempt.errors.empty() ? a.attempt.library + " not loaded" : a.attempt.errors.back();
  } else {
    a.summary = fmt::format("{} {}", a.attempt.opened, a.attempt.init_result);
  }
  return a;
}

}  // namespace tfgpu::probe
