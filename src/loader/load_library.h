#pragma once
// A model of the Windows loader's DLL search (LoadLibraryExW, the import closure) over
// Snapshot data: the standard search order with SafeDllSearchMode, SetDllDirectory,
// KnownDLLs, the loaded-module list, the LOAD_LIBRARY_SEARCH_* flags that Python >= 3.8
// uses for extension modules (with os.add_dll_directory), wrong bitness skipped.
// Pure: reads only the Snapshot and the WindowsProcess. Sources are cited in the .cc.

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

// LoadLibraryExW dwFlags that change the search (values as in the Windows SDK).
enum class SearchFlags : unsigned {
  kNone = 0,                       // standard search order
  kAlteredSearchPath = 0x8,        // LOAD_WITH_ALTERED_SEARCH_PATH: an absolute name's dir replaces the app dir
  kDllLoadDir = 0x100,             // LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR
  kApplicationDir = 0x200,         // LOAD_LIBRARY_SEARCH_APPLICATION_DIR
  kUserDirs = 0x400,               // LOAD_LIBRARY_SEARCH_USER_DIRS (AddDllDirectory / os.add_dll_directory)
  kSystem32 = 0x800,               // LOAD_LIBRARY_SEARCH_SYSTEM32
  kDefaultDirs = 0x1000,           // LOAD_LIBRARY_SEARCH_DEFAULT_DIRS = application dir + user dirs + System32
};
constexpr SearchFlags operator|(SearchFlags a, SearchFlags b) {
  return static_cast<SearchFlags>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr bool has_flag(SearchFlags set, SearchFlags f) {
  return (static_cast<unsigned>(set) & static_cast<unsigned>(f)) != 0;
}

struct WindowsModule {
  std::string path;  // full path of a module already in the process
  PeInfo pe;
};

// The process the search happens in (python.exe for TensorFlow).
struct WindowsProcess {
  std::string app_dir;                      // directory of the .exe
  int bits = 64;                            // 64 / 32
  std::string machine = "x64";              // "x64", "x86", "arm64"
  std::string cwd;                          // current directory
  std::string path_env;                     // %PATH% as set
  std::vector<std::string> user_dirs;       // AddDllDirectory / os.add_dll_directory, in call order
  std::optional<std::string> dll_directory; // SetDllDirectoryW (nullopt: never called)
  std::vector<WindowsModule> loaded;        // the loaded-module list
};

struct LoadLibraryOptions {
  // As LdSoOptions::probed_name: nullptr = the snapshot lists every file.
  std::function<bool(std::string_view file_name)> probed_name;
};

class WindowsLoader {
 public:
  // The snapshot must outlive the loader (its LoaderInfo gives System32, Windows dir,
  // KnownDLLs, SafeDllSearchMode). kInput when app_dir or the system dir is missing.
  static Result<WindowsLoader> create(const Snapshot& snapshot, WindowsProcess process, LoadLibraryOptions options = {});

  // Where the loader finds `name` (the search alone). `dll_load_dir` is the directory of
  // the DLL whose imports are being resolved (for kDllLoadDir / kAlteredSearchPath).
  Resolution find(const std::string& name, SearchFlags flags, std::string_view dll_load_dir = {}) const;

  // LoadLibraryExW(name, NULL, flags): the search, then the import closure (resolved with
  // the same flags, as the loader does). New modules join the process on success.
  LoadResult load_library(const std::string& name, SearchFlags flags = SearchFlags::kNone);

  // How CPython >= 3.8 imports an extension module (.pyd): LoadLibraryExW(path, NULL,
  // LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR); older Pythons
  // use LOAD_WITH_ALTERED_SEARCH_PATH. `python_minor` is 3.x's x.
  LoadResult import_extension_module(const std::string& path, int python_minor);

  const WindowsProcess& process() const { return process_; }

 private:
  WindowsLoader(const Snapshot& snapshot, WindowsProcess process, LoadLibraryOptions options);
  const Snapshot* snapshot_;
  WindowsProcess process_;
  LoadLibraryOptions options_;
  std::shared_ptr<const FileIndex> index_;
};

}  // namespace tfgpu::loader
