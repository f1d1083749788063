// Golden files for everything `tfgpu plan --out` writes, per scenario
// (tests/golden/plan/<scenario>/). TFGPU_UPDATE_GOLDEN=1 rewrites them.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "plan/emit.h"
#include "plan_scenarios.h"
#include "report/plan_report.h"
#include "support/read_file.h"

namespace tfgpu::plan {
namespace {

namespace fs = std::filesystem;

fs::path golden_dir(const std::string& scenario) { return fs::path(TFGPU_SOURCE_DIR) / "tests" / "golden" / "plan" / scenario; }

bool update_golden() {
  const char* v = std::getenv("TFGPU_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

void check_golden(const std::string& scenario, const std::vector<EmittedFile>& files) {
  fs::path dir = golden_dir(scenario);
  if (update_golden()) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& f : files) std::ofstream(dir / f.name, std::ios::binary) << f.text;
    return;
  }
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " missing: run with TFGPU_UPDATE_GOLDEN=1";
  std::set<std::string> expected_names;
  for (const auto& e : fs::directory_iterator(dir)) expected_names.insert(e.path().filename().string());
  std::set<std::string> names;
  for (const auto& f : files) {
    names.insert(f.name);
    EXPECT_EQ(f.text, tfgpu::testing::read_file(dir / f.name))
        << scenario << "/" << f.name << " differs (TFGPU_UPDATE_GOLDEN=1 rewrites)";
  }
  EXPECT_EQ(names, expected_names) << scenario;
}

class PlanGolden : public ::testing::TestWithParam<testing::Scenario> {};

TEST_P(PlanGolden, EmittedFilesMatchGoldenFiles) {
  const auto& sc = GetParam();
  auto plan = testing::plan_for(sc.flags, sc.request);
  ASSERT_TRUE(plan.chosen);
  Lock lock = testing::lock_for(plan);
  auto files = emit_all(lock);
  // The report the user reads is part of the contract too.
  files.push_back({"plan.txt", report::render_plan_text({plan, &lock, {}, ""}), FileMode::kRegular});
  check_golden(sc.name, files);
}

INSTANTIATE_TEST_SUITE_P(Plan, PlanGolden, ::testing::ValuesIn(testing::golden_scenarios()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

const EmittedFile* file_named(const std::vector<EmittedFile>& files, const std::string& name) {
  for (const auto& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

TEST(PlanEmit, EachTargetGetsItsOwnSetupScript) {
  auto native = emit_all(testing::lock_for(testing::plan_for(testing::classic_machine())));
  EXPECT_NE(file_named(native, "setup.ps1"), nullptr);
  EXPECT_EQ(file_named(native, "setup.sh"), nullptr);
  auto wsl = emit_all(testing::lock_for(testing::plan_for(testing::classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse})));
  EXPECT_NE(file_named(wsl, "setup.sh"), nullptr);
  EXPECT_NE(file_named(wsl, "Dockerfile"), nullptr);
  EXPECT_EQ(file_named(wsl, "setup.ps1"), nullptr);
  auto docker = emit_all(testing::lock_for(testing::plan_for(testing::classic_machine(), {Target::kDocker, std::nullopt, Preference::kReuse})));
  ASSERT_NE(file_named(docker, "Dockerfile"), nullptr);
  EXPECT_NE(file_named(docker, "Dockerfile")->text.find("FROM tensorflow/tensorflow:"), std::string::npos);
  EXPECT_NE(file_named(docker, "verify.py"), nullptr);
}

TEST(PlanEmit, PowerShellChangesPathThroughTheRegistryWithBackupAndUndo) {
  // A system-CUDA plan (reused toolkit) so that PATH entries are written.
  Snapshot snap;
  snap.host.os = "windows";
  snap.cuda.push_back({"C:\\CUDA\\v11.2", "11.2.2", "", "toolkit", "", {}});
  auto lock = testing::lock_for(testing::plan_for({"", "10de:2503", "522.06", ""}, {}, &snap));
  std::string ps = emit_setup_ps1(lock);
  EXPECT_NE(ps.find("Set-ItemProperty -Path 'HKCU:\\Environment' -Name 'Path'"), std::string::npos);
  EXPECT_NE(ps.find("-Type ExpandString"), std::string::npos);
  EXPECT_NE(ps.find("DoNotExpandEnvironmentNames"), std::string::npos);  // existing %VARS% survive
  EXPECT_NE(ps.find("param([switch]$Undo)"), std::string::npos);
  EXPECT_NE(ps.find("$PathBackup"), std::string::npos);
  EXPECT_NE(ps.find("'C:\\CUDA\\v11.2\\bin'"), std::string::npos);
  // setx truncates PATH at 1024 characters: it must never be called (the word only
  // appears in the comment saying so).
  size_t n = 0;
  for (size_t pos = ps.find("setx"); pos != std::string::npos; pos = ps.find("setx", pos + 1)) ++n;
  EXPECT_EQ(n, 1u);
  EXPECT_NE(ps.find("never with setx"), std::string::npos);
}

TEST(PlanEmit, PowerShellAddsEachPathDirectoryOnceOnTheFirstRun) {
  // cuDNN copied into the toolkit's folder: {cuda_root}\bin and {cudnn_root}\bin are the
  // same directory (the KB's windows_path entries), which the first run added twice.
  Snapshot snap;
  snap.host.os = "windows";
  snap.cuda.push_back({"C:\\CUDA\\v11.2", "11.2.2", "", "toolkit", "", {}});
  snap.cudnn.push_back({"C:\\CUDA\\v11.2\\", "8.1.1", "cudnn_version.h", "toolkit", "", "11", {}});
  auto lock = testing::lock_for(testing::plan_for({"", "10de:2503", "522.06", ""}, {}, &snap));
  ASSERT_FALSE(lock.path_entries.empty());
  size_t bins = 0;
  for (const auto& e : lock.path_entries) bins += e == "C:\\CUDA\\v11.2\\bin" || e == "C:\\CUDA\\v11.2\\\\bin";
  EXPECT_EQ(bins, 1u) << "each directory once in the lock";
  std::string ps = emit_setup_ps1(lock);
  size_t listed = 0;
  for (size_t pos = ps.find("'C:\\CUDA\\v11.2\\bin'"); pos != std::string::npos; pos = ps.find("'C:\\CUDA\\v11.2\\bin'", pos + 1)) ++listed;
  EXPECT_EQ(listed, 1u) << ps;
  // And the script itself never adds a directory twice, whatever $PathEntries holds: each
  // entry is checked against the user PATH *and* what this run is adding.
  EXPECT_NE(ps.find("if (-not (Test-PathEntry (@($parts) + @($missing)) $entry)) { $missing += $entry }"), std::string::npos);
  EXPECT_EQ(ps.find("Where-Object { -not (Test-PathEntry $parts $_) }"), std::string::npos) << "the old check, blind to duplicates";
}

TEST(PlanEmit, ValuesAreQuotedAsDataInEveryLanguage) {
  Lock l = testing::lock_for(testing::plan_for(testing::classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse}));
  l.env_name = "x'; rm -rf / #";
  l.pip = {"tensorflow==2.14.0'$(touch /tmp/pwned)"};
  l.cuda_root = "C:\\it's";
  std::string sh = emit_setup_sh(l);
  EXPECT_NE(sh.find("'tensorflow==2.14.0'\\''$(touch /tmp/pwned)'"), std::string::npos);
  std::string ps = emit_setup_ps1(l);
  EXPECT_NE(ps.find("'x''; rm -rf / #'"), std::string::npos);
  EXPECT_NE(ps.find("'C:\\it''s'"), std::string::npos);
  l.gpu = "evil\nrm -rf /";
  EXPECT_EQ(emit_setup_sh(l).find("\nrm -rf /"), std::string::npos);
}

TEST(PlanEmit, VerifyScriptCarriesTheExpectedVersionsAsJson) {
  Lock l = testing::lock_for(testing::plan_for(testing::classic_machine()));
  std::string py = emit_verify_py(l);
  EXPECT_NE(py.find("EXPECTED = json.loads(\"{\\\"tensorflow\\\":\\\"2.10.0\\\""), std::string::npos) << py.substr(0, 800);
  for (const char* what : {"is_built_with_cuda", "list_physical_devices", "set_memory_growth", "/GPU:0", "/CPU:0",
                           "mixed_float16", "json.dumps"})
    EXPECT_NE(py.find(what), std::string::npos) << what;
}

}  // namespace
}  // namespace tfgpu::plan
