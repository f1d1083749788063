// The Windows live probe's hardware, CPU and KnownDLLs parts on a FakeHost(kWindows):
// GPUs from the SetupAPI PCI list (driver or not), AVX from CPUID, KnownDLLs from the
// registry; and the pure parsers behind them (PnP ids, location text, CPUID registers)
// with hostile inputs. Portable: runs in the Linux and Windows builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "host/cpuid.h"
#include "host/fake_host.h"
#include "host/machine_facts.h"
#include "probe/probe.h"
#include "probe/windows_installs.h"
#include "probe/windows_pci.h"

namespace tfgpu::probe {
namespace {

PciDevice nvidia_gpu_without_driver() {
  // What Device Manager lists under "Other devices" for a data-center GPU with no driver.
  return {{"PCI\\VEN_10DE&DEV_20B0&SUBSYS_134F10DE&REV_A1", "PCI\\VEN_10DE&DEV_20B0&SUBSYS_134F10DE",
           "PCI\\VEN_10DE&DEV_20B0&CC_030200", "PCI\\VEN_10DE&DEV_20B0&CC_0302"},
          {"PCI\\VEN_10DE&DEV_20B0&REV_A1", "PCI\\VEN_10DE&DEV_20B0", "PCI\\VEN_10DE&CC_030200", "PCI\\VEN_10DE&CC_0302",
           "PCI\\VEN_10DE", "PCI\\CC_030200", "PCI\\CC_0302"},
          "3D Video Controller",
          "PCI bus 23, device 0, function 0",
          ""};
}

PciDevice nvidia_gpu_basic_display() {
  return {{"PCI\\VEN_10DE&DEV_2504&SUBSYS_397D1462&REV_A1"},
          {"PCI\\VEN_10DE&DEV_2504&REV_A1", "PCI\\VEN_10DE&CC_030000", "PCI\\CC_030000", "PCI\\CC_0300"},
          "Microsoft Basic Display Adapter",
          "PCI bus 1, device 0, function 0",
          "Display"};
}

PciDevice nvidia_hd_audio() {
  return {{"PCI\\VEN_10DE&DEV_228E&SUBSYS_397D1462&REV_A1"},
          {"PCI\\VEN_10DE&CC_040300", "PCI\\CC_0403"},
          "High Definition Audio Controller",
          "PCI bus 1, device 0, function 1",
          "MEDIA"};
}

PciDevice intel_igpu() {
  return {{"PCI\\VEN_8086&DEV_3E92&SUBSYS_86941043&REV_00"},
          {"PCI\\VEN_8086&CC_030000", "PCI\\CC_0300"},
          "Intel(R) UHD Graphics 630",
          "PCI bus 0, device 2, function 0",
          "Display"};
}

ProbeOptions naming_options() {
  ProbeOptions o;
  o.name_gpu = [](uint16_t vendor, uint16_t device) -> std::optional<GpuFacts> {
    if (vendor == 0x10de && device == 0x2504) return GpuFacts{"GeForce RTX 3060", "8.6"};
    return std::nullopt;
  };
  return o;
}

TEST(WindowsHostProbe, NvidiaGpusAreFoundOnTheBusWithOrWithoutADriver) {
  FakeHost h(Platform::kWindows);
  h.set_pci_devices(std::vector<PciDevice>{intel_igpu(), nvidia_gpu_basic_display(), nvidia_hd_audio(), nvidia_gpu_without_driver()});
  Snapshot s;
  probe_hardware(h, naming_options(), s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kOk);
  EXPECT_EQ(s.gpu_state.source, "setupapi");
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(s.gpus[0].pci_id, "10de:2504");
  EXPECT_EQ(s.gpus[0].pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(s.gpus[0].name, "GeForce RTX 3060");  // the KB's name, not "Microsoft Basic Display Adapter"
  EXPECT_EQ(s.gpus[0].compute_capability, "8.6");
  EXPECT_EQ(s.gpus[0].source, "setupapi+kb:pci");
  EXPECT_EQ(s.gpus[1].pci_id, "10de:20b0");
  EXPECT_EQ(s.gpus[1].pci_bus_id, "0000:17:00.0");
  EXPECT_EQ(s.gpus[1].name, "3D Video Controller");  // unknown to this KB: what Windows calls it
  EXPECT_EQ(s.gpus[1].compute_capability, "");
  EXPECT_EQ(s.gpus[1].source, "setupapi");
  EXPECT_EQ(s.gpus[1].index, -1);
}

TEST(WindowsHostProbe, OnlyNonGpuNvidiaFunctionsMeanNoGpuAndAreCounted) {
  FakeHost h(Platform::kWindows);
  h.set_pci_devices(std::vector<PciDevice>{intel_igpu(), nvidia_hd_audio()});
  Snapshot s;
  probe_hardware(h, naming_options(), s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kAbsent);
  EXPECT_TRUE(s.gpus.empty());
  EXPECT_NE(s.gpu_state.reason.find("among 2 PCI device(s)"), std::string::npos) << s.gpu_state.reason;
  EXPECT_NE(s.gpu_state.reason.find("1 other NVIDIA function"), std::string::npos) << s.gpu_state.reason;
}

TEST(WindowsHostProbe, DisplayClassCountsAsAGpuWhenNoClassCodeIsListed) {
  PciDevice d = nvidia_gpu_basic_display();
  d.compatible_ids.clear();
  d.location = "";
  FakeHost h(Platform::kWindows);
  h.set_pci_devices(std::vector<PciDevice>{d});
  Snapshot s;
  probe_hardware(h, ProbeOptions{}, s);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].pci_bus_id, "");
  EXPECT_EQ(s.gpus[0].name, "Microsoft Basic Display Adapter");
  EXPECT_EQ(s.gpus[0].source, "setupapi");
}

TEST(WindowsHostProbe, HostWithoutAPciListIsUnsupportedAndAFailedListIsFailed) {
  FakeHost h(Platform::kWindows);
  Snapshot s;
  probe_hardware(h, ProbeOptions{}, s);
  EXPECT_EQ(s.gpu_state.status, ProbeStatus::kUnsupported);
  h.set_pci_devices(fail(Error::io("SetupDiGetClassDevs: Access is denied. (5)")));
  Snapshot s2;
  probe_hardware(h, ProbeOptions{}, s2);
  EXPECT_EQ(s2.gpu_state.status, ProbeStatus::kFailed);
  EXPECT_EQ(s2.gpu_state.reason, "SetupDiGetClassDevs: Access is denied. (5)");
}

TEST(WindowsPciIds, HardwareIdsGiveVendorAndDeviceInAnyCase) {
  auto a = parse_pci_hardware_id("PCI\\VEN_10DE&DEV_2504&SUBSYS_397D1462&REV_A1");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->vendor, 0x10de);
  EXPECT_EQ(a->device, 0x2504);
  auto b = parse_pci_hardware_id("pci\\ven_10de&dev_20b0");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->device, 0x20b0);
  EXPECT_FALSE(parse_pci_hardware_id("USB\\VID_10DE&PID_2504"));
  EXPECT_FALSE(parse_pci_hardware_id("PCI\\VEN_10DE"));
  EXPECT_FALSE(parse_pci_hardware_id("PCI\\VEN_10DE&DEV_25"));        // too short
  EXPECT_FALSE(parse_pci_hardware_id("PCI\\VEN_10DE&DEV_25040"));     // too long
  EXPECT_FALSE(parse_pci_hardware_id("PCI\\VEN_10DE&DEV_25G4"));      // not hex
  EXPECT_FALSE(parse_pci_hardware_id("PCI\\XVEN_10DE&SUBDEV_2504"));  // tags only at a boundary
}

