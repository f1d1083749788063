// libFuzzer target for the loader models: the input describes a snapshot and a process
// (one library per line: "path|soname|needed,..|rpath|runpath|bits|symlink", then
// "LLP=..." and "NAME=..." lines); both models must answer every name without crashing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "loader/ld_so.h"
#include "loader/load_library.h"
#include "util/strings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfgpu;
  using namespace tfgpu::loader;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Snapshot s;
  s.loader.default_dirs = {"/lib", "/usr/lib"};
  s.loader.system_dir = "C:\\Windows\\System32";
  s.loader.windows_dir = "C:\\Windows";
  LinuxProcess p;
  p.objects.push_back({"/usr/bin/python3", {64, "x86-64", "", {}, {}, {}}, -1, {}});
  WindowsProcess w;
  w.app_dir = "C:\\Python";
  std::vector<std::string> names;
  for (const auto& line : split(text, '\n')) {
    if (starts_with(line, "LLP=")) {
      p.ld_library_path = line.substr(4);
      w.path_env = line.substr(4);
      continue;
    }
    if (starts_with(line, "NAME=")) {
      names.push_back(line.substr(5));
      continue;
    }
    auto f = split(line, '|');
    if (f.size() < 2 || s.libraries.size() > 64) continue;
    LibraryFile lib;
    lib.path = f[0];
    lib.format = "elf";
    lib.elf.soname = f[1];
    if (f.size() > 2) lib.elf.needed = split_nonempty(f[2], ',');
    if (f.size() > 3) lib.elf.rpath = {f[3]};
    if (f.size() > 4) lib.elf.runpath = {f[4]};
    lib.elf.bits = f.size() > 5 && f[5] == "32" ? 32 : 64;
    if (f.size() > 6) lib.symlink_target = f[6];
    lib.pe.imports = lib.elf.needed;
    s.libraries.push_back(lib);
    names.push_back(lib.elf.soname);
  }
  if (!s.libraries.empty()) {
    p.objects.push_back({s.libraries[0].path, s.libraries[0].elf, -1, {}});
    p.caller = 1;
  }
  auto ld = LdSo::create(s, p);
  auto win = WindowsLoader::create(s, w);
  if (!ld || !win) return 0;
  for (const auto& n : names) {
    (void)ld->dlopen(n);
    (void)win->load_library(n, SearchFlags::kNone);
    (void)win->load_library(n, SearchFlags::kDefaultDirs | SearchFlags::kDllLoadDir);
  }
  return 0;
}
