#pragma once
// Rendering of a plan (tfgpu plan): the chosen version set, the runners-up, every
// rejected release with the constraint that excluded it, the steps, and the files
// written. Pure functions of the data: text, JSON, Markdown.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/lock.h"
#include "plan/plan.h"
#include "report/markdown.h"

namespace tfgpu::report {

struct PlanReport {
  const plan::PlanResult& plan;
  const plan::Lock* lock = nullptr;       // null when there is no plan
  std::vector<std::string> written;       // paths of the files written (--out)
  std::string out_dir;
};

std::string render_plan_text(const PlanReport& r);
// "schema_version" of plan_to_json (docs/plan.md); raised when the shape changes.
inline constexpr int kPlanJsonSchemaVersion = 1;
nlohmann::ordered_json plan_to_json(const PlanReport& r);
// Redacted (report/markdown.h); steps and file paths are code spans.
std::string render_plan_markdown(const PlanReport& r, const Redactor& redactor = {});

}  // namespace tfgpu::report
