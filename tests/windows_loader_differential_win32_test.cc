// Differential test of the Windows LoadLibrary model (src/loader/load_library.h) against
// the real loader (Wine's LoadLibraryExW when CI runs this binary under Wine): generated
// layouts put copies of one fixture DLL in the application dir, System32, the current
// dir and PATH entries in various orders, with SetDllDirectoryW / AddDllDirectory and
// LOAD_LIBRARY_SEARCH_* flags, plus wrong-bitness (PE32) copies that the loader must
// skip. A child (tests/win_fixtures/loadlib.c) performs each search in a fresh process;
// the model, fed a Snapshot of the same layout, must name the same file every time.
//
// Not generated: SetDllDirectoryW(L"") (Wine keeps the current directory in the search,
// Windows drops it; windows-build-and-mocks.md §3a) and genuine 32-bit processes (this
// Wine is 64-bit only and no i686 mingw compiler is installed, so the PE32 copies are
// crafted headers from tests/support/pe_builder.h).
#include <windows.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "binfmt/pe.h"
#include "host/win32_text.h"
#include "loader/load_library.h"
#include "support/pe_builder.h"
#include "support/read_file.h"
#include "util/strings.h"

namespace tfgpu::loader {
namespace {

namespace fs = std::filesystem;

// A path from UTF-8 text (fs::u8path is deprecated in C++20).
fs::path u8(const std::string& s) { return fs::path(widen(s)); }

std::string fixture_dir() { return std::string(TFGPU_TEST_BINARY_DIR) + "/win_fixtures"; }

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string win_dir(UINT (*fn)(LPWSTR, UINT)) {
  wchar_t buf[MAX_PATH];
  UINT n = fn(buf, MAX_PATH);
  return narrow(std::wstring_view(buf, n));
}

std::string fmt_hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%x", v);
  return buf;
}

// One generated layout and what each side said.
struct Layout {
  std::string name;                      // DLL name searched for
  std::string app, cwd;                  // dirs
  std::vector<std::string> path_dirs;    // PATH in order
  std::vector<std::string> placed;       // dirs holding a 64-bit copy
  std::vector<std::string> placed32;     // dirs holding a PE32 copy
  std::optional<std::string> dll_directory;
  std::vector<std::string> user_dirs;
  unsigned flags = 0;
  std::string describe() const {
    std::string s = "name=" + name + " flags=0x" + fmt_hex(flags) + " PATH=" + join(path_dirs, ";");
    s += " 64-bit in {" + join(placed, ", ") + "} 32-bit in {" + join(placed32, ", ") + "}";
    if (dll_directory) s += " SetDllDirectory=" + *dll_directory;
    for (const auto& u : user_dirs) s += " AddDllDirectory=" + u;
    return s;
  }
};

std::wstring quote(const std::string& arg) { return L"\"" + widen(arg) + L"\""; }

// Runs the fixture exe copied into the layout's app dir; returns "OK <path>" / "FAIL <code>".
std::string run_real_loader(const Layout& l, const std::string& out_file) {
  std::wstring cmd = quote(l.app + "\\tfgpu_wfx_loadlib.exe") + L" --out " + quote(out_file) + L" --path " +
                     quote(join(l.path_dirs, ";"));
  if (l.dll_directory) cmd += L" --set-dll-dir " + quote(*l.dll_directory);
  for (const auto& u : l.user_dirs) cmd += L" --add-dll-dir " + quote(u);
  cmd += L" --flags " + widen(fmt_hex(l.flags)) + L" " + widen(l.name);
  STARTUPINFOW si{};
  si.cb = sizeof si;
  PROCESS_INFORMATION pi{};
  std::wstring app = widen(l.app + "\\tfgpu_wfx_loadlib.exe");
  std::wstring cwd = widen(l.cwd);
  if (!CreateProcessW(app.c_str(), cmd.data(), nullptr, nullptr, FALSE, CREATE_NO_WINDOW, nullptr, cwd.c_str(), &si,
                      &pi))
    return "SPAWN-FAILED " + win32_error_text(GetLastError());
  DWORD w = WaitForSingleObject(pi.hProcess, 30000);
  DWORD code = 0;
  GetExitCodeProcess(pi.hProcess, &code);
  if (w != WAIT_OBJECT_0) TerminateProcess(pi.hProcess, 1);
  CloseHandle(pi.hThread);
  CloseHandle(pi.hProcess);
  if (w != WAIT_OBJECT_0) return "TIMEOUT";
  if (code != 0) return "CHILD-EXIT " + std::to_string(code);
  return testing::read_file(u8(out_file));
}

TEST(WindowsLoaderDifferential, ModelChoosesTheFileWineLoadsOnEveryGeneratedLayout) {
  const std::string dll64 = testing::read_file(u8(fixture_dir() + "/tfgpu_wfx_dll.dll"));
  const std::string exe = testing::read_file(u8(fixture_dir() + "/tfgpu_wfx_loadlib.exe"));
  ASSERT_FALSE(dll64.empty()) << "fixture DLL not built";
  ASSERT_FALSE(exe.empty()) << "fixture exe not built";
  test::PeBuilder b32;
  b32.bits = 32;
  b32.machine = 0x14c;
  std::string dll32 = b32.build();
  // Give the PE32 image code (SizeOfCode, AddressOfEntryPoint; optional header at 0x98):
  // Wine, like Windows, maps a code-less resource-only DLL of either bitness.
  auto put32 = [&](size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) dll32[at + k] = static_cast<char>((v >> (8 * k)) & 0xff);
  };
  put32(0x98 + 4, 0x200);
  put32(0x98 + 16, 0x1000);

