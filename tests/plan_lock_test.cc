// tfgpu.lock.toml: round trip, hostile input, and drift checks against snapshots.
#include <random>

#include <gtest/gtest.h>

#include "plan_scenarios.h"
#include "util/strings.h"

namespace tfgpu::plan {
namespace {

using testing::classic_machine;
using testing::lock_for;
using testing::plan_for;

Lock classic_native_lock() { return lock_for(plan_for(classic_machine())); }
Lock classic_wsl2_lock() { return lock_for(plan_for(classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse})); }

bool has_finding(const std::vector<Finding>& fs, const std::string& id) {
  return std::any_of(fs.begin(), fs.end(), [&](const Finding& f) { return f.id == id; });
}

TEST(PlanLock, RoundTripsThroughToml) {
  for (const Lock& l : {classic_native_lock(), classic_wsl2_lock()}) {
    std::string text = lock_to_toml(l);
    auto back = parse_lock(text);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(lock_to_toml(*back), text);
    EXPECT_EQ(back->tensorflow, l.tensorflow);
    EXPECT_EQ(back->pip, l.pip);
    EXPECT_EQ(back->sources.size(), l.sources.size());
  }
}

TEST(PlanLock, PinsTheVersionsWithTheirSources) {
  Lock l = classic_native_lock();
  EXPECT_EQ(l.tensorflow, "2.10.0");
  EXPECT_EQ(l.cuda, "11.2");
  EXPECT_EQ(l.cudnn, "8.1");
  EXPECT_EQ(l.python, "3.10");
  EXPECT_EQ(l.os, "windows");
  EXPECT_EQ(l.target, "native");
  EXPECT_EQ(l.compute_capability, "8.6");
  EXPECT_EQ(l.driver_seen, "522.06");
  EXPECT_FALSE(l.driver_min.empty());
  ASSERT_FALSE(l.sources.empty());
  for (const auto& s : l.sources) EXPECT_FALSE(s.urls.empty()) << s.fact;
  EXPECT_EQ(l.conda_packages, (std::vector<std::string>{"cudatoolkit=11.2", "cudnn=8.1.0"}));
}

TEST(PlanLock, Wsl2LockLeavesTheExtrasWheelsToTensorflowAndAddsTheKbsConstraints) {
  Lock l = classic_wsl2_lock();
  ASSERT_FALSE(l.pip.empty());
  // The extra's nvidia-* wheels come from TensorFlow's own metadata (== pins of them made
  // pip's resolution impossible for 2.21); the KB's constraints follow the TF line.
  EXPECT_EQ(l.pip, (std::vector<std::string>{"tensorflow[and-cuda]==2.14.0", "numpy<2"}));
  EXPECT_EQ(l.driver_platform, "windows");
}

TEST(PlanLock, MalformedLocksAreClearErrors) {
  EXPECT_FALSE(parse_lock(""));
  EXPECT_FALSE(parse_lock("schema = 2\n"));
  EXPECT_FALSE(parse_lock("schema = \"one\"\n"));
  EXPECT_FALSE(parse_lock("schema = 1\n[host]\nos = 'linux'\n"));
  std::string good = lock_to_toml(classic_native_lock());
  std::string bad_os = good;
  bad_os.replace(bad_os.find("os = \"windows\""), 14, "os = \"beos\"");
  auto r = parse_lock(bad_os);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInput);
  EXPECT_NE(r.error().message.find("beos"), std::string::npos);
  std::string ctrl = good;
  ctrl.replace(ctrl.find("env_name = \"tf-2.10\""), 20, "env_name = \"tf\\u0007x\"");
  EXPECT_FALSE(parse_lock(ctrl));
}

TEST(PlanLock, HostileInputNeverCrashes) {
  std::string good = lock_to_toml(classic_wsl2_lock());
  for (size_t n = 0; n < good.size(); n += 7) {
    auto r = parse_lock(good.substr(0, n));
    if (!r) EXPECT_FALSE(r.error().message.empty());
  }
  std::mt19937 rng(42);
  for (int i = 0; i < 300; ++i) {
    std::string s = good;
    for (int k = 0; k < 8; ++k) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    (void)parse_lock(s);
    std::string junk(rng() % 512, '\0');
    for (auto& c : junk) c = static_cast<char>(rng() % 256);
    (void)parse_lock(junk);
  }
  std::string huge(4u << 20, '[');
  EXPECT_FALSE(parse_lock(huge));
  std::string deep = "x = " + std::string(20000, '[');
  EXPECT_FALSE(parse_lock(deep));
}

