// The Windows loader's DLL search, following Microsoft's "Dynamic-link library search
// order" (https://learn.microsoft.com/windows/win32/dlls/dynamic-link-library-search-order),
// SetDllDirectoryW, AddDllDirectory and SetDefaultDllDirectories / LoadLibraryExW
// (learn.microsoft.com/windows/win32/api/libloaderapi/...). Behaviour observed under
// Wine 8 is in shared/facts/windows-build-and-mocks.md §3a; the Wine differential test
// belongs to the Windows issue.

#include "loader/load_library.h"

#include <algorithm>
#include <deque>

#include "loader/file_index.h"
#include "util/strings.h"

namespace tfgpu::loader {

namespace {

bool has_separator(std::string_view s) { return s.find_first_of("\\/") != std::string_view::npos; }

// LoadLibrary: "If the string specifies a module name without a path and the file name
// extension is omitted, the function appends the default library extension .dll".
std::string with_extension(const std::string& name) {
  std::string base = base_name(name, PathStyle::kWindows);
  if (base.find('.') != std::string::npos) return name;
  return name + ".dll";
}

std::string join_dir(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  char last = dir.back();
  return (last == '\\' || last == '/') ? dir + name : dir + "\\" + name;
}

// "cudart64_110.dll" -> "cudart": other files with this stem are other versions.
std::string dll_stem(std::string_view name) {
  std::string s = to_lower(name);
  if (ends_with(s, ".dll")) s.resize(s.size() - 4);
  while (!s.empty() && ((s.back() >= '0' && s.back() <= '9') || s.back() == '_')) s.pop_back();
  return s;
}

std::string norm_pe_machine(std::string_view m) {
  std::string s = to_lower(m);
  if (s == "amd64" || s == "x86-64" || s == "x86_64") return "x64";
  if (s == "i386" || s == "i686") return "x86";
  if (s == "aarch64") return "arm64";
  return s;
}

struct State {
  bool done = false;
  bool other_bitness = false;  // a DLL of the wrong bitness was seen and passed over
  bool unknown = false;
};

}  // namespace

WindowsLoader::WindowsLoader(const Snapshot& snapshot, WindowsProcess process, LoadLibraryOptions options)
    : snapshot_(&snapshot),
      process_(std::move(process)),
      options_(std::move(options)),
      index_(std::make_shared<FileIndex>(snapshot.libraries, PathStyle::kWindows)) {}

Result<WindowsLoader> WindowsLoader::create(const Snapshot& snapshot, WindowsProcess process,
                                            LoadLibraryOptions options) {
  if (process.app_dir.empty()) return fail(Error::input("loader model: the process has no application directory"));
  if (snapshot.loader.system_dir.empty())
    return fail(Error::input("loader model: the snapshot has no Windows system directory (System32)"));
  if (process.bits != 32 && process.bits != 64)
    return fail(Error::input("loader model: process bitness must be 32 or 64, not " + std::to_string(process.bits)));
  return WindowsLoader(snapshot, std::move(process), std::move(options));
}

namespace {

class WinSearcher {
 public:
  WinSearcher(const Snapshot& snap, const FileIndex& index, const LoadLibraryOptions& options, const WindowsProcess& p)
      : snap_(snap), index_(index), options_(options), p_(p) {}

