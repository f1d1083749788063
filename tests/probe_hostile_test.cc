// Hostile machine contents (truncated, random, huge, binary) in every file the probe
// reads and in the vendor-library child's output: the probe fills a Snapshot with
// reasons and never crashes. The same driver as fuzz/probe_files_fuzz.cc.
#include <random>

#include <gtest/gtest.h>

#include "host/fake_host.h"
#include "probe/probe.h"
#include "snapshot/snapshot_json.h"

namespace tfgpu {
namespace {

Snapshot probe_with_everywhere(const std::string& bytes) {
  FakeHost host;
  host.set_os_release({"Linux", bytes.substr(0, 64), "x86_64"});
  for (const char* f : {"/etc/os-release", "/proc/cpuinfo", "/proc/version", "/proc/1/cgroup",
                        "/proc/driver/nvidia/version", "/sys/bus/pci/devices/0000:01:00.0/vendor",
                        "/sys/bus/pci/devices/0000:01:00.0/device", "/sys/bus/pci/devices/0000:01:00.0/class",
                        "/v/pyvenv.cfg", "/v/lib/python3.11/site-packages/tensorflow-2.15.0.dist-info/METADATA",
                        "/v/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py",
                        "/usr/local/cuda-12.2/version.json", "/usr/local/cuda-12.2/include/cudnn_version.h",
                        "/usr/local/cuda-12.2/lib64/libcudart.so.12", "/etc/ld.so.cache", "/etc/ld.so.conf"})
    host.add_file(f, bytes);
  host.add_file("/v/bin/python3", bytes, 0755);
  host.set_env("PATH", "/v/bin");
  host.set_env("VIRTUAL_ENV", "/v");
  host.set_process_handler([&](const ProcessSpec&) -> Result<ProcessResult> {
    ProcessResult r;
    r.exited = true;
    r.exit_code = 0;
    r.out = bytes;
    r.err = bytes;
    return r;
  });
  probe::ProbeOptions o;
  o.runtime_calls = probe::RuntimeCalls::kYes;
  return probe::probe_machine(host, o);
}

void expect_survives(const std::string& bytes) {
  Snapshot s = probe_with_everywhere(bytes);
  EXPECT_NE(s.driver.state.status, ProbeStatus::kNotProbed);
  EXPECT_NE(s.python_state.status, ProbeStatus::kNotProbed);
  // Whatever was read must still serialise and parse back.
  auto back = snapshot_from_json(snapshot_to_json(s));
  EXPECT_TRUE(back.has_value());
}

TEST(ProbeHostile, EmptyFilesEverywhere) { expect_survives(""); }

TEST(ProbeHostile, TruncatedRealisticContents) {
  const std::string real =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05\n{\"library\":\"nvml\",\"ok\":true,\"gpus\":[{\"index\":";
  for (size_t n = 0; n <= real.size(); n += 7) expect_survives(real.substr(0, n));
}

TEST(ProbeHostile, ChildJsonWithWrongTypes) {
  expect_survives(R"({"library":1,"ok":"yes","tried":[1,2],"errors":{},"gpus":[{"index":"x","memory_total_bytes":-5},3],"device_count":"2"})");
  expect_survives(R"({"ok":true,"gpus":[{"pci_bus_id":"0000:01:00.0"}],"driver_version":["a"]})");
}

TEST(ProbeHostile, RandomBytes) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 30; ++i) {
    std::string b(rng() % 2048, '\0');
    for (auto& c : b) c = static_cast<char>(rng());
    expect_survives(b);
  }
}

TEST(ProbeHostile, HugeLines) { expect_survives(std::string(2u << 20, 'A') + "\n=\"" + std::string(1000, '\xff')); }

}  // namespace
}  // namespace tfgpu