TEST(WindowsPciIds, ClassCodeComesFromTheFirstCompatibleIdThatHasOne) {
  EXPECT_EQ(parse_pci_class({"PCI\\VEN_10DE&DEV_2504", "PCI\\VEN_10DE&CC_030000"}), 0x0300);
  EXPECT_EQ(parse_pci_class({"PCI\\CC_0302"}), 0x0302);
  EXPECT_EQ(parse_pci_class({"PCI\\CC_04030"}), std::nullopt);  // 5 digits is neither form
  EXPECT_EQ(parse_pci_class({"ACPI\\CC_0300"}), std::nullopt);
  EXPECT_EQ(parse_pci_class({}), std::nullopt);
}

TEST(WindowsPciIds, LocationTextGivesTheBusIdInAnyLanguage) {
  EXPECT_EQ(pci_bus_id_from_location("PCI bus 1, device 0, function 0"), "0000:01:00.0");
  EXPECT_EQ(pci_bus_id_from_location("PCI-Bus 23, Gerät 0, Funktion 1"), "0000:17:00.1");
  EXPECT_EQ(pci_bus_id_from_location("PCI bus 255, device 31, function 7"), "0000:ff:1f.7");
  EXPECT_EQ(pci_bus_id_from_location("PCI bus 256, device 0, function 0"), std::nullopt);
  EXPECT_EQ(pci_bus_id_from_location("PCI bus 1, device 0"), std::nullopt);
  EXPECT_EQ(pci_bus_id_from_location("PCI bus 1, device 0, function 0, slot 4"), std::nullopt);
  EXPECT_EQ(pci_bus_id_from_location("PCI bus 99999999999999999999, device 0, function 0"), std::nullopt);
  EXPECT_EQ(pci_bus_id_from_location(""), std::nullopt);
}