  Resolution find(const std::string& requested, SearchFlags flags, std::string_view dll_load_dir) const {
    Resolution r;
    r.name = requested;
    std::string name = with_extension(requested);
    State st;
    if (has_separator(name)) {
      // A path: no search. The loaded-module list is checked by full path.
      for (const auto& m : p_.loaded)
        if (index_.key(m.path) == index_.key(name)) return already(r, m.path, "loaded from this path");
      try_file(r, st, "path given", "", name);
      finish(r, st);
      return r;
    }
    // Search order steps 4-5 ("Loaded-module list", "Known DLLs"): a module of that base
    // name already loaded is reused (Wine §3a: "module reused by base name"); a KnownDLL
    // always comes from the system directory.
    for (const auto& m : p_.loaded)
      if (iequals(base_name(m.path, PathStyle::kWindows), name)) return already(r, m.path, "module of that name loaded");
    if (starts_with(to_lower(name), "api-ms-win-") || starts_with(to_lower(name), "ext-ms-")) {
      r.outcome = Outcome::kFound;
      r.trail.push_back({"API set", "", name, Why::kKnownDll, "resolved by the loader's API set schema"});
      return r;
    }
    for (const auto& k : snap_.loader.known_dlls)
      if (iequals(k, name)) {
        r.outcome = Outcome::kFound;
        r.path = join_dir(snap_.loader.system_dir, name);
        r.file = index_.resolve(r.path, nullptr);
        r.trail.push_back({"KnownDLLs", snap_.loader.system_dir, r.path, Why::kKnownDll, ""});
        return r;
      }
    for (const auto& [source, dir] : directories(flags, dll_load_dir)) {
      if (dir.empty()) {
        r.trail.push_back({source, "", "", Why::kUnknown, "directory unknown"});
        st.unknown = true;
        continue;
      }
      try_file(r, st, source, dir, join_dir(dir, name));
      if (st.done) return r;
    }
    finish(r, st);
    return r;
  }

  std::vector<std::pair<std::string, std::string>> directories(SearchFlags flags, std::string_view dll_load_dir) const {
    std::vector<std::pair<std::string, std::string>> dirs;
    const auto& L = snap_.loader;
    const unsigned search_bits = 0x100 | 0x200 | 0x400 | 0x800 | 0x1000;
    if ((static_cast<unsigned>(flags) & search_bits) != 0) {
      // SetDefaultDllDirectories / LoadLibraryExW: "If more than one flag is specified, the
      // directories are searched in the following order: the directory that contains the
      // DLL (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR) ..., the application directory, paths added
      // with AddDllDirectory or SetDllDirectory (LOAD_LIBRARY_SEARCH_USER_DIRS), the system
      // directory." Directories in the standard search path (cwd, PATH) are not searched.
      bool defaults = has_flag(flags, SearchFlags::kDefaultDirs);
      if (has_flag(flags, SearchFlags::kDllLoadDir) && !dll_load_dir.empty())
        dirs.push_back({"DLL's directory", std::string(dll_load_dir)});
      if (defaults || has_flag(flags, SearchFlags::kApplicationDir)) dirs.push_back({"application dir", p_.app_dir});
      if (defaults || has_flag(flags, SearchFlags::kUserDirs)) {
        // "the order in which those directories are searched is unspecified": call order here.
        for (const auto& d : p_.user_dirs) dirs.push_back({"AddDllDirectory", d});
        if (p_.dll_directory && !p_.dll_directory->empty()) dirs.push_back({"SetDllDirectory", *p_.dll_directory});
      }
      if (defaults || has_flag(flags, SearchFlags::kSystem32)) dirs.push_back({"System32", L.system_dir});
      return dirs;
    }
    // Standard order for desktop applications. LOAD_WITH_ALTERED_SEARCH_PATH with a full
    // path: the DLL's directory takes the application directory's place.
    bool altered = has_flag(flags, SearchFlags::kAlteredSearchPath) && !dll_load_dir.empty();
    dirs.push_back({altered ? "DLL's directory" : "application dir", altered ? std::string(dll_load_dir) : p_.app_dir});
    // SetDllDirectoryW(dir): dir after the application directory and the current directory
    // dropped; SetDllDirectoryW(L"") only drops the current directory (Wine keeps it, §3a).
    bool cwd_dropped = p_.dll_directory.has_value();
    if (p_.dll_directory && !p_.dll_directory->empty()) dirs.push_back({"SetDllDirectory", *p_.dll_directory});
    // SafeDllSearchMode disabled: the current directory comes right after the application dir.
    if (!L.safe_dll_search_mode && !cwd_dropped) dirs.push_back({"current dir", p_.cwd});
    dirs.push_back({"System32", L.system_dir});
    if (!L.windows_dir.empty()) {
      dirs.push_back({"16-bit system dir", join_dir(L.windows_dir, "System")});
      dirs.push_back({"Windows dir", L.windows_dir});
    }
    if (L.safe_dll_search_mode && !cwd_dropped) dirs.push_back({"current dir", p_.cwd});
    for (const auto& d : split_nonempty(p_.path_env, ';')) dirs.push_back({"PATH", std::string(trim(d))});
    return dirs;
  }

