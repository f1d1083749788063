#pragma once
// The lowest compute capability whose Tensor Cores take a GEMM input type
// (kb/gpus.toml `[[tensor_precision]]`, e.g. FP8 from 8.9): `tfgpu bench` measures FP8
// only on cards at or above it. Read on its own, like the log signatures, from the
// embedded KB or `--kb DIR`; the rows carry `source` / `verified` like every KB row.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.h"
#include "kb/embedded.h"
#include "kb/kb.h"
#include "util/error.h"

namespace tfgpu::kb {

struct TensorPrecision {
  std::string precision;  // "bf16", "fp8"
  ComputeCapability min_cc;
  std::string note;
  Provenance prov;
};

// The [[tensor_precision]] rows of a gpus.toml text. Malformed TOML or a row without
// precision / min_cc / source is a kInput error naming the file and row.
Result<std::vector<TensorPrecision>> parse_tensor_precisions(std::string_view toml_text, std::string_view file_name);
// From the embedded gpus.toml, or DIR/gpus.toml when `kb_dir` is set.
Result<std::vector<TensorPrecision>> load_tensor_precisions(std::span<const EmbeddedFile> files);
Result<std::vector<TensorPrecision>> load_tensor_precisions(const Host& host, const std::string& kb_dir);

// The row for "fp8"; nullptr when there is none.
const TensorPrecision* find_tensor_precision(std::span<const TensorPrecision> rows, std::string_view precision);

}  // namespace tfgpu::kb
