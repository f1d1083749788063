// `tfgpu fleet`'s aggregation: NodeFacts from a doctor report, and the per-configuration,
// per-finding and per-field aggregates they fold into.
#include "report/fleet.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::fleet {

namespace {

// Values per field kept for drift and outliers; a field with more distinct values than
// this (a per-node path, say) counts the rest as "(other values)".
constexpr size_t kMaxValuesPerField = 4096;
// Node names kept per field value: an outlier is held by at most this many nodes.
constexpr size_t kMaxOutlierNames = 256;

size_t rank(NodeState s) { return static_cast<size_t>(s); }

bool working(NodeState s) { return s == NodeState::kOk; }
bool not_working(NodeState s) { return s == NodeState::kBlocked || s == NodeState::kWillNotUseGpu; }

std::string or_none(const std::vector<std::string>& parts) { return parts.empty() ? "none" : join(parts, ", "); }

std::string value_or(const std::string& v, const char* missing) { return v.empty() ? missing : v; }

Configuration configuration_of(const Snapshot& s) {
  Configuration c;
  std::map<std::string, int> gpus;
  for (const auto& g : s.gpus) ++gpus[!g.name.empty() ? g.name : !g.pci_id.empty() ? "PCI " + g.pci_id : "unnamed GPU"];
  for (const auto& [name, n] : gpus) c.gpus.push_back(fmt::format("{}x {}", n, name));
  switch (s.driver.state.status) {
    case ProbeStatus::kOk:
      c.driver =
          s.driver.cuda_version.empty()
              ? value_or(s.driver.version, "unknown version")
              : fmt::format("{} (CUDA {})", value_or(s.driver.version, "unknown version"), s.driver.cuda_version);
      break;
    case ProbeStatus::kAbsent:
      c.driver = "none";
      break;
    default:
      c.driver = s.driver.version.empty() ? "unknown" : s.driver.version + " (did not answer)";
  }
  std::set<std::string> cuda, cudnn, envs;
  for (const auto& i : s.cuda) cuda.insert(fmt::format("{} {}", value_or(i.version, "?"), value_or(i.kind, "?")));
  for (const auto& i : s.cudnn) cudnn.insert(fmt::format("{} {}", value_or(i.version, "?"), value_or(i.kind, "?")));
  for (const auto& p : s.pythons)
    for (const auto& t : p.tensorflow)
      envs.insert(fmt::format("Python {}: {} {}", value_or(p.version, "?"), t.package, value_or(t.version, "?")));
  c.cuda.assign(cuda.begin(), cuda.end());
  c.cudnn.assign(cudnn.begin(), cudnn.end());
  c.envs.assign(envs.begin(), envs.end());
  return c;
}

NodeState state_of(const DoctorReport& r) {
  if (r.exit_code != 0) return NodeState::kBlocked;
  for (const auto& f : r.findings)
    if (f.severity == Severity::kBlocker) return NodeState::kBlocked;
  NodeState worst = NodeState::kOk;
  bool only_no_tf = !r.verdicts.empty();
  for (const auto& v : r.verdicts) {
    if (v.kind != VerdictKind::kNoTensorflow) only_no_tf = false;
    if (v.kind == VerdictKind::kWillNotUseGpu) worst = std::min(worst, NodeState::kWillNotUseGpu);
    if (v.kind == VerdictKind::kCannotTell) worst = std::min(worst, NodeState::kCannotTell);
  }
  if (worst == NodeState::kOk && only_no_tf) return NodeState::kNoTensorflow;
  return worst;
}

template <typename Map>
std::vector<ValueCount> most_first(const Map& counts) {
  std::vector<ValueCount> out;
  for (const auto& [v, n] : counts)
    if (n > 0) out.push_back({v, n});
  std::stable_sort(out.begin(), out.end(), [](const ValueCount& a, const ValueCount& b) { return a.nodes > b.nodes; });
  return out;
}

}  // namespace