 private:
  Resolution& already(Resolution& r, const std::string& path, const std::string& detail) const {
    r.outcome = Outcome::kFound;
    r.path = path;
    r.file = index_.resolve(path, nullptr);
    r.trail.push_back({"loaded modules", "", path, Why::kAlreadyLoaded, detail});
    return r;
  }

  bool probed(const std::string& name) const { return !options_.probed_name || options_.probed_name(name); }

  void try_file(Resolution& r, State& st, const std::string& source, const std::string& dir,
                const std::string& path) const {
    const LibraryFile* f = index_.resolve(path, nullptr);
    Step step{source, dir, path, Why::kAbsent, ""};
    if (!f) {
      std::string name = base_name(path, PathStyle::kWindows);
      if (!probed(name)) {
        step.why = Why::kUnknown;
        step.detail = "not looked for by the probe";
        st.unknown = true;
      } else if (!dir.empty()) {
        std::vector<std::string> others;
        std::string stem = dll_stem(name);
        if (stem.size() >= 3)
          for (const auto& n : index_.names_in(dir))
            if (!iequals(n, name) && dll_stem(n) == stem) others.push_back(n);
        std::sort(others.begin(), others.end());
        if (others.size() > 3) others.resize(3);
        if (!others.empty()) {
          step.why = Why::kOtherVersion;
          step.detail = "has " + join(others, ", ");
        }
      }
      r.trail.push_back(step);
      return;
    }
    if (header_state(*f) == HeaderState::kUnknown) {
      // There, but its headers were not read: LoadLibrary would most likely map it, or
      // fail on it; the snapshot cannot tell which.
      step.why = Why::kUnknown;
      step.detail = "headers not read" + (f->error.empty() ? std::string() : ": " + f->error);
      r.trail.push_back(step);
      r.outcome = Outcome::kUnknown;
      r.path = path;
      r.file = f;
      r.error = r.name + ": " + step.detail;
      st.unknown = true;
      st.done = true;
      return;
    }
    if (!f->error.empty() || (!f->format.empty() && f->format != "pe")) {
      bool denied = header_state(*f) == HeaderState::kUnreadable;
      step.why = denied ? Why::kUnreadable : Why::kInvalid;
      step.detail = f->error.empty() ? "not a PE image" : f->error;
      r.trail.push_back(step);
      // An image that cannot be mapped ends the load (ERROR_BAD_EXE_FORMAT 193 /
      // ERROR_ACCESS_DENIED 5): the loader does not look further.
      r.outcome = Outcome::kFailed;
      r.path = path;
      r.file = f;
      r.error = r.name + (denied ? ": access denied (5)" : ": is not a valid Win32 application (193)");
      st.done = true;
      return;
    }
    if (f->pe.bits != 0 && f->pe.bits != p_.bits) {
      // A DLL of the other bitness is passed over and the search continues (the loader
      // skips images whose machine does not match for the process; Wine does the same in
      // search_dll_file). Only when nothing else is found does the load fail with 193.
      step.why = Why::kWrongClass;
      step.detail = std::to_string(f->pe.bits) + "-bit";
      st.other_bitness = true;
      r.trail.push_back(step);
      return;
    }
    std::string m = norm_pe_machine(f->pe.machine), want = norm_pe_machine(p_.machine);
    if (!m.empty() && !want.empty() && m != want) {
      step.why = Why::kWrongMachine;
      step.detail = f->pe.machine;
      st.other_bitness = true;
      r.trail.push_back(step);
      return;
    }
    step.why = Why::kChosen;
    r.trail.push_back(step);
    r.outcome = Outcome::kFound;
    r.path = path;
    r.file = f;
    st.done = true;
  }

