// The doctor's cost is linear in the snapshot's size (issue 15: a crafted 18 MB snapshot,
// 20,000 GPUs x 5,000 Python environments, took 221 s of CPU). Measured as work, not
// time: the heap allocations of diagnosing and rendering a snapshot, counted by a
// replaced operator new, for a snapshot and one twice its size (twice the GPUs, twice
// the environments). Linear work doubles; work per (environment x GPU) or per
// (environment x environment) quadruples.
#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "kb/kb.h"
#include "report/doctor_report.h"
#include "snapshot/snapshot_json.h"
#include "support/doctor_scenarios.h"
#include "util/json_text.h"

namespace {
std::atomic<long long> g_allocations{0};
}  // namespace

// Counting every allocation of the test binary is cheap (one atomic increment).
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tfgpu {
namespace {

// The scenario's machine with `gpus` copies of its GPU and `envs` copies of its Python
// environment (each at its own path, so each is its own environment to the doctor).
Snapshot scaled(const std::string& scenario, size_t gpus, size_t envs) {
  auto text = testing::read_text(testing::scenario_dir() + "/" + scenario + ".json");
  auto base = parse_snapshot(text, scenario);
  EXPECT_TRUE(base) << (base ? "" : base.error().message);
  Snapshot s = *base;
  s.gpus.clear();
  for (size_t i = 0; i < gpus; ++i) {
    GpuInfo g = base->gpus.at(0);
    g.index = static_cast<int>(i);
    s.gpus.push_back(g);
  }
  s.driver.device_count = static_cast<int>(gpus);
  s.pythons.clear();
  for (size_t i = 0; i < envs; ++i) {
    PythonEnv py = base->pythons.at(0);
    py.executable = "/opt/envs/e" + std::to_string(i) + "/bin/python3";
    py.prefix = "/opt/envs/e" + std::to_string(i);
    py.active = i == 0;
    s.pythons.push_back(py);
  }
  return s;
}

long long work_of(const Snapshot& s, const kb::KnowledgeBase& kb) {
  long long before = g_allocations.load();
  DoctorReport r = diagnose(s, kb);
  std::string text = render_doctor_text(r, Color::kOff);
  std::string json = dump_json(doctor_to_json(r));
  EXPECT_FALSE(text.empty());
  EXPECT_FALSE(json.empty());
  return g_allocations.load() - before;
}

class DoctorLinear : public ::testing::TestWithParam<const char*> {};

TEST_P(DoctorLinear, TwiceTheSnapshotIsAtMostAboutTwiceTheWork) {
  auto kb = kb::load_embedded();
  ASSERT_TRUE(kb);
  Snapshot small = scaled(GetParam(), 200, 60);
  Snapshot large = scaled(GetParam(), 400, 120);
  long long a = work_of(small, *kb);
  long long b = work_of(large, *kb);
  double ratio = static_cast<double>(b) / static_cast<double>(a);
  // 2.0 for linear work; 4.0 when the work is per pair. 2.6 leaves room for the
  // logarithmic parts (sorting, maps) and fixed costs.
  EXPECT_LE(ratio, 2.6) << a << " allocations for 200 GPUs x 60 environments, " << b << " for 400 x 120";
  EXPECT_GE(ratio, 1.5) << "the larger snapshot was not diagnosed in full";
}

// A GPU TensorFlow ignores (compute capability below the build's) is evidence per GPU
// in every environment; a supported one, per-environment verdicts and library loads.
INSTANTIATE_TEST_SUITE_P(Scenarios, DoctorLinear,
                         ::testing::Values("linux_gtx960_tf218", "linux_pip_and_cuda_good", "linux_h100_ptx_jit"));

}  // namespace
}  // namespace tfgpu
