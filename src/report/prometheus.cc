// Prometheus text exposition format 0.0.4 (what node_exporter's textfile collector reads):
// `# HELP` / `# TYPE` once per metric family, then its samples; every family is a gauge
// (each value describes the machine now, none counts events).
#include "report/prometheus.h"

#include <map>
#include <tuple>

#include <fmt/format.h>

namespace tfgpu::report {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
size_t utf8_sequence(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d >> 6) != 0x2) return 0;
    cp = (cp << 6) | (d & 0x3f);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
  return n;
}

class Family {
 public:
  Family(std::string& out, const char* name, const char* help) : out_(out), name_(name) {
    out_ += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
  }

  // labels: name/value pairs, in the order given.
  void sample(std::initializer_list<std::pair<const char*, std::string_view>> labels, double value) {
    out_ += name_;
    if (labels.size() > 0) {
      out_ += '{';
      bool first = true;
      for (const auto& [k, v] : labels) {
        out_ += fmt::format("{}{}=\"{}\"", first ? "" : ",", k, prometheus_label_value(v));
        first = false;
      }
      out_ += '}';
    }
    out_ += fmt::format(" {}\n", value);
  }

 private:
  std::string& out_;
  const char* name_;
};

}  // namespace

std::string prometheus_label_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size();) {
    size_t n = utf8_sequence(v, i);
    unsigned char c = static_cast<unsigned char>(v[i]);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
      continue;
    }
    if (n == 1) {
      if (c == '\\') out += "\\\\";
      else if (c == '"') out += "\\\"";
      else if (c == '\n') out += "\\n";
      else if (c < 0x20 || c == 0x7f) out += "\xef\xbf\xbd";
      else out += static_cast<char>(c);
    } else {
      out.append(v.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string render_prometheus(const DoctorReport& r, const std::string& tool_version) {
  std::string out;
  const Snapshot& s = *r.snapshot;

  Family(out, "tfgpu_info", "The tfgpu version that wrote these metrics; always 1").sample({{"version", tool_version}}, 1);

  // One series per Python environment with TensorFlow: the doctor's verdict.
  size_t tf_envs = 0;
  for (const auto& v : r.verdicts)
    if (v.kind != VerdictKind::kNoTensorflow) ++tf_envs;
  Family(out, "tfgpu_tensorflow_environments", "Python environments with TensorFlow that tfgpu found")
      .sample({}, static_cast<double>(tf_envs));
  if (tf_envs > 0) {
    Family ready(out, "tfgpu_tensorflow_gpu_ready",
                 "1 when TensorFlow in this Python environment will use the GPU (tfgpu doctor's verdict), else 0");
    for (const auto& v : r.verdicts) {
      if (v.kind == VerdictKind::kNoTensorflow) continue;
      ready.sample({{"env", v.env}, {"package", v.tf_package}, {"tf", v.tf_version}, {"verdict", to_string(v.kind)}},
                   v.kind == VerdictKind::kWillUseGpu ? 1 : 0);
    }
    Family gpus(out, "tfgpu_tensorflow_gpus", "GPUs TensorFlow in this Python environment will list (0 unless ready)");
    for (const auto& v : r.verdicts) {
      if (v.kind == VerdictKind::kNoTensorflow) continue;
      gpus.sample({{"env", v.env}, {"tf", v.tf_version}},
                  v.kind == VerdictKind::kWillUseGpu ? static_cast<double>(v.gpu_count) : 0);
    }
  }

  const bool driver_ok = s.driver.state.status == ProbeStatus::kOk;
  Family(out, "tfgpu_driver_loaded", "1 when an NVIDIA driver was loaded and answered, else 0").sample({}, driver_ok ? 1 : 0);
  if (!s.driver.version.empty()) {
    Family(out, "tfgpu_driver_info", "The NVIDIA driver's version and the newest CUDA version it supports; always 1")
        .sample({{"version", s.driver.version}, {"cuda", s.driver.cuda_version}}, 1);
  }

  Family(out, "tfgpu_gpus", "NVIDIA GPUs seen on this machine (bus or driver)").sample({}, static_cast<double>(s.gpus.size()));
  if (!s.gpus.empty()) {
    Family info(out, "tfgpu_gpu_info", "One NVIDIA GPU: its name and compute capability; always 1");
    for (size_t i = 0; i < s.gpus.size(); ++i) {
      const GpuInfo& g = s.gpus[i];
      // The driver's index where one answered, else the order seen on the bus.
      std::string index = std::to_string(g.index >= 0 ? g.index : static_cast<int>(i));
      info.sample({{"index", index}, {"name", g.name}, {"pci_bus_id", g.pci_bus_id},
                   {"compute_capability", g.compute_capability}},
                  1);
    }
  }

  // Findings: per id (one per environment for environment findings) and per severity,
  // every severity present so that `tfgpu_findings_by_severity{severity="blocker"} > 0`
  // alerts see a 0 rather than no series.
  std::map<std::tuple<std::string, std::string, std::string>, int> by_id;
  std::map<std::string, int> by_severity{{"blocker", 0}, {"warning", 0}, {"info", 0}};
  for (const auto& f : r.findings) {
    ++by_id[{f.id, to_string(f.severity), to_string(f.layer)}];
    ++by_severity[to_string(f.severity)];
  }
  Family sev(out, "tfgpu_findings_by_severity", "tfgpu doctor's findings on this machine, by severity");
  for (const char* k : {"blocker", "warning", "info"}) sev.sample({{"severity", k}}, by_severity[k]);
  if (!by_id.empty()) {
    Family ids(out, "tfgpu_findings", "tfgpu doctor's findings on this machine, by finding id");
    for (const auto& [key, n] : by_id) {
      const auto& [id, severity, layer] = key;
      ids.sample({{"id", id}, {"severity", severity}, {"layer", layer}}, n);
    }
  }
  return out;
}

}  // namespace tfgpu::report
