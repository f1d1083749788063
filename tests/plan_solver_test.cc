// The plan solver against the acceptance scenarios and each constraint on its own.
#include <algorithm>

#include <gtest/gtest.h>

#include "plan_scenarios.h"
#include "util/strings.h"

namespace tfgpu::plan {
namespace {

using testing::classic_machine;
using testing::plan_for;

bool rejected_with(const PlanResult& p, const std::string& tf_series, const std::string& constraint,
                   const std::string& text = "") {
  return std::any_of(p.rejected.begin(), p.rejected.end(), [&](const Rejection& r) {
    return r.tf.truncated(2).str() == tf_series && r.constraint == constraint &&
           (text.empty() || r.reason.find(text) != std::string::npos);
  });
}

TEST(PlanSolver, ClassicWindowsMachineGetsTf210WithCuda112Cudnn81Python310) {
  auto p = plan_for(classic_machine());
  ASSERT_EQ(p.status, PlanStatus::kOk);
  ASSERT_TRUE(p.chosen);
  EXPECT_EQ(p.target, Target::kNative);
  EXPECT_EQ(p.chosen->tf->series().str(), "2.10");
  EXPECT_EQ(p.chosen->cuda.str(), "11.2");
  EXPECT_EQ(p.chosen->cudnn.str(), "8.1");
  ASSERT_TRUE(p.chosen->python);
  EXPECT_EQ(p.chosen->python->str(), "3.10");
  EXPECT_EQ(p.chosen->tf_platform, Platform::kWindows);
  EXPECT_EQ(p.chosen->method, Method::kConda);  // the official conda recipe exists for 11.2 / 8.1
  // The driver it has satisfies the plan: no driver step.
  ASSERT_FALSE(p.steps.empty());
  EXPECT_EQ(p.steps.front().find("driver"), std::string::npos) << p.steps.front();
}

TEST(PlanSolver, NativeWindowsRejectsTf211AndNewerForNoGpuBuild) {
  auto p = plan_for(classic_machine());
  EXPECT_TRUE(rejected_with(p, "2.15", "no_gpu_build", "TF 2.15 on native Windows: no GPU build"));
  EXPECT_TRUE(rejected_with(p, "2.11", "no_gpu_build"));
  EXPECT_FALSE(rejected_with(p, "2.10", "no_gpu_build"));
}

TEST(PlanSolver, ClassicMachineInWsl2GetsTheNewestTfItsDriverSupports) {
  auto p = plan_for(classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse});
  ASSERT_EQ(p.status, PlanStatus::kOk);
  ASSERT_TRUE(p.chosen);
  // Driver 522.06 (Windows numbering) runs CUDA 11.x but not 12.x (needs >= 527.41).
  EXPECT_EQ(p.chosen->tf->series().str(), "2.14");
  EXPECT_EQ(p.chosen->cuda.str(), "11.8");
  EXPECT_EQ(p.chosen->driver_platform, Platform::kWindows);
  EXPECT_EQ(p.chosen->tf_platform, Platform::kLinux);
  EXPECT_EQ(p.chosen->method, Method::kPipAndCuda);
  EXPECT_TRUE(rejected_with(p, "2.15", "driver", "522.06"));
  EXPECT_TRUE(rejected_with(p, "2.21", "driver"));
  // Every release newer than the chosen one is rejected, and only for the driver.
  for (const auto& r : p.rejected)
    if (r.tf > p.chosen->tf->version) EXPECT_EQ(r.constraint, "driver") << r.reason;
  ASSERT_FALSE(p.runners_up.empty());
  EXPECT_LT(p.runners_up.front().tf->version, p.chosen->tf->version);
}

TEST(PlanSolver, AndCudaPinPipCannotInstallMovesThePlanToAnotherPython) {
  // TF 2.14's [and-cuda] pins tensorrt==8.5.3.1, which PyPI lacks for Python 3.11.
  auto p = plan_for(classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse});
  ASSERT_TRUE(p.chosen);
  ASSERT_EQ(p.chosen->tf->series().str(), "2.14");
  EXPECT_EQ(p.chosen->python->str(), "3.10");
  bool warned = std::any_of(p.chosen->warnings.begin(), p.chosen->warnings.end(),
                            [](const std::string& w) { return w.find("tensorrt==8.5.3.1") != std::string::npos; });
  EXPECT_TRUE(warned);
  auto flags = classic_machine();
  flags.python = "3.11";  // forced: kept, with the warning
  auto q = plan_for(flags, {Target::kWsl2, std::nullopt, Preference::kReuse});
  ASSERT_TRUE(q.chosen);
  EXPECT_EQ(q.chosen->python->str(), "3.11");
  EXPECT_FALSE(q.chosen->warnings.empty());
}

