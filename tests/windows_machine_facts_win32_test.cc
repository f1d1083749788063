// The live Win32 Host machine facts under Wine or Windows: registry value
// enumeration (a key written here, and the real KnownDLLs key), the SetupAPI PCI list,
// and CPUID, which under Wine is checked against Linux's own /proc/cpuinfo (Z:\proc).
#include <windows.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "host/host.h"
#include "host/machine_facts.h"
#include "host/win32_text.h"
#include "probe/probe.h"
#include "probe/windows_installs.h"
#include "util/strings.h"

namespace tfgpu {
namespace {

const wchar_t* kScratchKey = L"Software\\tfgpu-test-values";

class WindowsMachineFacts : public ::testing::Test {
 protected:
  void TearDown() override { RegDeleteTreeW(HKEY_CURRENT_USER, kScratchKey); }
  std::unique_ptr<Host> host_ = make_system_host();
};

TEST_F(WindowsMachineFacts, RegistryValuesAreEnumeratedAsTextWithTheirNames) {
  HKEY hk;
  ASSERT_EQ(RegCreateKeyExW(HKEY_CURRENT_USER, kScratchKey, 0, nullptr, 0, KEY_WRITE, nullptr, &hk, nullptr), ERROR_SUCCESS);
  std::wstring sz = widen("C:\\Ünï\\cudart64_110.dll");
  RegSetValueExW(hk, widen("Pfad Ü").c_str(), 0, REG_SZ, reinterpret_cast<const BYTE*>(sz.c_str()),
                 static_cast<DWORD>((sz.size() + 1) * sizeof(wchar_t)));
  std::wstring ex = L"%SystemRoot%\\system32";
  RegSetValueExW(hk, L"DllDirectory", 0, REG_EXPAND_SZ, reinterpret_cast<const BYTE*>(ex.c_str()),
                 static_cast<DWORD>((ex.size() + 1) * sizeof(wchar_t)));
  DWORD d = 42;
  RegSetValueExW(hk, L"Count", 0, REG_DWORD, reinterpret_cast<const BYTE*>(&d), sizeof d);
  BYTE bin[3] = {1, 2, 3};
  RegSetValueExW(hk, L"Blob", 0, REG_BINARY, bin, sizeof bin);
  RegCloseKey(hk);

  auto v = host_->registry_values("HKCU\\Software\\tfgpu-test-values");
  ASSERT_TRUE(v) << v.error().message;
  std::map<std::string, std::string> got;
  for (const auto& r : *v) got[r.name] = r.data;
  EXPECT_EQ(got.size(), 3u);  // the REG_BINARY value is not text
  EXPECT_EQ(got["Pfad Ü"], "C:\\Ünï\\cudart64_110.dll");
  EXPECT_EQ(got["DllDirectory"], "%SystemRoot%\\system32");  // not expanded
  EXPECT_EQ(got["Count"], "42");
  auto missing = host_->registry_values("HKCU\\Software\\tfgpu-no-such-key");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_FALSE(host_->registry_values("HKXX\\Software"));
}

// Windows always has the KnownDLLs key; Wine 8's prefix does not, so under Wine the test
// writes one (as Windows lays it out) and removes it afterwards.
TEST_F(WindowsMachineFacts, KnownDllsOfThisSystemFillTheLoaderFacts) {
  const wchar_t* key = L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\KnownDLLs";
  bool created = false;
  HKEY hk;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, key, 0, KEY_READ, &hk) == ERROR_SUCCESS) {
    RegCloseKey(hk);
  } else {
    ASSERT_EQ(RegCreateKeyExW(HKEY_LOCAL_MACHINE, key, 0, nullptr, 0, KEY_WRITE, nullptr, &hk, nullptr), ERROR_SUCCESS);
    created = true;
    auto put = [&](const wchar_t* name, const std::wstring& data, DWORD type) {
      RegSetValueExW(hk, name, 0, type, reinterpret_cast<const BYTE*>(data.c_str()), static_cast<DWORD>((data.size() + 1) * sizeof(wchar_t)));
    };
    put(L"kernel32", L"kernel32.dll", REG_SZ);
    put(L"MSVCRT", L"msvcrt.dll", REG_SZ);
    put(L"DllDirectory", L"%SystemRoot%\\system32", REG_EXPAND_SZ);
    RegCloseKey(hk);
  }
  Snapshot s;
  probe::probe_loader(*host_, s);
  if (created) RegDeleteTreeW(HKEY_LOCAL_MACHINE, key);
  for (const auto& n : s.notes) EXPECT_EQ(n.find("KnownDLLs"), std::string::npos) << n;
  ASSERT_FALSE(s.loader.known_dlls.empty());
  EXPECT_TRUE(std::any_of(s.loader.known_dlls.begin(), s.loader.known_dlls.end(),
                          [&](const std::string& k) { return iequals(k, "kernel32.dll"); }));
  for (const auto& k : s.loader.known_dlls) EXPECT_EQ(k.find('\\'), std::string::npos) << k;  // names, not the DllDirectory
}