Snapshot matching_windows_machine() {
  Snapshot s;
  s.host.os = "windows";
  GpuInfo g;
  g.name = "NVIDIA GeForce RTX 3060";
  g.compute_capability = "8.6";
  s.gpus.push_back(g);
  s.driver.state.status = ProbeStatus::kOk;
  s.driver.version = "522.06";
  PythonEnv env;
  env.executable = "C:\\Users\\u\\miniconda3\\envs\\tf-2.10\\python.exe";
  env.version = "3.10.11";
  env.packages.push_back({"tensorflow", "2.10.0", "site-packages", "METADATA"});
  s.pythons.push_back(env);
  return s;
}

TEST(PlanLockCheck, MatchingMachineHasNoDrift) {
  auto f = check_lock(classic_native_lock(), matching_windows_machine());
  EXPECT_TRUE(f.empty()) << f.front().id << ": " << f.front().title;
}

TEST(PlanLockCheck, OldDriverIsABlocker) {
  Lock l = classic_wsl2_lock();
  Snapshot s = matching_windows_machine();
  s.driver.version = "400.10";
  auto f = check_lock(l, s);
  ASSERT_TRUE(has_finding(f, "lock_drift_driver"));
  const Finding& d = *std::find_if(f.begin(), f.end(), [](const Finding& x) { return x.id == "lock_drift_driver"; });
  EXPECT_EQ(d.severity, Severity::kBlocker);
  EXPECT_NE(d.fix.front().find(l.driver_min), std::string::npos);
  EXPECT_NE(d.fix.front().find("Windows host"), std::string::npos);
}

TEST(PlanLockCheck, OtherTensorflowVersionIsDrift) {
  Snapshot s = matching_windows_machine();
  s.pythons[0].packages[0].version = "2.15.0";
  auto f = check_lock(classic_native_lock(), s);
  EXPECT_TRUE(has_finding(f, "lock_drift_tensorflow"));
  s.pythons[0].packages.clear();
  auto g = check_lock(classic_native_lock(), s);
  EXPECT_TRUE(has_finding(g, "lock_drift_tensorflow_missing"));
}

TEST(PlanLockCheck, PythonGpuAndOsDriftAreReported) {
  Snapshot s = matching_windows_machine();
  s.pythons[0].version = "3.9.7";
  s.gpus[0].compute_capability = "5.2";
  s.gpus[0].name = "NVIDIA GeForce GTX 960";
  auto f = check_lock(classic_native_lock(), s);
  EXPECT_TRUE(has_finding(f, "lock_drift_python"));
  EXPECT_TRUE(has_finding(f, "lock_drift_gpu"));
  s.host.os = "linux";
  EXPECT_TRUE(has_finding(check_lock(classic_native_lock(), s), "lock_drift_os"));
}

TEST(PlanLockCheck, WheelPinsAndSystemCudaAreChecked) {
  Lock l = classic_wsl2_lock();
  Snapshot s;
  s.host.os = "linux";
  s.host.wsl2 = Tri::kYes;
  PythonEnv env;
  env.version = "3.11.4";
  env.packages.push_back({"tensorflow", "2.14.0", "", ""});
  s.pythons.push_back(env);
  l.pip.push_back("nvidia-cudnn-cu11==8.7.0.84");  // as locks written before the KB had ranges pin them
  auto f = check_lock(l, s);
  EXPECT_TRUE(has_finding(f, "lock_drift_wheel"));  // the nvidia-* pin is not installed
  EXPECT_FALSE(has_finding(f, "lock_drift_constraint"));  // no numpy at all: nothing to compare
  s.pythons[0].packages.push_back({"numpy", "2.1.3", "", ""});
  EXPECT_TRUE(has_finding(check_lock(l, s), "lock_drift_constraint"));  // numpy<2 before TF 2.18
  s.pythons[0].packages.back().version = "1.26.4";
  EXPECT_FALSE(has_finding(check_lock(l, s), "lock_drift_constraint"));
  EXPECT_FALSE(has_finding(f, "lock_drift_os"));

  Lock sys = l;
  sys.method = "system-cuda";
  sys.pip = {"tensorflow==2.14.0"};
  auto g = check_lock(sys, s);
  EXPECT_TRUE(has_finding(g, "lock_drift_cuda"));
  EXPECT_TRUE(has_finding(g, "lock_drift_cudnn"));
  s.cuda.push_back({"/usr/local/cuda-11.8", "11.8.89", "", "toolkit", "", {}});
  s.cudnn.push_back({"/usr/local/cuda-11.8", "8.9.7", "", "toolkit", "", "11", {}});
  auto h = check_lock(sys, s);
  EXPECT_FALSE(has_finding(h, "lock_drift_cuda"));
  EXPECT_FALSE(has_finding(h, "lock_drift_cudnn"));
}

}  // namespace
}  // namespace tfgpu::plan