TEST(PlanSolver, Gtx960NeverGetsTf218OrNewer) {
  MachineFlags gtx960{"linux", "10de:1401", "580.65.06", ""};
  auto newest = Version::parse("2.18").value();
  for (Target t : {Target::kNative, Target::kDocker}) {
    for (Preference pref : {Preference::kReuse, Preference::kLatest}) {
      auto p = plan_for(gtx960, {t, std::nullopt, pref});
      ASSERT_TRUE(p.chosen);
      EXPECT_LT(p.chosen->tf->version, newest) << p.chosen->label();
      for (const auto& o : p.runners_up) EXPECT_LT(o.tf->version, newest);
      EXPECT_TRUE(rejected_with(p, "2.18", "compute_capability", "compute 5.2"));
    }
  }
  // Asked for 2.18 explicitly: refused, with the nearest plan below it.
  auto p = plan_for(gtx960, {Target::kNative, std::string("2.18"), Preference::kReuse});
  EXPECT_EQ(p.status, PlanStatus::kNearest);
  ASSERT_TRUE(p.chosen);
  EXPECT_LT(p.chosen->tf->version, newest);
  ASSERT_FALSE(p.explanation.empty());
  EXPECT_NE(p.explanation.front().find("cannot plan TF 2.18"), std::string::npos) << p.explanation.front();
}

TEST(PlanSolver, DriverTooOldForEveryCudaMakesDriverUpdateStepOne) {
  auto p = plan_for({"linux", "10de:2503", "390.10", ""});
  ASSERT_EQ(p.status, PlanStatus::kNeedsDriverUpdate);
  ASSERT_TRUE(p.chosen);
  ASSERT_FALSE(p.steps.empty());
  std::string want = "Update the NVIDIA driver to >= " + p.chosen->min_driver.str();
  EXPECT_EQ(p.steps.front().rfind(want, 0), 0u) << p.steps.front();
  EXPECT_NE(p.steps.front().find("390.10"), std::string::npos);
  // No release was feasible with this driver.
  EXPECT_TRUE(p.runners_up.empty());
}

// A release the KB keeps only for matrix and explain (plan = false) is planned when asked for.
TEST(PlanSolver, ATensorflow1xRowIsPlannedOnlyWhenAskedFor) {
  MachineFlags flags{"linux", "10de:1b80", "390.10", ""};  // GTX 1080: CUDA 9.0 runs on 390
  auto unasked = plan_for(flags);
  EXPECT_EQ(unasked.status, PlanStatus::kNeedsDriverUpdate);
  ASSERT_TRUE(unasked.chosen);
  EXPECT_FALSE(unasked.chosen->tf->version < *Version::parse("1.13"));
  auto asked = plan_for(flags, {std::nullopt, std::string("1.12"), Preference::kReuse});
  ASSERT_TRUE(asked.chosen);
  EXPECT_EQ(asked.chosen->tf->version.str(), "1.12.0");
  EXPECT_EQ(asked.chosen->cuda.str(), "9.0");
  EXPECT_EQ(asked.chosen->package, "tensorflow-gpu");
}

TEST(PlanSolver, Wsl2DriverStepPointsAtTheWindowsHost) {
  auto flags = classic_machine();
  flags.driver = "400.00";
  auto p = plan_for(flags, {Target::kWsl2, std::nullopt, Preference::kReuse});
  ASSERT_EQ(p.status, PlanStatus::kNeedsDriverUpdate);
  EXPECT_NE(p.steps.front().find("Windows host"), std::string::npos) << p.steps.front();
  EXPECT_NE(p.steps.front().find("never install a Linux NVIDIA driver inside WSL2"), std::string::npos);
}

TEST(PlanSolver, UnknownDriverMakesInstallingOneStepOne) {
  auto p = plan_for({"linux", "10de:2503", "", ""});
  ASSERT_EQ(p.status, PlanStatus::kOk);
  EXPECT_EQ(p.steps.front().rfind("Install an NVIDIA driver >= ", 0), 0u) << p.steps.front();
}

