#pragma once
// Parent side of the vendor-library children: runs `tfgpu __probe-driver` through
// Host::run with the probe's timeout and turns whatever happened (JSON answer,
// crash, hang, garbage) into a LoadAttempt for the snapshot.

#include <string>

#include <nlohmann/json.hpp>

#include "host/host.h"
#include "probe/driver_child.h"
#include "probe/probe.h"
#include "snapshot/snapshot.h"

namespace tfgpu::probe {

struct ChildAnswer {
  bool ok = false;         // the child answered and the library worked
  nlohmann::json json;     // the child's answer (object; empty when it crashed / hung)
  LoadAttempt attempt;     // for DriverInfo::attempts
  std::string summary;     // one line: "libnvidia-ml.so.1: cannot open shared object file ..."
};

ChildAnswer run_vendor_child(const Host& host, const ProbeOptions& options, VendorLibrary library,
                             const std::string& path);

}  // namespace tfgpu::probe
