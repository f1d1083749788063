#pragma once
// A model of glibc's dynamic loader (ld.so(8), elf/dl-load.c) over Snapshot data:
// which file dlopen(name) or a DT_NEEDED entry resolves to in a given process, why
// every earlier place was passed over, and the DT_NEEDED closure. Pure: it reads only
// the Snapshot and the LinuxProcess it is given. Checked against the real loader by
// tests/loader_ld_so_differential_posix_test.cc.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loader/trail.h"
#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::loader {

class FileIndex;

// One object in the process's link map, with what ld.so uses of it.
struct LinuxObject {
  std::string path;   // l_name: as the loader opened it; the main program's real path
  ElfInfo elf;        // SONAME, DT_NEEDED, DT_RPATH, DT_RUNPATH, class, machine
  int loaded_by = -1; // index of the object whose DT_NEEDED loaded it (l_loader); -1 for the main program
                      // and for objects loaded by dlopen (glibc keeps no loader for those)
  std::vector<std::string> names;  // names it was requested by (DT_NEEDED entries, dlopen arguments)
};

// The process the search happens in.
struct LinuxProcess {
  std::vector<LinuxObject> objects;  // [0] is the main program, the rest in link map order
  int caller = 0;                    // the object that calls dlopen: its DT_RPATH/DT_RUNPATH and $ORIGIN count
  std::string cwd;                   // for relative search dirs (an empty LD_LIBRARY_PATH entry means cwd)
  std::optional<std::string> ld_library_path;  // as it was at process start (nullopt: unset)
  std::string lib_token;             // what $LIB expands to; "" = derived from the snapshot (docs/loader-model.md)
  std::string platform_token;        // what $PLATFORM expands to; "" = the snapshot's host arch
  std::vector<std::string> hwcaps_subdirs;  // tried inside each search dir first ("glibc-hwcaps/x86-64-v3", ...)
};

// Which names the snapshot can speak for.
struct LdSoOptions {
  // nullptr: the snapshot lists every file (tests). Otherwise a name it rejects was not
  // looked for by the probe, so its absence is kUnknown rather than kNotFound.
  std::function<bool(std::string_view file_name)> probed_name;
};

class LdSo {
 public:
  // The snapshot must outlive the LdSo. kInput when the process is malformed (no main
  // program, caller or loaded_by out of range).
  static Result<LdSo> create(const Snapshot& snapshot, LinuxProcess process, LdSoOptions options = {});

  // Where ld.so finds `name` when objects[requester] asks for it (the search alone:
  // already loaded objects, then DT_RPATH chain, LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache,
  // default dirs; a name with a '/' is opened as given after $ORIGIN/$LIB/$PLATFORM expansion).
  Resolution find(const std::string& name, int requester) const;

  // dlopen(name) called from process().caller: the search, then the DT_NEEDED closure
  // breadth first. When everything is found the new objects join the process, so later
  // loads see them as a real process would; on failure the process is unchanged.
  LoadResult dlopen(const std::string& name);
  // The same, called from objects[caller] instead of process().caller.
  LoadResult dlopen_from(int caller, const std::string& name);

  // Index of the loaded object whose path (as loaded) is `path`; -1 when none.
  int index_of(std::string_view path) const;

  const LinuxProcess& process() const { return process_; }

 private:
  LdSo(const Snapshot& snapshot, LinuxProcess process, LdSoOptions options);
  const Snapshot* snapshot_;
  LinuxProcess process_;
  LdSoOptions options_;
  std::shared_ptr<const FileIndex> index_;
  // The search lists of the objects already in process_ (they never change once an
  // object is in), so repeated find()/dlopen() calls do not re-expand every DT_RUNPATH.
  // A copy starts empty (the copies' processes may diverge); moves keep it.
  struct SearchMemo;
  struct MemoSlot {
    MemoSlot();
    MemoSlot(const MemoSlot&);
    MemoSlot& operator=(const MemoSlot&);
    MemoSlot(MemoSlot&&) noexcept = default;
    MemoSlot& operator=(MemoSlot&&) noexcept = default;
    ~MemoSlot();
    std::shared_ptr<SearchMemo> memo;
  };
  MemoSlot memo_;
};

// The ld.so.cache lookup alone: the first entry for `name` whose arch matches the
// process (`elf_class_bits`, `machine` as in ElfInfo). nullptr when none.
const LdCacheEntry* ld_cache_lookup(const LoaderInfo& loader, std::string_view name, int elf_class_bits,
                                    std::string_view machine);

// $ORIGIN / ${ORIGIN}, $LIB, $PLATFORM in one DT_RPATH / DT_RUNPATH / LD_LIBRARY_PATH
// element. nullopt when the element must be dropped (ld.so drops an element whose
// $ORIGIN cannot be known, e.g. an empty origin).
std::optional<std::string> expand_dst(std::string_view element, std::string_view origin, std::string_view lib_token,
                                      std::string_view platform_token);

// What ld.so substitutes for $PLATFORM (glibc's GLRO(dl_platform)) on the machine of
// `host`: the kernel's AT_PLATFORM (`uname -m` on x86-64), which glibc >= 2.26 replaces on
// Intel x86-64 CPUs by "xeon_phi" or "haswell" from the CPU's features (docs/loader-model.md).
// Feature flags the snapshot does not know leave AT_PLATFORM.
std::string ld_so_platform(const HostInfo& host);

// "/a/b/../c/./d" -> "/a/c/d" (lexical, as the snapshot records canonical paths).
std::string normalize_path(std::string_view path);

}  // namespace tfgpu::loader
