// The Windows parts of the live probe on a FakeHost(kWindows): CUDA from the registry,
// cuDNN's installer layout, Python from PEP 514 / the Microsoft Store with bitness from
// the PE header, and the loader facts. Portable: runs in the Linux and Windows builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "host/fake_host.h"
#include "probe/probe.h"
#include "probe/windows_installs.h"
#include "support/pe_builder.h"

namespace tfgpu::probe {
namespace {

std::string pe_file(int bits) {
  test::PeBuilder b;
  b.bits = bits;
  b.machine = bits == 64 ? 0x8664 : 0x14c;
  return b.build();
}

std::string exe_file(int bits) {
  test::PeBuilder b;
  b.bits = bits;
  b.machine = bits == 64 ? 0x8664 : 0x14c;
  b.kind = test::PeBuilder::Kind::kExe;
  return b.build();
}

// FakeHost's canonical() answers a normalised spelling; Windows paths compare case- and
// separator-insensitively.
std::string norm(std::string p) {
  for (char& c : p) c = c == '/' ? '\\' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return p;
}

const char* kCudnnHeader =
    "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n"
    "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n";

TEST(WindowsProbe, CudaRegisteredInTheRegistryIsScannedEvenOutsideTheDefaultFolder) {
  FakeHost h(Platform::kWindows);
  h.set_registry_value(std::string(kCudaRegistryKey) + "\\v11.2", "InstallDir", "D:\\CUDA\\v11.2\\");
  h.add_file("D:\\CUDA\\v11.2\\bin\\cudart64_110.dll", pe_file(64));
  h.add_file("D:\\CUDA\\v11.2\\version.json", R"({"cuda":{"name":"CUDA SDK","version":"11.2.2"}})");
  auto reg = registered_cuda_installs(h);
  ASSERT_EQ(reg.size(), 1u);
  EXPECT_EQ(reg[0].install_dir, "D:\\CUDA\\v11.2");  // trailing separator dropped

  Snapshot s;
  probe_runtime(h, ProbeOptions{}, s);
  ASSERT_EQ(s.cuda.size(), 1u);
  EXPECT_EQ(norm(s.cuda[0].root), norm("D:\\CUDA\\v11.2"));
  EXPECT_EQ(s.cuda[0].version, "11.2.2");
  ASSERT_EQ(s.cuda[0].lib_dirs.size(), 1u);
  EXPECT_EQ(norm(s.cuda[0].lib_dirs[0]), norm("D:\\CUDA\\v11.2\\bin"));
}

TEST(WindowsProbe, RegistryEntryWithoutInstallDirIsIgnored) {
  FakeHost h(Platform::kWindows);
  h.set_registry_value(std::string(kCudaRegistryKey) + "\\v12.4", "Other", "x");
  EXPECT_TRUE(registered_cuda_installs(h).empty());
}

TEST(WindowsProbe, CudnnInstallerLayoutsAreFoundPerCudaVersionWithTheirHeaders) {
  FakeHost h(Platform::kWindows);
  h.set_env("ProgramFiles", "C:\\Program Files");
  std::string root = "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1";
  h.add_file(root + "\\bin\\12.4\\cudnn64_9.dll", pe_file(64));
  h.add_file(root + "\\bin\\11.8\\x64\\cudnn64_9.dll", pe_file(64));
  h.add_file(root + "\\include\\12.4\\cudnn_version.h", kCudnnHeader);
  auto layouts = cudnn_installer_layouts(h);
  ASSERT_EQ(layouts.size(), 2u);
  EXPECT_EQ(layouts[0].lib_dir, root + "\\bin\\11.8\\x64");
  EXPECT_EQ(layouts[0].cuda_major, "11");
  EXPECT_EQ(layouts[1].lib_dir, root + "\\bin\\12.4");
  EXPECT_EQ(layouts[1].include_dir, root + "\\include\\12.4");

  Snapshot s;
  probe_runtime(h, ProbeOptions{}, s);
  auto it = std::find_if(s.cudnn.begin(), s.cudnn.end(), [&](const CudnnInstall& c) {
    return c.lib_dirs == std::vector<std::string>{root + "\\bin\\12.4"};
  });
  ASSERT_NE(it, s.cudnn.end());
  EXPECT_EQ(it->kind, "standalone");
  EXPECT_EQ(it->cuda_major, "12");
  EXPECT_EQ(it->version, "9.1.0");
}

TEST(WindowsProbe, Pep514PythonsAreFoundInEveryHiveWithBitnessFromThePeHeader) {
  FakeHost h(Platform::kWindows);
  std::string p64 = "C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python310";
  std::string p32 = "C:\\Program Files (x86)\\Python38-32";
  h.set_registry_value("HKCU\\Software\\Python\\PythonCore\\3.10\\InstallPath", "", p64);
  h.set_registry_value("HKLM\\SOFTWARE\\WOW6432Node\\Python\\PythonCore\\3.8-32\\InstallPath", "ExecutablePath",
                       p32 + "\\python.exe");
  h.add_file(p64 + "\\python.exe", exe_file(64));
  h.add_file(p32 + "\\python.exe", exe_file(32));
  auto c = windows_python_candidates(h);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].executable, p64 + "\\python.exe");
  EXPECT_EQ(c[0].kind, "registry");
  EXPECT_EQ(c[1].executable, p32 + "\\python.exe");