TEST(WindowsPciIds, HostileTextNeverCrashesAndNeverYieldsAnInvalidId) {
  std::mt19937 rng(8);
  const std::string alphabet = "PCIVENDEVCC_&\\0123456789abcdefABCDEF ,bus device function\xff";
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng() % 80, ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    if (i % 3 == 0) s = "PCI\\VEN_10DE&DEV_" + s;
    if (parse_pci_hardware_id(s)) {
      EXPECT_TRUE(s.starts_with("PCI\\")) << s;
    }
    if (auto bus = pci_bus_id_from_location(s)) {
      EXPECT_EQ(bus->size(), 12u) << s;
    }
    (void)parse_pci_class({s, s + s});
    (void)scan_windows_pci({PciDevice{{s}, {s}, s, s, s}});
  }
  std::string huge(1u << 20, '9');
  EXPECT_FALSE(pci_bus_id_from_location(huge));
  EXPECT_FALSE(parse_pci_hardware_id("PCI\\VEN_" + huge));
  EXPECT_FALSE(parse_pci_class({"PCI\\CC_" + huge}));
  std::string with_nul("PCI\\VEN_10DE\0&DEV_2504", 22);
  EXPECT_FALSE(parse_pci_hardware_id(with_nul));
}

// CPUID registers of an Intel Core i7-8700 (vendor, brand, leaf 1 / 7 flags) with the
// XCR0 a 64-bit Windows 10 sets without AVX-512 state (x87 | SSE | AVX = 0x7).
CpuidDump coffee_lake(uint64_t xcr0 = 0x7) {
  CpuidDump d;
  auto text = [](const char* s, std::initializer_list<uint32_t*> regs) {
    size_t i = 0;
    for (uint32_t* r : regs) std::memcpy(r, s + 4 * i++, 4);
  };
  d.leaf0.eax = 0x16;
  text("GenuineIntel", {&d.leaf0.ebx, &d.leaf0.edx, &d.leaf0.ecx});
  d.leaf1.ecx = (1u << 28) | (1u << 27) | (1u << 12);  // AVX, OSXSAVE, FMA
  d.leaf7.ebx = (1u << 5);                            // AVX2
  d.max_extended = 0x80000008u;
  const char brand[49] = "       Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz";  // Intel pads on the left
  for (int l = 0; l < 3; ++l)
    text(brand + 16 * l, {&d.brand[l].eax, &d.brand[l].ebx, &d.brand[l].ecx, &d.brand[l].edx});
  d.xcr0 = xcr0;
  return d;
}

TEST(WindowsCpuid, FeaturesNeedBothTheCpuBitAndTheOsSavedState) {
  CpuFeatures f = decode_cpuid(coffee_lake());
  EXPECT_EQ(f.vendor, "GenuineIntel");
  EXPECT_EQ(f.brand, "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz");
  EXPECT_TRUE(f.avx);
  EXPECT_TRUE(f.avx2);
  EXPECT_TRUE(f.fma);
  EXPECT_FALSE(f.avx512f);
  // An OS that does not save YMM state (XCR0 without bit 2): AVX cannot be used.
  CpuFeatures no_os = decode_cpuid(coffee_lake(0x3));
  EXPECT_FALSE(no_os.avx);
  EXPECT_FALSE(no_os.avx2);
  EXPECT_FALSE(no_os.fma);
}

TEST(WindowsCpuid, Avx512NeedsTheZmmStateAndOldCpusHaveNoLeaf7) {
  CpuidDump d = coffee_lake(0xE7);
  d.leaf7.ebx |= 1u << 16;
  EXPECT_TRUE(decode_cpuid(d).avx512f);
  d.xcr0 = 0x7;
  EXPECT_FALSE(decode_cpuid(d).avx512f);
  // A Pentium-era CPU: max leaf 2, no brand string; leaf 7 bits are garbage and ignored.
  CpuidDump old = coffee_lake();
  old.leaf0.eax = 2;
  old.leaf1.ecx = 0;
  old.leaf7.ebx = 0xffffffffu;
  old.max_extended = 0x80000001u;
  CpuFeatures f = decode_cpuid(old);
  EXPECT_FALSE(f.avx);
  EXPECT_FALSE(f.avx2);
  EXPECT_FALSE(f.avx512f);
  EXPECT_EQ(f.brand, "");
  EXPECT_EQ(f.vendor, "GenuineIntel");
}