TEST_F(WindowsMachineFacts, SetupApiListsOnlyPciDevices) {
  auto devices = host_->pci_devices();
  ASSERT_TRUE(devices) << devices.error().message;
  for (const auto& d : *devices) {
    ASSERT_FALSE(d.hardware_ids.empty());
    EXPECT_TRUE(std::any_of(d.hardware_ids.begin(), d.hardware_ids.end(), [](const std::string& id) { return iequals(std::string_view(id).substr(0, 4), "PCI\\"); }));
  }
  Snapshot s;
  probe::probe_hardware(*host_, probe::ProbeOptions{}, s);
  EXPECT_EQ(s.gpu_state.source, "setupapi");
  EXPECT_TRUE(s.gpu_state.status == ProbeStatus::kOk || s.gpu_state.status == ProbeStatus::kAbsent) << s.gpu_state.reason;
  for (const auto& g : s.gpus) EXPECT_TRUE(starts_with(g.pci_id, "10de:")) << g.pci_id;
}

TEST_F(WindowsMachineFacts, CpuidAgreesWithLinuxProcCpuinfoUnderWine) {
  auto f = host_->cpu_features();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_FALSE(f->vendor.empty());
  Snapshot s;
  probe::probe_host(*host_, s);
  EXPECT_EQ(s.host.cpu.source, "cpuid");
  EXPECT_EQ(s.host.cpu.avx, f->avx ? Tri::kYes : Tri::kNo);
  // Under Wine, Z:\ is the Unix root: the kernel's view of the same CPU. The kernel lists
  // a flag only when the CPU has it and the kernel enabled its state, the same rule.
  auto cpuinfo = host_->read_file("Z:\\proc\\cpuinfo", 8u << 20);
  if (!cpuinfo) GTEST_SKIP() << "not under Wine (no Z:\\proc\\cpuinfo)";
  std::set<std::string> flags;
  for (const auto& line : split(*cpuinfo, '\n')) {
    if (!starts_with(line, "flags")) continue;
    for (auto& fl : split_nonempty(line.substr(line.find(':') + 1), ' ')) flags.insert(std::string(trim(fl)));
    break;
  }
  ASSERT_FALSE(flags.empty());
  EXPECT_EQ(f->avx, flags.count("avx") == 1);
  EXPECT_EQ(f->avx2, flags.count("avx2") == 1);
  EXPECT_EQ(f->avx512f, flags.count("avx512f") == 1);
  EXPECT_EQ(f->fma, flags.count("fma") == 1);
  std::string model;
  for (const auto& line : split(*cpuinfo, '\n'))
    if (starts_with(line, "model name")) {
      model = std::string(trim(line.substr(line.find(':') + 1)));
      break;
    }
  if (!model.empty()) {
    EXPECT_EQ(f->brand, model);
  }
}

}  // namespace
}  // namespace tfgpu
