// The Windows LoadLibrary model on hand-made snapshots: one rule of Microsoft's
// "Dynamic-link library search order" per test, asserting which DLL won and why.
#include <gtest/gtest.h>

#include "loader/load_library.h"

namespace tfgpu::loader {
namespace {

LibraryFile dll(std::string path, std::vector<std::string> imports = {}, int bits = 64) {
  LibraryFile f;
  f.path = std::move(path);
  f.name = f.path.substr(f.path.find_last_of("\\/") + 1);
  f.format = "pe";
  f.pe.bits = bits;
  f.pe.machine = bits == 64 ? "x64" : "x86";
  f.pe.imports = std::move(imports);
  return f;
}

Snapshot win_snapshot() {
  Snapshot s;
  s.origin = "test";
  s.host.os = "windows";
  s.loader.system_dir = "C:\\Windows\\System32";
  s.loader.windows_dir = "C:\\Windows";
  s.loader.known_dlls = {"kernel32.dll", "ucrtbase.dll"};
  s.loader.safe_dll_search_mode = true;
  return s;
}

WindowsProcess python_process() {
  WindowsProcess p;
  p.app_dir = "C:\\Python310";
  p.cwd = "C:\\work";
  p.path_env = "C:\\CUDA\\v11.2\\bin;;C:\\tools";
  p.loaded = {{"C:\\Python310\\python.exe", {}}};
  return p;
}

std::vector<std::string> sources(const Resolution& r) {
  std::vector<std::string> out;
  for (const auto& s : r.trail) out.push_back(s.source);
  return out;
}

TEST(LoadLibrary, StandardOrderIsAppDirSystemDirsCwdThenPath) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\CUDA\\v11.2\\bin\\cudart64_110.dll")};
  auto w = WindowsLoader::create(s, python_process());
  ASSERT_TRUE(w.has_value()) << w.error().message;
  Resolution r = w->find("cudart64_110.dll", SearchFlags::kNone);
  EXPECT_EQ(r.outcome, Outcome::kFound);
  EXPECT_EQ(r.path, "C:\\CUDA\\v11.2\\bin\\cudart64_110.dll");
  EXPECT_EQ(sources(r), (std::vector<std::string>{"application dir", "System32", "16-bit system dir", "Windows dir",
                                                  "current dir", "PATH"}));
}

TEST(LoadLibrary, CurrentDirectoryBeatsPathButNotSystem32) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\work\\zlibwapi.dll"), dll("C:\\tools\\zlibwapi.dll")};
  auto w = WindowsLoader::create(s, python_process());
  EXPECT_EQ(w->find("zlibwapi.dll", SearchFlags::kNone).path, "C:\\work\\zlibwapi.dll");
  s.libraries.push_back(dll("C:\\Windows\\System32\\zlibwapi.dll"));
  auto w2 = WindowsLoader::create(s, python_process());
  EXPECT_EQ(w2->find("zlibwapi.dll", SearchFlags::kNone).path, "C:\\Windows\\System32\\zlibwapi.dll");
}

TEST(LoadLibrary, WithoutSafeDllSearchModeTheCurrentDirectoryComesSecond) {
  Snapshot s = win_snapshot();
  s.loader.safe_dll_search_mode = false;
  s.libraries = {dll("C:\\work\\x.dll"), dll("C:\\Windows\\System32\\x.dll")};
  auto w = WindowsLoader::create(s, python_process());
  Resolution r = w->find("x.dll", SearchFlags::kNone);
  EXPECT_EQ(r.path, "C:\\work\\x.dll");
  EXPECT_EQ(sources(r), (std::vector<std::string>{"application dir", "current dir"}));
}

TEST(LoadLibrary, SetDllDirectoryComesAfterTheAppDirAndDropsTheCurrentDirectory) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\work\\x.dll"), dll("D:\\B\\x.dll"), dll("C:\\tools\\x.dll")};
  auto p = python_process();
  p.dll_directory = "D:\\B";
  auto w = WindowsLoader::create(s, p);
  Resolution r = w->find("x.dll", SearchFlags::kNone);
  EXPECT_EQ(r.path, "D:\\B\\x.dll");
  EXPECT_EQ(sources(r), (std::vector<std::string>{"application dir", "SetDllDirectory"}));
  p.dll_directory = "";  // SetDllDirectoryW(L""): no directory, the current one removed
  s.libraries = {dll("C:\\work\\x.dll"), dll("C:\\tools\\x.dll")};
  auto w2 = WindowsLoader::create(s, p);
  EXPECT_EQ(w2->find("x.dll", SearchFlags::kNone).path, "C:\\tools\\x.dll");
}

