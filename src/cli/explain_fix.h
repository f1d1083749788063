#pragma once
// Fix steps for explain that name exact versions: when a report states its TensorFlow
// release, the runtime findings get the CUDA / cuDNN that release was built with and the
// commands for the report's platform, from the same KB (and packaging rows) as `matrix`
// and `plan` — not templates.
#include <string>
#include <vector>

#include "explain/log_facts.h"
#include "kb/kb.h"
#include "plan/packaging.h"
#include "rules/finding.h"

namespace tfgpu {

// Steps to put before the finding's generic fix; empty when the report does not state a
// TF release the KB knows, or the finding is not about the CUDA/cuDNN install.
std::vector<std::string> version_specific_fix(const Finding& finding, const explain::LogFacts& facts,
                                              const kb::KnowledgeBase& kb, const plan::Packaging* packaging);

}  // namespace tfgpu
