// libFuzzer target for the probe's own small text readers, driven through a FakeHost:
// the same bytes become /etc/os-release, /proc/cpuinfo, /proc/version, /proc/1/cgroup,
// /proc/driver/nvidia/version, a sysfs PCI device, the vendor-library child's stdout,
// a venv's pyvenv.cfg, a METADATA and a build_info.py. The probe must never crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/fake_host.h"
#include "probe/probe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfgpu;
  std::string bytes(reinterpret_cast<const char*>(data), size);
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
  (void)probe::probe_machine(host, o);
  return 0;
}
