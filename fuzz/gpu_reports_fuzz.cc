// Fuzzes every parser of `verify` / `bench` input that crosses a process boundary: the
// child's verify and bench reports, the TensorFlow check's stdout and --prediction files.
// Anything may come back as an error; nothing may crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "gpu/bench.h"
#include "gpu/tf_check.h"
#include "gpu/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)tfgpu::gpu::parse_tf_check(text);
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  (void)tfgpu::gpu::verify_report_from_json(j);
  (void)tfgpu::gpu::bench_report_from_json(j);
  (void)tfgpu::gpu::prediction_from_json(j);
  if (j.is_object()) {
    j["schema"] = "tfgpu.verify/1";
    (void)tfgpu::gpu::verify_report_from_json(j);
    j["schema"] = "tfgpu.bench/1";
    (void)tfgpu::gpu::bench_report_from_json(j);
  }
  return 0;
}