  const std::string system32 = win_dir(GetSystemDirectoryW);
  const std::string windows = win_dir(GetWindowsDirectoryW);
  wchar_t tmp[MAX_PATH];
  GetTempPathW(MAX_PATH, tmp);
  std::string base = narrow(tmp) + "tfgpu-dll-diff-" + std::to_string(GetCurrentProcessId());
  std::error_code ec;
  fs::remove_all(u8(base), ec);

  const int kLayouts = 42;
  std::mt19937 rng(20261130);  // fixed seed: the same layouts every run
  auto coin = [&](unsigned percent) { return rng() % 100 < percent; };
  int agree = 0;
  std::vector<std::string> system32_copies;
  std::vector<std::string> disagreements;

  for (int i = 0; i < kLayouts; ++i) {
    Layout l;
    l.name = "tfgpuwfx_" + std::to_string(i) + ".dll";
    std::string root = base + "\\L" + std::to_string(i);
    l.app = root + "\\app";
    l.cwd = root + "\\cwd";
    std::vector<std::string> p;
    for (int k = 0; k < 4; ++k) p.push_back(root + (k == 2 ? "\\p2 Ünïcødé 日本" : "\\p" + std::to_string(k)));
    for (const auto& d : std::vector<std::string>{l.app, l.cwd, p[0], p[1], p[2], p[3]})
      fs::create_directories(u8(d));
    {
      std::ofstream(u8(l.app + "\\tfgpu_wfx_loadlib.exe"), std::ios::binary) << exe;
    }
    // PATH: a random order of a random subset, sometimes with a missing dir first.
    std::vector<std::string> order = p;
    std::shuffle(order.begin(), order.end(), rng);
    if (coin(25)) l.path_dirs.push_back(root + "\\missing");
    for (const auto& d : order)
      if (coin(70)) l.path_dirs.push_back(d);
    // Where copies go.
    std::vector<std::string> candidates = {l.app, l.cwd, p[0], p[1], p[2], p[3]};
    for (const auto& d : candidates)
      if (coin(35)) l.placed.push_back(d);
    if (coin(20)) l.placed.push_back(system32);
    if (l.placed.empty() && coin(80)) l.placed.push_back(p[rng() % 4]);
    if (coin(30)) {
      std::vector<std::string> free;
      for (const auto& d : candidates)
        if (std::find(l.placed.begin(), l.placed.end(), d) == l.placed.end()) free.push_back(d);
      if (!free.empty()) l.placed32.push_back(free[rng() % free.size()]);
    }
    // How the search is asked for (cycled so every mode is covered).
    switch (i % 7) {
      case 0: break;                                                            // standard order
      case 1: l.dll_directory = p[rng() % 4]; break;                            // SetDllDirectoryW
      case 2: l.user_dirs = {p[rng() % 4]}; l.flags = 0x1000; break;           // DEFAULT_DIRS
      // One user dir only: with several, Windows leaves their order unspecified (AddDllDirectory
      // docs) and Wine searches the most recently added first.
      case 3: l.user_dirs = {p[rng() % 4]}; l.flags = 0x400; break;  // USER_DIRS
      case 4: l.user_dirs = {p[rng() % 4]}; break;                              // AddDllDirectory alone: no effect
      case 5: l.flags = 0x800 | 0x200; break;                                   // SYSTEM32 | APPLICATION_DIR
      case 6: l.dll_directory = p[rng() % 4]; l.user_dirs = {p[rng() % 4]}; l.flags = 0x1000; break;
    }
    if (l.user_dirs.size() == 2 && l.user_dirs[0] == l.user_dirs[1]) l.user_dirs.pop_back();

    Snapshot s;
    s.origin = "differential";
    s.host.os = "windows";
    s.loader.system_dir = system32;
    s.loader.windows_dir = windows;
    s.loader.safe_dll_search_mode = true;
    auto place = [&](const std::string& dir, const std::string& bytes) {
      std::string path = dir + "\\" + l.name;
      std::ofstream(u8(path), std::ios::binary) << bytes;
      if (dir == system32) system32_copies.push_back(path);
      LibraryFile f;
      f.path = path;
      f.name = l.name;
      f.format = "pe";
      auto pe = binfmt::read_pe_info(bytes, path);
      if (pe) f.pe = *pe;
      else f.error = pe.error().message;
      s.libraries.push_back(std::move(f));
    };
    for (const auto& d : l.placed) place(d, dll64);
    for (const auto& d : l.placed32) place(d, dll32);

    WindowsProcess proc;
    proc.app_dir = l.app;
    proc.cwd = l.cwd;
    proc.path_env = join(l.path_dirs, ";");
    proc.user_dirs = l.user_dirs;
    proc.dll_directory = l.dll_directory;
    proc.loaded = {{l.app + "\\tfgpu_wfx_loadlib.exe", {}}};
    auto model = WindowsLoader::create(s, proc);
    ASSERT_TRUE(model.has_value()) << model.error().message;
    Resolution r = model->find(l.name, static_cast<SearchFlags>(l.flags));
    std::string expected = r.outcome == Outcome::kFound ? "OK " + lower(r.path) : "FAIL";

    std::string real = run_real_loader(l, root + "\\result.txt");
    std::string got = starts_with(real, "OK ") ? "OK " + lower(real.substr(3)) : (starts_with(real, "FAIL") ? "FAIL" : real);
    if (got == expected) ++agree;
    else disagreements.push_back("layout " + std::to_string(i) + ": model " + expected + ", Wine " + real + " | " +
                                 l.describe());
  }
  for (const auto& c : system32_copies) DeleteFileW(widen(c).c_str());
  fs::remove_all(u8(base), ec);

  std::printf("[ differential ] %d/%d layouts agree (Windows loader model vs LoadLibraryExW)\n", agree, kLayouts);
  for (const auto& d : disagreements) ADD_FAILURE() << d;
  EXPECT_EQ(agree, kLayouts);
}

}  // namespace
}  // namespace tfgpu::loader
