#include "support/doctor_scenarios.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "snapshot/snapshot_json.h"
#include "util/strings.h"

namespace tfgpu::testing {

std::string scenario_dir() { return std::string(TFGPU_SOURCE_DIR) + "/tests/scenarios"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const Verdict* verdict_for(const DoctorReport& r, const std::string& env) {
  for (const auto& v : r.verdicts)
    if (v.env.find(env) != std::string::npos) return &v;
  return nullptr;
}

std::vector<std::string> scenario_names() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(scenario_dir())) {
    std::string name = e.path().filename().string();
    if (ends_with(name, ".json") && !ends_with(name, ".expect.json")) out.push_back(name.substr(0, name.size() - 5));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Snapshot load_scenario(const std::string& name) {
  std::string path = scenario_dir() + "/" + name + ".json";
  auto s = parse_snapshot(read_text(path), path);
  EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().message);
  return s ? *s : Snapshot{};
}

nlohmann::json load_expectation(const std::string& name) {
  return nlohmann::json::parse(read_text(scenario_dir() + "/" + name + ".expect.json"), nullptr, false);
}

const kb::KnowledgeBase& test_kb() {
  static const kb::KnowledgeBase kb = [] {
    auto r = kb::load_embedded();
    if (!r) ADD_FAILURE() << "embedded KB: " << r.error().message;
    return r ? *r : kb::KnowledgeBase{};
  }();
  return kb;
}

std::set<std::string> ids(const std::vector<Finding>& findings) {
  std::set<std::string> out;
  for (const auto& f : findings) out.insert(f.id);
  return out;
}

}  // namespace tfgpu::testing