TEST(PlanSolver, ImpossibleRequestGetsAnExplanationAndTheNearestFeasiblePlan) {
  auto p = plan_for(classic_machine(), {Target::kNative, std::string("2.15"), Preference::kReuse});
  EXPECT_EQ(p.status, PlanStatus::kNearest);
  ASSERT_TRUE(p.chosen);
  EXPECT_EQ(p.chosen->tf->series().str(), "2.10");
  std::string all = join(p.explanation, "\n");
  EXPECT_NE(all.find("TF 2.15 on native Windows: no GPU build"), std::string::npos) << all;
  EXPECT_NE(all.find("--target wsl2"), std::string::npos) << all;
}

TEST(PlanSolver, RequestedPythonWithoutAWheelExcludesTheRelease) {
  auto flags = classic_machine();
  flags.python = "3.11";
  auto p = plan_for(flags);
  // No native-Windows GPU release has a Python 3.11 wheel (2.10 stops at 3.10).
  EXPECT_TRUE(rejected_with(p, "2.10", "python", "Python 3.11"));
  EXPECT_NE(p.status, PlanStatus::kOk);
  flags.python = "3.8";
  auto q = plan_for(flags);
  ASSERT_EQ(q.status, PlanStatus::kOk);
  EXPECT_EQ(q.chosen->tf->series().str(), "2.10");
  EXPECT_EQ(q.chosen->python->str(), "3.8");
}

TEST(PlanSolver, InstalledPythonIsPreferredUnlessLatestIsAsked) {
  Snapshot snap;
  snap.host.os = "windows";
  PythonEnv env;
  env.version = "3.9.13";
  snap.pythons.push_back(env);
  auto p = plan_for({"", "10de:2503", "522.06", ""}, {}, &snap);
  ASSERT_TRUE(p.chosen);
  EXPECT_EQ(p.chosen->python->str(), "3.9");
  EXPECT_TRUE(p.chosen->python_reused);
  auto q = plan_for({"", "10de:2503", "522.06", ""}, {std::nullopt, std::nullopt, Preference::kLatest}, &snap);
  EXPECT_EQ(q.chosen->python->str(), "3.10");
}

TEST(PlanSolver, MatchingInstalledCudaIsReusedInsteadOfAddingAnother) {
  Snapshot snap;
  snap.host.os = "windows";
  snap.cuda.push_back({"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2", "11.2.2", "version.json", "toolkit", "", {}});
  snap.cudnn.push_back({"C:\\tools\\cudnn-8.1", "8.1.1", "cudnn_version.h", "standalone", "", "11", {}});
  auto p = plan_for({"", "10de:2503", "522.06", ""}, {}, &snap);
  ASSERT_TRUE(p.chosen);
  EXPECT_EQ(p.chosen->method, Method::kSystemCuda);
  ASSERT_TRUE(p.chosen->reuse_cuda);
  EXPECT_EQ(p.chosen->reuse_cuda->root, snap.cuda[0].root);
  ASSERT_TRUE(p.chosen->reuse_cudnn);
  auto lock = testing::lock_for(p);
  EXPECT_EQ(lock.cuda_root, snap.cuda[0].root);
  ASSERT_FALSE(lock.path_entries.empty());
  EXPECT_EQ(lock.path_entries.front(), snap.cuda[0].root + "\\bin");
  EXPECT_TRUE(lock.cuda_installer.empty()) << "nothing to download when CUDA is reused";
}

TEST(PlanSolver, LinuxWithMatchingSystemCudaUsesItInsteadOfPipWheels) {
  Snapshot snap;
  snap.host.os = "linux";
  snap.cuda.push_back({"/usr/local/cuda-11.8", "11.8.89", "version.json", "toolkit", "", {}});
  snap.cudnn.push_back({"/usr/local/cuda-11.8", "8.9.7", "cudnn_version.h", "toolkit", "", "11", {}});
  auto p = plan_for({"", "10de:2503", "522.06", ""}, {}, &snap);
  ASSERT_TRUE(p.chosen);
  EXPECT_EQ(p.chosen->tf->series().str(), "2.14");
  EXPECT_EQ(p.chosen->method, Method::kSystemCuda);
  auto q = plan_for({"", "10de:2503", "522.06", ""}, {std::nullopt, std::nullopt, Preference::kLatest}, &snap);
  EXPECT_EQ(q.chosen->method, Method::kPipAndCuda);
  EXPECT_FALSE(q.chosen->reuse_cuda) << "a pip-and-cuda plan does not use the system CUDA";
  EXPECT_FALSE(q.chosen->reuse_cudnn);
}