TEST(LoadLibrary, AddDllDirectoryCountsOnlyWithSearchFlags) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("D:\\B\\x.dll"), dll("C:\\tools\\x.dll")};
  auto p = python_process();
  p.user_dirs = {"D:\\B"};
  auto w = WindowsLoader::create(s, p);
  EXPECT_EQ(w->find("x.dll", SearchFlags::kNone).path, "C:\\tools\\x.dll");  // Wine §3a: no effect alone
  Resolution r = w->find("x.dll", SearchFlags::kDefaultDirs);
  EXPECT_EQ(r.path, "D:\\B\\x.dll");
  EXPECT_EQ(sources(r), (std::vector<std::string>{"application dir", "AddDllDirectory"}));
}

TEST(LoadLibrary, SearchFlagsNeverLookAtPathOrTheCurrentDirectory) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\work\\x.dll"), dll("C:\\tools\\x.dll")};
  auto w = WindowsLoader::create(s, python_process());
  Resolution r = w->find("x.dll", SearchFlags::kDefaultDirs);
  EXPECT_EQ(r.outcome, Outcome::kNotFound);
  EXPECT_EQ(r.error, "x.dll not found (126)");
  EXPECT_EQ(sources(r), (std::vector<std::string>{"application dir", "System32"}));
}

TEST(LoadLibrary, AnExtensionModulesImportsComeFromItsDirectoryAndAddedDirsOnPython38) {
  Snapshot s = win_snapshot();
  std::string tfdir = "C:\\Python310\\Lib\\site-packages\\tensorflow\\python";
  s.libraries = {dll(tfdir + "\\_pywrap_tensorflow_internal.pyd", {"msvcp140_1.dll", "KERNEL32.dll", "helper.dll"}),
                 dll(tfdir + "\\helper.dll"), dll("C:\\tools\\msvcp140_1.dll"), dll("D:\\vc\\msvcp140_1.dll")};
  auto p = python_process();
  auto w = WindowsLoader::create(s, p);
  LoadResult r = w->import_extension_module(tfdir + "\\_pywrap_tensorflow_internal.pyd", 10);
  EXPECT_EQ(r.outcome, Outcome::kFailed);  // msvcp140_1.dll is only on PATH, which is not searched
  EXPECT_EQ(r.error, "msvcp140_1.dll not found (126)");
  p.user_dirs = {"D:\\vc"};  // os.add_dll_directory("D:\\vc")
  auto w2 = WindowsLoader::create(s, p);
  LoadResult ok = w2->import_extension_module(tfdir + "\\_pywrap_tensorflow_internal.pyd", 10);
  EXPECT_EQ(ok.outcome, Outcome::kFound) << ok.error;
  ASSERT_EQ(ok.closure.size(), 3u);
  EXPECT_EQ(ok.closure[0].resolution.path, "D:\\vc\\msvcp140_1.dll");
  EXPECT_EQ(ok.closure[1].resolution.trail.back().why, Why::kKnownDll);
  EXPECT_EQ(ok.closure[2].resolution.path, tfdir + "\\helper.dll");
  EXPECT_EQ(ok.closure[2].resolution.trail.back().source, "DLL's directory");
  // Python 3.7: LOAD_WITH_ALTERED_SEARCH_PATH, PATH is searched.
  auto w3 = WindowsLoader::create(s, python_process());
  LoadResult old = w3->import_extension_module(tfdir + "\\_pywrap_tensorflow_internal.pyd", 7);
  EXPECT_EQ(old.outcome, Outcome::kFound) << old.error;
  EXPECT_EQ(old.closure[0].resolution.path, "C:\\tools\\msvcp140_1.dll");
}

