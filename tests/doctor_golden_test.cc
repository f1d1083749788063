// Golden files for the doctor's three renderings of several scenarios
// (tests/golden/doctor/<scenario>.{txt,json,md}). TFGPU_UPDATE_GOLDEN=1 rewrites them;
// review the diff before committing.
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "report/doctor_report.h"
#include "report/text_wrap.h"
#include "support/doctor_scenarios.h"

namespace tfgpu {
namespace {

std::string golden_path(const std::string& name) { return std::string(TFGPU_SOURCE_DIR) + "/tests/golden/doctor/" + name; }

void check_golden(const std::string& file, const std::string& actual) {
  const char* update = std::getenv("TFGPU_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(golden_path(file), std::ios::binary) << actual;
    return;
  }
  std::string want = testing::read_text(golden_path(file));
  ASSERT_FALSE(want.empty()) << golden_path(file) << " missing: run with TFGPU_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, want) << file << " differs (TFGPU_UPDATE_GOLDEN=1 rewrites it)";
}

class DoctorGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(DoctorGolden, TextJsonAndMarkdownMatchTheGoldenFiles) {
  Snapshot s = testing::load_scenario(GetParam());
  DoctorReport r = diagnose(s, testing::test_kb());
  // As an 80-column terminal (or a file) shows it: wrapped with hanging indents.
  check_golden(GetParam() + ".txt", report::wrap_text(render_doctor_text(r, Color::kOff), report::kDefaultTextWidth));
  check_golden(GetParam() + ".json", doctor_to_json(r).dump(2) + "\n");
  check_golden(GetParam() + ".md", render_doctor_markdown(r));
}

INSTANTIATE_TEST_SUITE_P(Scenarios, DoctorGolden,
                         ::testing::Values("win_classic_guide_tf212", "linux_pip_and_cuda_good", "wsl2_linux_driver_inside",
                                           "linux_no_gpu_no_tf", "win_old_cudart_first_on_path", "linux_old_cudnn_shadows"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tfgpu