TEST(PlanSolver, FlagsOverrideTheSnapshot) {
  Snapshot snap;
  snap.host.os = "linux";
  snap.driver.state.status = ProbeStatus::kOk;
  snap.driver.version = "390.10";
  GpuInfo g;
  g.name = "NVIDIA GeForce GTX 960";
  g.compute_capability = "5.2";
  snap.gpus.push_back(g);
  auto m = describe_machine(&snap, {"windows", "10de:2503", "522.06", ""}, testing::test_kb());
  ASSERT_TRUE(m);
  EXPECT_EQ(m->os, "windows");
  EXPECT_EQ(m->cc->str(), "8.6");
  EXPECT_EQ(driver_text(*m->driver), "522.06");
  auto from_snap = describe_machine(&snap, {}, testing::test_kb());
  ASSERT_TRUE(from_snap);
  EXPECT_EQ(from_snap->cc->str(), "5.2");
  EXPECT_EQ(driver_text(*from_snap->driver), "390.10");
}

TEST(PlanSolver, SnapshotGpuWithoutComputeCapabilityIsLookedUpByPciId) {
  Snapshot snap;
  snap.host.os = "linux";
  GpuInfo g;
  g.pci_id = "10de:1401";
  snap.gpus.push_back(g);
  auto m = describe_machine(&snap, {}, testing::test_kb());
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->cc);
  EXPECT_EQ(m->cc->str(), "5.2");
}

TEST(PlanSolver, InsideWsl2SnapshotPlansForWsl2WithTheWindowsDriverNumbers) {
  Snapshot snap;
  snap.host.os = "linux";
  snap.host.wsl2 = Tri::kYes;
  auto p = plan_for({"", "10de:2503", "522.06", ""}, {}, &snap);
  EXPECT_EQ(p.target, Target::kWsl2);
  ASSERT_TRUE(p.chosen);
  EXPECT_EQ(p.chosen->driver_platform, Platform::kWindows);
  EXPECT_EQ(p.chosen->tf->series().str(), "2.14");
}

TEST(PlanSolver, BadMachineDescriptionsAreUsageErrors) {
  const auto& kb = testing::test_kb();
  EXPECT_EQ(describe_machine(nullptr, {}, kb).error().kind, ErrorKind::kUsage);  // OS unknown
  EXPECT_EQ(describe_machine(nullptr, {"solaris", "", "", ""}, kb).error().kind, ErrorKind::kUsage);
  EXPECT_EQ(describe_machine(nullptr, {"linux", "10de:ffff", "", ""}, kb).error().kind, ErrorKind::kUsage);
  EXPECT_EQ(describe_machine(nullptr, {"linux", "", "five", ""}, kb).error().kind, ErrorKind::kUsage);
  EXPECT_EQ(describe_machine(nullptr, {"linux", "", "", "3"}, kb).error().kind, ErrorKind::kUsage);
  auto m = describe_machine(nullptr, {"linux", "", "", ""}, kb);
  ASSERT_TRUE(m);
  auto bad_tf = solve(*m, {std::nullopt, std::string("9.99"), Preference::kReuse}, kb, testing::test_packaging());
  ASSERT_FALSE(bad_tf);
  EXPECT_NE(bad_tf.error().message.find("did you mean"), std::string::npos) << bad_tf.error().message;
  auto wsl_on_linux = solve(*m, {Target::kWsl2, std::nullopt, Preference::kReuse}, kb, testing::test_packaging());
  ASSERT_FALSE(wsl_on_linux);
  EXPECT_EQ(wsl_on_linux.error().kind, ErrorKind::kUsage);
}

TEST(PlanSolver, MacosHasNoPlan) {
  Snapshot snap;
  snap.host.os = "macos";
  auto m = describe_machine(&snap, {}, testing::test_kb());
  ASSERT_TRUE(m);
  auto p = solve(*m, {}, testing::test_kb(), testing::test_packaging());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->status, PlanStatus::kNoPlan);
  EXPECT_FALSE(p->chosen);
  EXPECT_NE(join(p->explanation, "\n").find("macOS"), std::string::npos);
}

TEST(PlanSolver, EveryChosenPlanCitesTheKbRowsBehindIt) {
  auto p = plan_for(classic_machine());
  ASSERT_TRUE(p.chosen);
  auto has = [&](const std::string& prefix) {
    return std::any_of(p.chosen->cites.begin(), p.chosen->cites.end(),
                       [&](const kb::Citation& c) { return c.row.rfind(prefix, 0) == 0 && !c.sources.empty(); });
  };
  EXPECT_TRUE(has("tensorflow 2.10"));
  EXPECT_TRUE(has("cuda"));  // the driver requirement's family or release row
}

}  // namespace
}  // namespace tfgpu::plan
