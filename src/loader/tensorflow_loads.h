#pragma once
// What TensorFlow loads, and from where: the library names TF opens for its version
// and platform (given by the caller from the KB, plus the names in TF's own
// build_info), the process they are opened in (TF's own objects with their RPATH /
// RUNPATH entries that point at site-packages/nvidia/*/lib; python.exe's dir and PATH
// on Windows), and the simulated loads in TF's order. No version facts live here.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.h"  // Platform
#include "loader/ld_so.h"
#include "loader/load_library.h"
#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::loader {

// One library TF opens at run time.
struct WantedLibrary {
  std::string component;   // "cudart", "cudnn", "driver", "msvcp140", ...
  std::string file;        // exact name opened: "libcudnn.so.8", "cudart64_110.dll"
  bool must_load = false;  // in the set that must all load, or TF skips GPU registration
  std::string named_by;    // "kb" | "build_info"
};

// The KB's names for a TF release and platform (kb::TfLibraries entries map 1:1 onto
// `kb` here), merged with the *_dll_name / msvcp_dll_names keys of TF's build_info.
// A build_info name that differs from the KB's for the same component is kept out of
// the list and reported in `notes` (TF's Windows cudart_dll_name is known to be wrong).
struct TfLibraryList {
  std::vector<WantedLibrary> libraries;  // KB order (driver first), then build_info-only names
  std::vector<std::string> notes;
};
TfLibraryList tensorflow_libraries(const TensorflowInstall& tf, Platform platform, const std::vector<WantedLibrary>& kb);

// The dynamic symbols that mark TF's DSO loader: the function whose dlopen() opens the
// CUDA libraries (tsl/platform/default/load_library.cc LoadDynamicLibrary; before TSL,
// tensorflow/core/platform/default/load_library.cc). Mangled, as DT_GNU_HASH holds them.
const std::vector<std::string>& tensorflow_dso_loader_symbols();

// Which of TF's own objects calls dlopen for the libraries TF's DSO loader opens (so
// whose DT_RUNPATH is searched), and why; path "" when the snapshot cannot say.
struct DlopenCaller {
  std::string path;
  std::string reason;
};
DlopenCaller tensorflow_dlopen_caller(const Snapshot& snapshot, const TensorflowInstall& tf);

// The process TF's dlopen / LoadLibrary calls happen in.
struct TfProcess {
  Platform platform = Platform::kLinux;
  LinuxProcess linux_process;  // when platform == kLinux: python, TF's .so files with their RPATH/RUNPATH
  WindowsProcess windows_process;  // when platform == kWindows: python.exe's dir, PATH, cwd
  std::vector<std::string> rpath_dirs;  // TF's RPATH/RUNPATH entries expanded ($ORIGIN resolved), in order
  std::vector<std::string> notes;       // what could not be known ("libtensorflow_framework.so.2 not in snapshot")
};
// From the snapshot: the Python env's executable, TF's location and the TF library
// files the probe recorded (component "tensorflow"). kInput when `tf` has no location.
Result<TfProcess> tensorflow_process(const Snapshot& snapshot, const PythonEnv& python, const TensorflowInstall& tf);

struct TfLoad {
  WantedLibrary wanted;
  LoadResult result;
};
struct TfLoadReport {
  std::vector<TfLoad> loads;  // in the order given
  bool all_must_load_found = false;  // every must_load library and its closure found
  std::vector<std::string> notes;
};
// Loads each library in order in one simulated process (a library loaded earlier is
// already there for later ones, as in TF). `probed_name` as in LdSoOptions.
TfLoadReport simulate_tensorflow_loads(const Snapshot& snapshot, const TfProcess& process,
                                       const std::vector<WantedLibrary>& libraries,
                                       const std::function<bool(std::string_view)>& probed_name = nullptr);

}  // namespace tfgpu::loader