const char* to_string(NodeState s) {
  switch (s) {
    case NodeState::kBlocked:
      return "blocked";
    case NodeState::kWillNotUseGpu:
      return "will_not_use_gpu";
    case NodeState::kCannotTell:
      return "cannot_tell";
    case NodeState::kNoTensorflow:
      return "no_tensorflow";
    case NodeState::kOk:
      return "ok";
  }
  return "unknown";
}

std::string Configuration::key() const {
  return fmt::format("{} | driver {} | CUDA {} | cuDNN {} | {}", gpus.empty() ? "no GPU" : join(gpus, ", "), driver,
                     or_none(cuda), or_none(cudnn), envs.empty() ? "no TensorFlow" : join(envs, ", "));
}

NodeFacts node_facts(const DoctorReport& report, std::string name, std::string source) {
  const Snapshot& s = *report.snapshot;
  NodeFacts n;
  n.name = std::move(name);
  n.source = std::move(source);
  n.configuration = configuration_of(s);
  n.state = state_of(report);
  std::set<FindingKey> seen;
  for (const auto& f : report.findings) {
    if (f.severity == Severity::kBlocker) n.has_blocker = true;
    FindingKey k{f.id, f.severity, f.layer, f.title};
    if (seen.insert(k).second) n.findings.push_back(std::move(k));
  }
  const Configuration& c = n.configuration;
  auto field = [&n](std::string f, std::string v) { n.fields.emplace_back(std::move(f), std::move(v)); };
  field("gpu", c.gpus.empty() ? "none" : join(c.gpus, ", "));
  field("driver", s.driver.state.status == ProbeStatus::kAbsent ? "none" : value_or(s.driver.version, "unknown"));
  field("driver_cuda", value_or(s.driver.cuda_version, "unknown"));
  field("kernel_module", value_or(s.driver.kernel_module_version, "none"));
  field("cuda", or_none(c.cuda));
  field("cudnn", or_none(c.cudnn));
  field("tensorflow", c.envs.empty() ? "none" : join(c.envs, ", "));
  field("os", value_or(s.host.distro, value_or(s.host.os, "unknown").c_str()));
  field("kernel", value_or(s.host.kernel, "unknown"));
  field("glibc", value_or(s.host.glibc_version, "unknown"));
  field("container", value_or(s.host.container, "none"));
  for (const auto& [var, value] : s.env) field("env " + var, value);
  return n;
}

void FleetAggregator::add(const NodeFacts& node) {
  ++nodes_;
  ++states_[node.state];
  if (node.has_blocker) any_blocker_ = true;
  if (!all_names_.add(node.name)) duplicates_.push_back(fmt::format("{} ({})", node.name, node.source));

  std::string key = node.configuration.key();
  auto [it, fresh] = configs_.try_emplace(key);
  ConfigAgg& c = it->second;
  if (fresh) c.configuration = node.configuration;
  ++c.nodes;
  ++c.states[node.state];
  c.hosts.add(node.name);
  for (const auto& f : node.findings) {
    if (f.severity == Severity::kBlocker) ++c.blockers[f.id];
    FindingAgg& fa = findings_[f];
    ++fa.nodes;
    fa.hosts.add(node.name);
  }

  const bool ok = working(node.state), bad = not_working(node.state);
  for (const auto& [field, value] : node.fields) {
    FieldAgg& fa = fields_[field];
    ++fa.nodes;
    fa.working += ok;
    fa.not_working += bad;
    auto v = fa.values.find(value);
    if (v == fa.values.end()) {
      if (fa.values.size() >= kMaxValuesPerField) {
        ++fa.overflow;
        continue;
      }
      v = fa.values.emplace(value, ValueAgg{}).first;
    }
    ValueAgg& va = v->second;
    ++va.all;
    va.working += ok;
    va.not_working += bad;
    if (!va.names_dropped) {
      if (va.names.size() < kMaxOutlierNames) {
        va.names.push_back(node.name);
      } else {
        va.names.clear();
        va.names.shrink_to_fit();
        va.names_dropped = true;
      }
    }
  }
}

void FleetAggregator::skip(std::string source, std::string reason) {
  skipped_.push_back({std::move(source), std::move(reason)});
}

