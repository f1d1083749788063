#pragma once
// `tfgpu fleet`: many machines' doctor reports folded into one picture. Each node is
// reduced to its NodeFacts (configuration, state, findings, compared fields) as soon
// as it is diagnosed; FleetAggregator keeps only per-configuration, per-finding and
// per-field aggregates (hostlists are interval sets), so memory does not grow with the
// number of snapshots. Renderers are pure functions of the FleetReport
// (JSON schema: docs/fleet-json.md).

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/doctor_report.h"
#include "util/hostlist.h"

namespace tfgpu::fleet {

inline constexpr int kFleetJsonSchemaVersion = 1;

// What a node's diagnosis says, worst first.
enum class NodeState { kBlocked, kWillNotUseGpu, kCannotTell, kNoTensorflow, kOk };
inline constexpr size_t kNodeStates = 5;
const char* to_string(NodeState s);  // "blocked", "will_not_use_gpu", "cannot_tell", "no_tensorflow", "ok"

// The parts of a configuration: machines with equal parts are one row.
struct Configuration {
  std::vector<std::string> gpus;   // "8x NVIDIA H100 80GB HBM3"; empty: no GPU seen
  std::string driver;              // "550.54.14 (CUDA 12.4)", "none", "unknown"
  std::vector<std::string> cuda;   // "12.2.140 pip", sorted, distinct
  std::vector<std::string> cudnn;  // "8.9.4.25 pip"
  std::vector<std::string> envs;   // "Python 3.11.9: tensorflow 2.15.1", environments with TensorFlow
  std::string key() const;         // one line, the grouping key and the text shown
};

struct FindingKey {
  std::string id;
  Severity severity = Severity::kInfo;
  Layer layer = Layer::kFramework;
  std::string title;
  auto operator<=>(const FindingKey&) const = default;
};

// One diagnosed node, reduced to what fleet compares.
struct NodeFacts {
  std::string name;    // host name from the snapshot, else the file's stem
  std::string source;  // file path, or "stdin:LINE"
  Configuration configuration;
  NodeState state = NodeState::kOk;
  bool has_blocker = false;
  std::vector<FindingKey> findings;                         // distinct
  std::vector<std::pair<std::string, std::string>> fields;  // (field, value) for drift and outliers
};

// Reduces a doctor report (with lock findings already added) to NodeFacts.
NodeFacts node_facts(const DoctorReport& report, std::string name, std::string source);

struct ValueCount {
  std::string value;
  size_t nodes = 0;
};

struct ConfigurationRow {
  Configuration configuration;
  size_t nodes = 0;
  NodeState worst = NodeState::kOk;
  std::map<NodeState, size_t> states;
  std::vector<ValueCount> blockers;  // blocker ids with their node counts, most nodes first
  std::string hostlist;
};

struct FindingRow {
  FindingKey finding;
  size_t nodes = 0;
  std::string hostlist;
};

// A field whose values differ between working (ok) and not working (blocked /
// will_not_use_gpu) nodes.
struct DriftRow {
  std::string field;
  bool splits = false;  // no value is shared: the field alone tells the two groups apart
  double score = 0;     // share of not-working nodes with a value no working node has + the converse (0..2)
  std::vector<ValueCount> working;
  std::vector<ValueCount> not_working;
};

// A value held by very few nodes where most nodes agree on another.
struct OutlierRow {
  std::string field;
  std::string value;
  size_t nodes = 0;
  std::string hostlist;
  std::string majority_value;
  size_t majority_nodes = 0;
};

struct Skipped {
  std::string source;
  std::string reason;
};

struct FleetReport {
  size_t nodes = 0;
  std::map<NodeState, size_t> states;
  std::vector<ConfigurationRow> configurations;  // worst first, then most nodes
  std::vector<FindingRow> findings;              // blockers first, then most nodes
  size_t working = 0;
  size_t not_working = 0;
  std::vector<DriftRow> drift;  // strongest split first
  std::vector<OutlierRow> outliers;
  std::vector<Skipped> skipped;
  std::vector<std::string> duplicates;  // node names seen more than once ("gpu017 (b.json)")
  int exit_code = 0;                    // 1 when a node has a blocker
};

class FleetAggregator {
 public:
  void add(const NodeFacts& node);
  void skip(std::string source, std::string reason);
  FleetReport finish() const;

 private:
  struct ConfigAgg {
    Configuration configuration;
    size_t nodes = 0;
    std::map<NodeState, size_t> states;
    std::map<std::string, size_t> blockers;
    HostlistBuilder hosts;
  };
  struct FindingAgg {
    size_t nodes = 0;
    HostlistBuilder hosts;
  };
  struct ValueAgg {
    size_t working = 0, not_working = 0, all = 0;
    std::vector<std::string> names;  // kept while few (an outlier has few); cleared beyond the cap
    bool names_dropped = false;
  };
  struct FieldAgg {
    std::map<std::string, ValueAgg> values;
    size_t nodes = 0, working = 0, not_working = 0;
    size_t overflow = 0;  // nodes whose value was not kept (too many distinct values)
  };

  size_t nodes_ = 0;
  std::map<NodeState, size_t> states_;
  std::map<std::string, ConfigAgg> configs_;
  std::map<FindingKey, FindingAgg> findings_;
  std::map<std::string, FieldAgg> fields_;
  HostlistBuilder all_names_;
  std::vector<std::string> duplicates_;
  std::vector<Skipped> skipped_;
  bool any_blocker_ = false;
};

std::string render_fleet_text(const FleetReport& r);
std::string render_fleet_markdown(const FleetReport& r);
nlohmann::json fleet_to_json(const FleetReport& r);

}  // namespace tfgpu::fleet
