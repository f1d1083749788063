// bench's child report is checked field by field: a wrong type is an error naming the
// field (tfgpu bench then exits 3 with that one line), never an uncaught JSON exception.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu/bench.h"

namespace tfgpu::gpu {
namespace {

using nlohmann::json;

std::string error_of(const json& j) {
  auto r = bench_report_from_json(j);
  EXPECT_FALSE(r) << j.dump();
  return r ? "" : r.error().message;
}

TEST(BenchReportJson, FuzzerCrashInputIsAnErrorNotAnException) {
  // ../shared/crashes/gpu_reports_fuzz-minimized.json
  EXPECT_EQ(error_of(json::parse(R"({"schema":true})")), "malformed bench report: 'schema' is boolean, not a string");
}

TEST(BenchReportJson, WrongTypesAreNamed) {
  json ok = {{"schema", "tfgpu.bench/1"}, {"mode", "quick"}, {"reps", 3}};
  ASSERT_TRUE(bench_report_from_json(ok));
  auto with = [&](const char* key, json v) {
    json j = ok;
    j[key] = v;
    return error_of(j);
  };
  EXPECT_EQ(with("mode", 1), "malformed bench report: 'mode' is number, not a string");
  EXPECT_EQ(with("reps", "3"), "malformed bench report: 'reps' is string, not an integer");
  EXPECT_EQ(with("reps", 1e30), "malformed bench report: 'reps' is number, not an integer");
  EXPECT_EQ(with("reps", 4294967297ull), "malformed bench report: 'reps' is out of range");
  EXPECT_EQ(with("gemm", json::object()), "malformed bench report: 'gemm' is object, not an array");
  EXPECT_EQ(with("gemm", json::array({1})), "malformed bench report: a 'gemm' row is number, not an object");
  EXPECT_EQ(with("gemm", json::array({{{"precision", "fp16"}, {"m", "64"}}})),
            "malformed bench report: 'm' is string, not an integer");
  EXPECT_EQ(with("bandwidth", json::array({{{"id", "d2d"}, {"bytes", -1}}})), "malformed bench report: 'bytes' is out of range");
  EXPECT_EQ(with("driver_library", {{"opened", false}}), "malformed bench report: 'opened' is boolean, not a string");
  EXPECT_EQ(error_of(json::array()), "malformed bench report: it is array, not an object");
}

}  // namespace
}  // namespace tfgpu::gpu
