#pragma once
// What the loader model answers for one library name: the file the platform loader
// would choose and the trail (every place tried, in order, and why each was passed
// over), then the dependency closure of what was found. Shared by the Linux (ld.so)
// and Windows (LoadLibrary) models; docs/loader-model.md explains the semantics.

#include <string>
#include <vector>

#include "snapshot/snapshot.h"

namespace tfgpu::loader {

// Why the loader stopped at, or went past, one place.
enum class Why {
  kChosen,         // the file is there and loadable: the search ends here
  kAlreadyLoaded,  // an object already in the process answers to the name: no search at all
  kKnownDll,       // Windows: the name is a KnownDLL, System32's copy is used
  kAbsent,         // no such file there
  kOtherVersion,   // no such file, but other versions of the same library are there (detail names them)
  kWrongClass,     // ELF class / PE bitness differs from the process: skipped
  kWrongMachine,   // ELF e_machine / PE machine differs from the process: skipped
  kUnreadable,     // the file exists but cannot be opened (permission): skipped
  kInvalid,        // the file exists but is not a loadable library: the loader fails here
  kNotInCache,     // ld.so.cache has no entry for the name and the process's architecture
  kUnknown,        // the snapshot cannot say (directory not listed by the probe)
};
const char* to_string(Why why);

// What the snapshot knows of a file's headers (LibraryFile::headers; for snapshots older
// than that field, derived from error / format as they were written then).
enum class HeaderState { kRead, kInvalid, kUnreadable, kUnknown };
HeaderState header_state(const LibraryFile& f);  // "chosen", "already_loaded", "absent", "wrong_class", ...

// One place tried.
struct Step {
  std::string source;  // what put the place on the list: "DT_RPATH of /x/libtf.so.2", "LD_LIBRARY_PATH",
                       // "DT_RUNPATH of ...", "ld.so.cache", "default dirs", "application dir", "System32", "PATH"
  std::string dir;     // the directory as searched ("" for the cache / loaded list / a path given in full)
  std::string path;    // the file tried, as the loader spells it
  Why why = Why::kAbsent;
  std::string detail;  // "ELFCLASS32", "has libcudart.so.12", "permission denied"
};

enum class Outcome {
  kFound,     // a file was chosen (or an already loaded object answered)
  kNotFound,  // every place was tried and none had a loadable file
  kFailed,    // the loader stopped with an error (invalid file; Windows: wrong bitness only)
  kUnknown,   // not found in the snapshot, but the snapshot cannot rule the file out
};
const char* to_string(Outcome o);  // "found", "not_found", "failed", "unknown"

// The answer for one name.
struct Resolution {
  std::string name;            // as requested (a DT_NEEDED entry, a dlopen argument, a DLL name)
  Outcome outcome = Outcome::kNotFound;
  std::string path;            // the chosen file as the loader spells it (ld.so: the link map's l_name)
  const LibraryFile* file = nullptr;  // the snapshot's record of the chosen file (nullptr: not in the snapshot,
                                      // e.g. an already loaded object the probe did not record)
  std::vector<Step> trail;     // in search order; the last step is the chosen one when found
  std::string error;           // the loader's own wording when not found ("libx.so.1: cannot open shared
                               // object file: No such file or directory", "cudart64_110.dll not found (126)")
};

// One library pulled in by the root (DT_NEEDED / PE imports), in load order.
struct Dependency {
  std::string needed_by;  // path of the object whose DT_NEEDED / import table names it
  Resolution resolution;
};

// The answer for loading one name: the root and its dependency closure.
struct LoadResult {
  Resolution root;
  std::vector<Dependency> closure;  // breadth first, as the loader maps them; already loaded ones included
  Outcome outcome = Outcome::kNotFound;  // kFound only when the root and every dependency are found
  std::string error;  // the first failure as the loader reports it (may name a dependency, not the root)
  // The paths newly mapped by this load (root first), as the loader spells them.
  std::vector<std::string> newly_loaded() const;
};

// One line per step, for reports and test failure messages:
// "  LD_LIBRARY_PATH  /opt/a/libx.so.1  wrong_class (ELFCLASS32)".
std::string render_trail(const Resolution& r);

}  // namespace tfgpu::loader