  void finish(Resolution& r, const State& st) const {
    if (st.done) return;
    if (st.other_bitness && !st.unknown) {
      r.outcome = Outcome::kFailed;
      r.error = r.name + ": is not a valid Win32 application (193)";
      return;
    }
    r.outcome = st.unknown ? Outcome::kUnknown : Outcome::kNotFound;
    // The text TensorFlow's DSO loader reports on Windows ("<file> not found") with the
    // Win32 error code of LoadLibrary (ERROR_MOD_NOT_FOUND).
    r.error = r.name + " not found (126)";
  }

  const Snapshot& snap_;
  const FileIndex& index_;
  const LoadLibraryOptions& options_;
  const WindowsProcess& p_;
};

}  // namespace

Resolution WindowsLoader::find(const std::string& name, SearchFlags flags, std::string_view dll_load_dir) const {
  WinSearcher s(*snapshot_, *index_, options_, process_);
  return s.find(name, flags, dll_load_dir);
}

namespace {

LoadResult load_with_imports(const Snapshot& snap, const FileIndex& index, const LoadLibraryOptions& options,
                             WindowsProcess& process, const std::string& name, SearchFlags flags) {
  WindowsProcess p = process;
  LoadResult out;
  std::string root_dir = has_separator(name) ? dir_name(name, PathStyle::kWindows) : "";
  {
    WinSearcher s(snap, index, options, p);
    out.root = s.find(name, flags, root_dir);
  }
  if (out.root.outcome != Outcome::kFound) {
    out.outcome = out.root.outcome;
    out.error = out.root.error;
    return out;
  }
  auto chosen = [](const Resolution& r) { return r.trail.back().why == Why::kChosen; };
  if (!chosen(out.root)) {
    out.outcome = Outcome::kFound;
    return out;
  }
  // Imports are resolved with the same search: LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR puts the
  // loaded DLL's directory first for its dependencies; LOAD_WITH_ALTERED_SEARCH_PATH
  // searches from that directory instead of the application's.
  std::string deps_dir = dir_name(out.root.path, PathStyle::kWindows);
  std::deque<WindowsModule> queue;
  auto add = [&](const Resolution& r) {
    WindowsModule m{r.path, r.file ? r.file->pe : PeInfo{}};
    p.loaded.push_back(m);
    queue.push_back(m);
  };
  add(out.root);
  while (!queue.empty()) {
    WindowsModule m = queue.front();
    queue.pop_front();
    for (const auto& imp : m.pe.imports) {
      WinSearcher s(snap, index, options, p);
      Resolution r = s.find(imp, flags, deps_dir);
      Outcome o = r.outcome;
      bool is_new = o == Outcome::kFound && !r.trail.empty() && r.trail.back().why == Why::kChosen;
      std::string error = r.error;
      out.closure.push_back({m.path, r});
      if (is_new) add(r);
      if (o == Outcome::kNotFound || o == Outcome::kFailed) {
        // A missing import fails the whole load; TensorFlow then names the root DLL
        // ("cudnn64_8.dll not found") although a dependency is what is missing.
        out.outcome = Outcome::kFailed;
        out.error = error;
        return out;
      }
    }
  }
  process = std::move(p);
  out.outcome = Outcome::kFound;
  return out;
}

}  // namespace

LoadResult WindowsLoader::load_library(const std::string& name, SearchFlags flags) {
  return load_with_imports(*snapshot_, *index_, options_, process_, name, flags);
}

LoadResult WindowsLoader::import_extension_module(const std::string& path, int python_minor) {
  // CPython >= 3.8 (Python/dynload_win.c): LoadLibraryExW(path, NULL,
  // LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR), so PATH and the
  // current directory are not searched for the module's imports; os.add_dll_directory
  // adds to the user dirs. Before 3.8: LOAD_WITH_ALTERED_SEARCH_PATH (PATH searched).
  SearchFlags flags = python_minor >= 8 ? (SearchFlags::kDefaultDirs | SearchFlags::kDllLoadDir)
                                        : SearchFlags::kAlteredSearchPath;
  return load_with_imports(*snapshot_, *index_, options_, process_, path, flags);
}

}  // namespace tfgpu::loader
