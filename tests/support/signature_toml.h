#pragma once
// The smallest [[finding]] row a signatures file must have (every set defines
// harmless_warning_only), for tests that parse hand-made signature files.

namespace tfgpu::testing {

inline constexpr const char* kHarmlessFindingToml = R"(
[[finding]]
id = "harmless_warning_only"
layer = "framework"
severity = "info"
title = "t"
fix = ["f"]
source = ["s"]
)";

}  // namespace tfgpu::testing
