// The live machine for `tfgpu doctor`: the probe fills the Snapshot; the permissions of
// the library search folders (for the library-planting rule) are added here when the
// probe did not record them.
#include <chrono>
#include <ctime>
#include <functional>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "cli/command.h"
#include "kb/kb.h"
#include "probe/probe.h"
#include "snapshot/snapshot.h"
#include "util/error.h"
#include "util/strings.h"

namespace tfgpu {

// Fills snapshot.search_dirs from PATH / LD_LIBRARY_PATH through the host (POSIX mode
// bits; Windows ACLs are not read here, so they stay unknown).
void add_search_dir_permissions(const Host& host, Snapshot& s) {
  if (!s.search_dirs.empty()) return;
  bool windows = s.host.os == "windows";
  for (const char* var : {"PATH", "LD_LIBRARY_PATH"}) {
    auto it = s.env.find(var);
    if (it == s.env.end()) continue;
    for (const auto& dir : split_nonempty(it->second, windows ? ';' : ':')) {
      SearchDirInfo d;
      d.path = dir;
      if (auto st = host.stat(dir); st && st->type == FileType::kDirectory && !windows) {
        d.world_writable = (st->mode & 0002) ? Tri::kYes : Tri::kNo;
        d.source = "stat";
      }
      s.search_dirs.push_back(d);
    }
  }
}

// `kb` is asked only when a GPU needs a name (doctor parses the KB on another thread
// meanwhile; null = no KB, the GPU keeps its PCI ids).
Result<Snapshot> doctor_live_snapshot(const Host& host, const std::function<const kb::KnowledgeBase*()>& kb,
                                      const std::vector<std::string>& extra_pythons) {
  probe::ProbeOptions o;
  o.extra_pythons = extra_pythons;  // `tfgpu verify --python PATH`: that interpreter too
  // GPUs seen only on the PCI bus (no driver) get their name and compute capability from the KB.
  o.name_gpu = [&kb](uint16_t vendor, uint16_t device) -> std::optional<probe::GpuFacts> {
    const kb::KnowledgeBase* k = kb();
    if (const kb::Gpu* g = k ? k->find_gpu(vendor, device) : nullptr) return probe::GpuFacts{g->name, g->cc.str()};
    return std::nullopt;
  };
  o.tool_version = TFGPU_VERSION;
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  o.created_at = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(t));
  Snapshot s = probe::probe_machine(host, o);
  add_search_dir_permissions(host, s);
  return s;
}

Result<Snapshot> doctor_live_snapshot(const Host& host, const kb::KnowledgeBase& kb,
                                      const std::vector<std::string>& extra_pythons) {
  return doctor_live_snapshot(host, [&kb] { return &kb; }, extra_pythons);
}

}  // namespace tfgpu