TEST(LoadLibrary, WrongBitnessIsSkippedAndOnlyItFailsWith193) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\Python310\\x.dll", {}, 32), dll("C:\\tools\\x.dll")};
  auto w = WindowsLoader::create(s, python_process());
  Resolution r = w->find("x.dll", SearchFlags::kNone);
  EXPECT_EQ(r.path, "C:\\tools\\x.dll");
  EXPECT_EQ(r.trail[0].why, Why::kWrongClass);
  EXPECT_EQ(r.trail[0].detail, "32-bit");
  s.libraries.pop_back();
  auto w2 = WindowsLoader::create(s, python_process());
  Resolution only = w2->find("x.dll", SearchFlags::kNone);
  EXPECT_EQ(only.outcome, Outcome::kFailed);
  EXPECT_EQ(only.error, "x.dll: is not a valid Win32 application (193)");
}

TEST(LoadLibrary, PathsCompareCaseInsensitivelyWithEitherSlash) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("c:/cuda/v11.2/BIN/CUDART64_110.DLL")};
  auto w = WindowsLoader::create(s, python_process());
  Resolution r = w->find("cudart64_110.dll", SearchFlags::kNone);
  EXPECT_EQ(r.outcome, Outcome::kFound);
  EXPECT_EQ(r.file, &s.libraries[0]);
}

TEST(LoadLibrary, AModuleAlreadyLoadedAnswersByBaseName) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\tools\\cudart64_110.dll")};
  auto p = python_process();
  p.loaded.push_back({"D:\\A\\cudart64_110.dll", {}});
  auto w = WindowsLoader::create(s, p);
  LoadResult r = w->load_library("CUDART64_110");  // no extension: ".dll" is appended
  EXPECT_EQ(r.root.path, "D:\\A\\cudart64_110.dll");
  EXPECT_EQ(r.root.trail.back().why, Why::kAlreadyLoaded);
}

TEST(LoadLibrary, OtherVersionsInADirectoryAreNamed) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\CUDA\\v11.2\\bin\\cudnn64_7.dll")};
  auto w = WindowsLoader::create(s, python_process());
  Resolution r = w->find("cudnn64_8.dll", SearchFlags::kNone);
  EXPECT_EQ(r.outcome, Outcome::kNotFound);
  EXPECT_EQ(r.trail[5].why, Why::kOtherVersion);
  EXPECT_EQ(r.trail[5].detail, "has cudnn64_7.dll");
}

TEST(LoadLibrary, AMissingImportFailsTheLoadAndSaysWhich) {
  Snapshot s = win_snapshot();
  s.libraries = {dll("C:\\CUDA\\v11.2\\bin\\cudnn64_8.dll", {"zlibwapi.dll"})};
  auto w = WindowsLoader::create(s, python_process());
  LoadResult r = w->load_library("cudnn64_8.dll");
  EXPECT_EQ(r.root.outcome, Outcome::kFound);
  EXPECT_EQ(r.outcome, Outcome::kFailed);
  EXPECT_EQ(r.error, "zlibwapi.dll not found (126)");
  EXPECT_EQ(r.closure[0].needed_by, "C:\\CUDA\\v11.2\\bin\\cudnn64_8.dll");
}

TEST(LoadLibrary, ANonPeFileEndsTheLoadWith193) {
  Snapshot s = win_snapshot();
  LibraryFile junk = dll("C:\\Python310\\x.dll");
  junk.format = "unknown";
  junk.error = "not a PE file";
  s.libraries = {junk, dll("C:\\tools\\x.dll")};
  auto w = WindowsLoader::create(s, python_process());
  Resolution r = w->find("x.dll", SearchFlags::kNone);
  EXPECT_EQ(r.outcome, Outcome::kFailed);
  EXPECT_EQ(r.trail.size(), 1u);
}

TEST(LoadLibrary, CreateRejectsAProcessWithoutAppDirOrSystemDir) {
  Snapshot s = win_snapshot();
  WindowsProcess p;
  EXPECT_FALSE(WindowsLoader::create(s, p).has_value());
  Snapshot bare;
  auto r = WindowsLoader::create(bare, python_process());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kInput);
}

}  // namespace
}  // namespace tfgpu::loader
