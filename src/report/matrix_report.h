#pragma once
// Renders a `tfgpu matrix` answer (kb/matrix.h) as terminal text or as the stable JSON
// documented in docs/matrix-json.md. Pure functions of the result.

#include <string>

#include <nlohmann/json.hpp>

#include "kb/matrix.h"

namespace tfgpu {

// Bumped on any incompatible change of matrix_to_json's shape.
inline constexpr int kMatrixJsonSchemaVersion = 1;

std::string render_matrix_text(const kb::MatrixResult& result);
nlohmann::json matrix_to_json(const kb::MatrixResult& result);

}  // namespace tfgpu
