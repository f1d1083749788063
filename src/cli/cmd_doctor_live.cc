// The live machine for `tfgpu doctor`: the probe fills the Snapshot; the permissions of
// the library search folders (for the library-planting rule) are added here when the
// probe did not record them.
#include "cli/command.h"
#include "kb/kb.h"
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

Result<Snapshot> doctor_live_snapshot(const Host&, const kb::KnowledgeBase&) {
  // The probe (branch `probe`) is not merged into this build yet.
  return fail(Error::internal("probing this machine is not available in this build yet; run `tfgpu probe --json > s.json` "
                              "with a build that has it, then `tfgpu doctor --snapshot s.json`"));
}

}  // namespace tfgpu
