#pragma once
// Renders `tfgpu verify`: the driver steps, each device's steps, and (with --python)
// TensorFlow's own answer next to the prediction. Pure functions of the data.

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "gpu/tf_check.h"
#include "gpu/verify.h"
#include "report/markdown.h"

namespace tfgpu::report {

enum class Colour { kOff, kOn };

// What `tfgpu verify` found: the driver check and, optionally, the TensorFlow check.
struct VerifyOutcome {
  gpu::VerifyReport driver;
  std::optional<std::string> python;  // --python PATH
  std::optional<gpu::TfCheckResult> tf;
  std::optional<gpu::PredictionCheck> prediction;
  std::string predicted;  // who predicted what (describe_prediction), or why there is no prediction
  bool passed() const;  // every driver step passed and, when asked, the prediction held
};

std::string render_verify_text(const VerifyOutcome& v, Colour colour = Colour::kOff);
// Redacted (report/markdown.h).
std::string render_verify_markdown(const VerifyOutcome& v, const Redactor& redactor = {});
// "schema_version" of verify_json, as every --json output has (docs/verify-json.md).
inline constexpr int kVerifyJsonSchemaVersion = 1;
nlohmann::json verify_json(const VerifyOutcome& v);  // docs/verify-json.md

}  // namespace tfgpu::report