TEST(WindowsCpuid, NonPrintableBrandBytesAreReplaced) {
  CpuidDump d = coffee_lake();
  d.brand[0].eax = 0x0a01ff41;  // 'A', 0xff, 0x01, '\n'
  EXPECT_EQ(decode_cpuid(d).brand.substr(0, 4), "A???");
}

TEST(WindowsHostProbe, CpuFeaturesComeFromCpuidOnWindows) {
  FakeHost h(Platform::kWindows);
  h.set_cpu_features(CpuFeatures{"AuthenticAMD", "AMD Ryzen 9 5900X 12-Core Processor", true, true, false, true});
  Snapshot s;
  probe_host(h, s);
  EXPECT_EQ(s.host.cpu.source, "cpuid");
  EXPECT_EQ(s.host.cpu.vendor, "AuthenticAMD");
  EXPECT_EQ(s.host.cpu.model, "AMD Ryzen 9 5900X 12-Core Processor");
  EXPECT_EQ(s.host.cpu.avx, Tri::kYes);
  EXPECT_EQ(s.host.cpu.avx2, Tri::kYes);
  EXPECT_EQ(s.host.cpu.avx512f, Tri::kNo);
  EXPECT_EQ(s.host.cpu.fma, Tri::kYes);
  // A CPU without AVX is a definite "no" (the cpu_no_avx rule needs that, not "unknown").
  FakeHost old(Platform::kWindows);
  old.set_cpu_features(CpuFeatures{"GenuineIntel", "Intel(R) Pentium(R) CPU G6950", false, false, false, false});
  Snapshot s2;
  probe_host(old, s2);
  EXPECT_EQ(s2.host.cpu.avx, Tri::kNo);
  // No CPUID through the host: unknown, never a guess.
  FakeHost none(Platform::kWindows);
  Snapshot s3;
  probe_host(none, s3);
  EXPECT_EQ(s3.host.cpu.avx, Tri::kUnknown);
  EXPECT_EQ(s3.host.cpu.source, "");
}

TEST(WindowsHostProbe, KnownDllsAreTheDataOfTheKnownDllsValuesWithoutTheDirectories) {
  FakeHost h(Platform::kWindows);
  std::string key = kKnownDllsKey;
  h.set_registry_value(key, "kernel32", "kernel32.dll");
  h.set_registry_value(key, "MSVCRT", "msvcrt.dll");
  h.set_registry_value(key, "_wow64", "wow64.dll");
  h.set_registry_value(key, "ADVAPI32", "ADVAPI32.dll");
  h.set_registry_value(key, "advapi32-again", "advapi32.dll");  // the same DLL twice
  h.set_registry_value(key, "DllDirectory", "%SystemRoot%\\system32");
  h.set_registry_value(key, "DllDirectory32", "%SystemRoot%\\syswow64");
  Snapshot s;
  probe_loader(h, s);
  EXPECT_EQ(s.loader.known_dlls, (std::vector<std::string>{"ADVAPI32.dll", "kernel32.dll", "msvcrt.dll", "wow64.dll"}));
  for (const auto& n : s.notes) EXPECT_EQ(n.find("KnownDLLs"), std::string::npos) << n;
}

TEST(WindowsHostProbe, UnreadableKnownDllsKeyIsANoteNotAGuess) {
  FakeHost h(Platform::kWindows);
  Snapshot s;
  probe_loader(h, s);
  EXPECT_TRUE(s.loader.known_dlls.empty());
  ASSERT_FALSE(s.notes.empty());
  EXPECT_NE(s.notes.back().find("KnownDLLs not read"), std::string::npos) << s.notes.back();
}

TEST(WindowsFakeHost, RegistryValuesKeepTheirNamesAndMissingKeysAreNotFound) {
  FakeHost h(Platform::kWindows);
  h.set_registry_value("HKLM\\SOFTWARE\\A", "InstallDir", "C:\\A");
  h.set_registry_value("HKLM\\SOFTWARE\\A\\Sub", "x", "1");
  auto v = h.registry_values("hklm\\software\\a");
  ASSERT_TRUE(v);
  ASSERT_EQ(v->size(), 1u);
  EXPECT_EQ((*v)[0].name, "InstallDir");
  EXPECT_EQ((*v)[0].data, "C:\\A");
  auto parent = h.registry_values("HKLM\\SOFTWARE");  // exists (has a subkey) but holds no values
  ASSERT_TRUE(parent);
  EXPECT_TRUE(parent->empty());
  EXPECT_FALSE(h.registry_values("HKLM\\SOFTWARE\\B"));
  EXPECT_FALSE(h.pci_devices());  // not scripted
  EXPECT_FALSE(h.cpu_features());
}

}  // namespace
}  // namespace tfgpu::probe