FleetReport FleetAggregator::finish() const {
  FleetReport r;
  r.nodes = nodes_;
  r.states = states_;
  r.skipped = skipped_;
  r.duplicates = duplicates_;
  r.exit_code = any_blocker_ ? 1 : 0;

  for (const auto& [key, c] : configs_) {
    ConfigurationRow row;
    row.configuration = c.configuration;
    row.nodes = c.nodes;
    row.states = c.states;
    row.worst = c.states.empty() ? NodeState::kOk : c.states.begin()->first;
    row.blockers = most_first(c.blockers);
    row.hostlist = c.hosts.str();
    r.configurations.push_back(std::move(row));
  }
  std::stable_sort(r.configurations.begin(), r.configurations.end(),
                   [](const ConfigurationRow& a, const ConfigurationRow& b) {
                     if (a.worst != b.worst) return rank(a.worst) < rank(b.worst);
                     return a.nodes > b.nodes;
                   });

  for (const auto& [key, f] : findings_) r.findings.push_back({key, f.nodes, f.hosts.str()});
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const FindingRow& a, const FindingRow& b) {
    if (a.finding.severity != b.finding.severity) return a.finding.severity < b.finding.severity;
    return a.nodes > b.nodes;
  });

  r.working = states_.contains(NodeState::kOk) ? states_.at(NodeState::kOk) : 0;
  for (NodeState s : {NodeState::kBlocked, NodeState::kWillNotUseGpu})
    if (states_.contains(s)) r.not_working += states_.at(s);

  for (const auto& [field, fa] : fields_) {
    // Nodes without the field (an environment variable that is not set) count as "(unset)".
    std::map<std::string, size_t> w, nw;
    size_t w_seen = 0, nw_seen = 0;
    for (const auto& [value, va] : fa.values) {
      w[value] = va.working;
      nw[value] = va.not_working;
      w_seen += va.working;
      nw_seen += va.not_working;
    }
    if (fa.overflow > 0) continue;  // values not all kept: no honest split to report
    if (w_seen < r.working) w["(unset)"] += r.working - w_seen;
    if (nw_seen < r.not_working) nw["(unset)"] += r.not_working - nw_seen;

    if (r.working > 0 && r.not_working > 0) {
      size_t nw_only = 0, w_only = 0;
      for (const auto& [value, n] : nw)
        if (n > 0 && w[value] == 0) nw_only += n;
      for (const auto& [value, n] : w)
        if (n > 0 && nw[value] == 0) w_only += n;
      if (nw_only > 0 || w_only > 0) {
        DriftRow d;
        d.field = field;
        d.score = static_cast<double>(nw_only) / static_cast<double>(r.not_working) +
                  static_cast<double>(w_only) / static_cast<double>(r.working);
        d.splits = nw_only == r.not_working && w_only == r.working;
        d.working = most_first(w);
        d.not_working = most_first(nw);
        r.drift.push_back(std::move(d));
      }
    }

    // Outliers: a value on at most 1% of the nodes (at least one node), while one value
    // is held by more than half of them. Needs three nodes to mean anything.
    if (nodes_ < 3) continue;
    const ValueAgg* majority = nullptr;
    std::string majority_value;
    for (const auto& [value, va] : fa.values)
      if (!majority || va.all > majority->all) {
        majority = &va;
        majority_value = value;
      }
    if (!majority || majority->all * 2 <= nodes_) continue;
    size_t limit = std::min(kMaxOutlierNames, std::max<size_t>(1, nodes_ / 100));
    for (const auto& [value, va] : fa.values) {
      if (&va == majority || va.all > limit || va.names_dropped) continue;
      r.outliers.push_back({field, value, va.all, compress_hostlist(va.names), majority_value, majority->all});
    }
  }
  std::stable_sort(r.drift.begin(), r.drift.end(),
                   [](const DriftRow& a, const DriftRow& b) { return a.score > b.score; });
  std::stable_sort(r.outliers.begin(), r.outliers.end(),
                   [](const OutlierRow& a, const OutlierRow& b) { return a.nodes < b.nodes; });
  return r;
}

}  // namespace tfgpu::fleet
