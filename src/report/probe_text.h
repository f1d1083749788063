#pragma once
// `tfgpu probe` as text: the four layers in order (hardware, driver, runtime,
// framework), key facts with where each was read from. A pure function of the Snapshot.

#include <string>

#include "snapshot/snapshot.h"

namespace tfgpu {

enum class ProbeTextDetail { kSummary, kAllLibraries };

std::string render_probe_text(const Snapshot& s, ProbeTextDetail detail = ProbeTextDetail::kSummary);

}  // namespace tfgpu
