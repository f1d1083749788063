#pragma once
// Helpers for the doctor's tests: the scenario snapshots in tests/scenarios, the
// embedded KB loaded once, and finding ids as a sorted set.

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kb/kb.h"
#include "report/doctor_report.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace tfgpu::testing {

std::string scenario_dir();
std::vector<std::string> scenario_names();          // every tests/scenarios/<name>.json, sorted
Snapshot load_scenario(const std::string& name);    // fails the test (and returns {}) when unreadable
nlohmann::json load_expectation(const std::string& name);
const kb::KnowledgeBase& test_kb();
std::set<std::string> ids(const std::vector<Finding>& findings);
std::string read_text(const std::string& path);     // "" when missing
// The verdict whose environment names `env` (a recording's env_contains), or nullptr.
const Verdict* verdict_for(const DoctorReport& r, const std::string& env);

}  // namespace tfgpu::testing
