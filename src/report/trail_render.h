#pragma once
// The loader trail behind a piece of evidence, shortened for people: the first few
// places tried, "… N more", and the place the search ended (text and Markdown). JSON
// carries the whole trail (docs/doctor-json.md). Pure.

#include <cstddef>
#include <string>
#include <vector>

#include "rules/finding.h"

namespace tfgpu {

// One line per place kept, without indentation or bullets:
// "1. PATH #1: C:\CUDA\v11.0\bin\cudart64_110.dll, chosen" / "… 5 more".
// Keeps the whole trail when it has at most `keep` + 1 steps; otherwise the first
// `keep` - 1 steps, a "… N more" line and the last step.
std::vector<std::string> short_trail(const std::vector<TrailStep>& trail, size_t keep = 4);

}  // namespace tfgpu
