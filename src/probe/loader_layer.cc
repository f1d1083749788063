// The loader's search space on Linux: /etc/ld.so.conf (includes expanded), the
// relevant /etc/ld.so.cache entries and the trusted default dirs, enough for the loader
// model to simulate ld.so without the machine.
#include <fmt/format.h>

#include "binfmt/ld_cache.h"
#include "binfmt/ld_so_conf.h"
#include "probe/probe.h"
#include "probe/runtime_names.h"
#include "probe/windows_installs.h"
#include "util/strings.h"

namespace tfgpu::probe {

void probe_loader(const Host& host, Snapshot& s) {
  LoaderInfo& l = s.loader;
  if (host.platform() == Platform::kWindows) probe_windows_loader(host, s);
  if (host.platform() != Platform::kLinux) {
    l.ld_cache_state = {ProbeStatus::kUnsupported, "no ld.so.cache on this platform", ""};
    return;
  }
  if (auto dirs = binfmt::read_ld_so_conf(host)) {
    l.ld_so_conf_dirs = std::move(*dirs);
  } else {
    s.notes.push_back("ld.so.conf not read: " + dirs.error().message);
  }
  constexpr const char* kCache = "/etc/ld.so.cache";
  auto bytes = host.read_file(kCache, 256u << 20);
  if (!bytes) {
    l.ld_cache_state = {host.exists(kCache) ? ProbeStatus::kFailed : ProbeStatus::kAbsent, bytes.error().message, kCache};
  } else if (auto cache = binfmt::parse_ld_cache(*bytes, kCache)) {
    for (auto& e : cache->entries())
      if (library_component(e.name) != "") l.ld_cache.push_back(std::move(e));
    l.ld_cache_state = {ProbeStatus::kOk,
                        fmt::format("{} of {} entries are CUDA/cuDNN/NVIDIA libraries ({} format)", l.ld_cache.size(),
                                    cache->records.size(), binfmt::ld_cache_format_name(cache->format)),
                        kCache};
  } else {
    l.ld_cache_state = {ProbeStatus::kFailed, cache.error().message, kCache};
  }
  for (const auto& d : ld_so_default_dir_candidates(host.os_release().machine))
    if (host.is_dir(d)) l.default_dirs.push_back(d);
}

std::vector<std::string> ld_so_default_dir_candidates(const std::string& machine) {
  // ld.so(8): after the cache, the trusted default paths; multiarch (Debian) dirs first.
  std::vector<std::string> dirs;
  if (!machine.empty()) {
    std::string triplet = machine + "-linux-gnu";
    dirs.push_back("/lib/" + triplet);
    dirs.push_back("/usr/lib/" + triplet);
  }
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) dirs.push_back(d);
  return dirs;
}

}  // namespace tfgpu::probe