  EXPECT_EQ(pe_bits(h, p64 + "\\python.exe"), 64);
  EXPECT_EQ(pe_bits(h, p32 + "\\python.exe"), 32);
  Snapshot s;
  probe_pythons(h, ProbeOptions{}, s);
  ASSERT_EQ(s.pythons.size(), 2u);
  for (const auto& py : s.pythons) EXPECT_EQ(py.bits, py.executable == p64 + "\\python.exe" ? 64 : 32) << py.executable;
}

TEST(WindowsProbe, LauncherSettingsAndRegistrationsWithoutAPathAreNotPythons) {
  FakeHost h(Platform::kWindows);
  h.set_registry_value("HKCU\\Software\\Python\\PyLauncher\\x\\InstallPath", "", "C:\\py");
  h.set_registry_value("HKCU\\Software\\Python\\PythonCore\\3.11\\Help", "", "x");
  EXPECT_TRUE(windows_python_candidates(h).empty());
}

TEST(WindowsProbe, MicrosoftStorePythonIsFoundUnderWindowsApps) {
  FakeHost h(Platform::kWindows);
  h.set_env("LOCALAPPDATA", "C:\\Users\\u\\AppData\\Local");
  std::string exe = "C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps\\"
                    "PythonSoftwareFoundation.Python.3.11_qbz5n2kfra8p0\\python.exe";
  h.add_file(exe, exe_file(64));
  auto c = windows_python_candidates(h);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(norm(c[0].executable), norm(exe));
  EXPECT_EQ(c[0].kind, "store");
}

TEST(WindowsProbe, NonPeOrTruncatedExecutableHasUnknownBitness) {
  FakeHost h(Platform::kWindows);
  h.add_file("C:\\x\\python.exe", "#!/bin/sh\n");
  h.add_file("C:\\y\\python.exe", exe_file(64).substr(0, 100));
  EXPECT_EQ(pe_bits(h, "C:\\x\\python.exe"), 0);
  EXPECT_EQ(pe_bits(h, "C:\\y\\python.exe"), 0);
  EXPECT_EQ(pe_bits(h, "C:\\missing\\python.exe"), 0);
}

TEST(WindowsProbe, LoaderFactsComeFromSystemRootAndTheSafeDllSearchModeValue) {
  FakeHost h(Platform::kWindows);
  h.set_env("SystemRoot", "D:\\WINDOWS");
  Snapshot s;
  probe_loader(h, s);
  EXPECT_EQ(s.loader.windows_dir, "D:\\WINDOWS");
  EXPECT_EQ(s.loader.system_dir, "D:\\WINDOWS\\System32");
  EXPECT_TRUE(s.loader.safe_dll_search_mode);
  h.set_registry_value("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager", "SafeDllSearchMode", "0");
  Snapshot s2;
  probe_loader(h, s2);
  EXPECT_FALSE(s2.loader.safe_dll_search_mode);
}

}  // namespace
}  // namespace tfgpu::probe
