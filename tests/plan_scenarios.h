#pragma once
// Shared fixtures of the plan tests: the knowledge base, and the machines of the
// acceptance scenarios described by flags (as `tfgpu plan --os ... --gpu ...` would).

#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kb/kb.h"
#include "plan/lock.h"
#include "plan/packaging.h"
#include "plan/plan.h"

namespace tfgpu::plan::testing {

inline const kb::KnowledgeBase& test_kb() {
  static const kb::KnowledgeBase k = [] {
    auto r = kb::load_embedded();
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(*r);
  }();
  return k;
}

inline const Packaging& test_packaging() {
  static const Packaging p = [] {
    auto r = load_packaging(embedded_kb_files());
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(*r);
  }();
  return p;
}

struct Scenario {
  std::string name;       // golden directory under tests/golden/plan/
  MachineFlags flags;
  PlanRequest request;
};

// gtest prints parameters with this (the scenario's name instead of its bytes).
inline void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }

// The classic guide's machine: Windows, RTX 3060 (10de:2503, GA106), driver 522.06.
inline MachineFlags classic_machine() { return {"windows", "10de:2503", "522.06", ""}; }

inline std::vector<Scenario> golden_scenarios() {
  return {
      {"classic-windows-native", classic_machine(), {}},
      {"classic-windows-wsl2", classic_machine(), {Target::kWsl2, std::nullopt, Preference::kReuse}},
      {"gtx960-linux", {"linux", "10de:1401", "535.104.05", ""}, {}},
      {"classic-docker", classic_machine(), {Target::kDocker, std::nullopt, Preference::kReuse}},
  };
}

inline PlanResult plan_for(const MachineFlags& flags, const PlanRequest& req = {}, const Snapshot* snap = nullptr) {
  auto m = describe_machine(snap, flags, test_kb());
  EXPECT_TRUE(m.has_value()) << (m ? "" : m.error().message);
  if (!m) return {};
  auto r = solve(*m, req, test_kb(), test_packaging());
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? *r : PlanResult{};
}

inline Lock lock_for(const PlanResult& p) {
  auto l = build_lock(p, test_kb(), test_packaging());
  EXPECT_TRUE(l.has_value()) << (l ? "" : l.error().message);
  return l ? *l : Lock{};
}

}  // namespace tfgpu::plan::testing
