// `tfgpu probe [--json]`: reads the four layers of this machine into a Snapshot and
// prints it (text report, or the Snapshot JSON of docs/snapshot.md). Changes nothing
// on disk; vendor libraries are loaded only in `tfgpu __probe-driver` children.
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "kb/kb.h"
#include "probe/kb_namer.h"
#include "probe/probe.h"
#include "report/doctor_report.h"
#include "report/probe_text.h"
#include "report/prometheus.h"
#include "snapshot/snapshot_json.h"
#include "util/error.h"
#include "util/json_text.h"

namespace tfgpu {

namespace {

struct ProbeArgs {
  std::vector<std::string> pythons;
  bool load_runtime = false;
  bool deep = false;
  bool all_libraries = false;
  bool redact = false;
  bool prometheus = false;  // node_exporter textfile metrics of the doctor's diagnosis
  double timeout_s = 10.0;
  std::string nvml_path;
  std::string cuda_path;
  std::string out;  // --out PATH: write the report there (atomically) instead of stdout
};

std::string utc_now_iso() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(t));
}

// `--out` paths: "%h" is the host name (one file per node on a shared directory, as
// srun runs the probe on every node), "%%" a literal '%'.
Result<std::string> expand_out_path(const std::string& pattern, const std::string& host_name) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    if (next == '%') {
      out += '%';
    } else if (next == 'h') {
      if (host_name.empty()) return fail(Error::input("--out: %h is the host name, and this machine's is not known"));
      // A name is one path component: a separator in it would write somewhere else.
      for (char c : host_name) out += (c == '/' || c == '\\') ? '_' : c;
    } else {
      return fail(Error::usage(fmt::format("--out {}: unknown '%{}' (%h = host name, %% = '%')", pattern,
                                           next ? std::string(1, next) : std::string())));
    }
    ++i;
  }
  return out;
}

}  // namespace

CommandRunner define_probe(CLI::App& sub) {
  auto a = std::make_shared<ProbeArgs>();
  sub.add_option("--python", a->pythons, "Also read this Python interpreter (repeatable)")->option_text("PATH");
  sub.add_flag("--load-runtime", a->load_runtime,
               "Also load each CUDA runtime / cuDNN found (in a child process) to ask its version");
  // Headers are read by ranges from files of any size; --deep stays accepted (scripts
  // pass it) and changes nothing.
  sub.add_flag("--deep", a->deep, "Accepted for compatibility; headers of every file are always read");
  sub.add_flag("--libraries", a->all_libraries, "List every library file found (text output)");
  sub.add_flag("--redact", a->redact,
               "With --json: replace user and host names, home folders and GPU UUIDs by placeholders "
               "(a snapshot to publish; doctor reads it as usual)");
  sub.add_flag("--prometheus", a->prometheus,
               "Write Prometheus metrics of the doctor's diagnosis (for node_exporter's textfile collector: "
               "--out DIR/tfgpu.prom) instead of the snapshot");
  sub.add_option("--timeout", a->timeout_s, "Seconds a vendor library may take before it is given up")
      ->option_text("SECONDS")
      ->check(usage::seconds_value(0.1, 600.0));
  sub.add_option("--out", a->out,
                 "Write the report to PATH (atomically: a temporary file, then renamed) instead of standard output; "
                 "%h in PATH is the host name")
      ->option_text("PATH");
  sub.add_option("--nvml-path", a->nvml_path, "Open this NVML file instead of libnvidia-ml.so.1")->group("");
  sub.add_option("--cuda-path", a->cuda_path, "Open this CUDA driver file instead of libcuda.so.1")->group("");
  return [a](CommandIo& io) {
    if (a->redact && io.global.format != OutputFormat::kJson) {
      io.err << "tfgpu probe: --redact goes with --json (tfgpu probe --json --redact)\n";
      return static_cast<int>(kExitUsage);
    }
    if (a->prometheus && io.global.format != OutputFormat::kText) {
      io.err << "tfgpu probe: --prometheus is an output format of its own: drop --json / --markdown\n";
      return static_cast<int>(kExitUsage);
    }
    probe::ProbeOptions o;
    o.extra_pythons = a->pythons;
    o.runtime_calls = a->load_runtime ? probe::RuntimeCalls::kYes : probe::RuntimeCalls::kNo;
    o.child_timeout = std::chrono::milliseconds(static_cast<long>(a->timeout_s * 1000));
    o.nvml_path = a->nvml_path;
    o.cuda_path = a->cuda_path;
    o.tool_version = TFGPU_VERSION;
    o.created_at = utc_now_iso();
    for (const auto& p : a->pythons) {
      if (!io.host.exists(p)) {
        io.err << fmt::format("tfgpu probe: --python {}: no such file\n", p);
        return static_cast<int>(kExitUsage);
      }
      if (!io.host.is_file(p)) {
        io.err << fmt::format("tfgpu probe: --python {}: not a regular file (a Python interpreter is)\n", p);
        return static_cast<int>(kExitUsage);
      }
    }
    // --out is checked before the probe's seconds are spent; %h is the name the
    // snapshot records (probe_host reads the same os_release).
    Result<std::string> path = a->out.empty() ? Result<std::string>{} : expand_out_path(a->out, io.host.os_release().node_name);
    if (!path) {
      io.err << "tfgpu probe: " << path.error().message << "\n";
      return exit_code_for(path.error());
    }
    // GPUs on the bus are named from the KB (`--kb DIR` or the embedded copy), loaded
    // only when the first one is seen: most of the probe needs no KB.
    auto kb = std::make_shared<std::optional<Result<kb::KnowledgeBase>>>();
    std::string kb_error;
    o.name_gpu = [&io, kb, &kb_error](uint16_t vendor, uint16_t device) -> std::optional<probe::GpuFacts> {
      if (!kb->has_value()) {
        kb->emplace(kb::load_for_command(io.host, io.global.kb_dir));
        if (!**kb) kb_error = (**kb).error().message;
      }
      if (!**kb) return std::nullopt;
      return probe::gpu_namer_from(***kb)(vendor, device);
    };
    Snapshot s = probe::probe_machine(io.host, o);
    if (!kb_error.empty()) s.notes.push_back("GPUs not named: knowledge base not loaded: " + kb_error);
    std::string text;
    if (a->prometheus) {
      // The same judgement as `tfgpu doctor`, from the snapshot just taken.
      if (!kb->has_value()) kb->emplace(kb::load_for_command(io.host, io.global.kb_dir));
      if (!**kb) {
        io.err << "tfgpu probe: " << (**kb).error().message << "\n";
        return exit_code_for((**kb).error());
      }
      text = report::render_prometheus(diagnose(s, ***kb), TFGPU_VERSION);
    } else if (io.global.format == OutputFormat::kJson) {
      nlohmann::json j = snapshot_to_json(s);
      if (a->redact) {
        report::Redactor redactor = local_redactor(io.host);
        redactor.learn_from(s);
        report::redact_json(j, redactor);
      }
      text = dump_json(j) + "\n";
    } else {
      text = render_probe_text(s, a->all_libraries ? ProbeTextDetail::kAllLibraries : ProbeTextDetail::kSummary);
      // A file written with --out keeps its long lines (it is read by tools, not on a terminal).
      if (a->out.empty()) text = report::wrap_text(text, io.global.width);
    }
    if (a->out.empty()) {
      io.out << text;
      return static_cast<int>(kExitOk);
    }
    if (auto w = io.host.write_file_atomic(*path, text); !w) {
      io.err << "tfgpu probe: " << w.error().message << "\n";
      return static_cast<int>(kExitUsage);
    }
    io.err << "tfgpu probe: wrote " << *path << "\n";
    return static_cast<int>(kExitOk);
  };
}

}  // namespace tfgpu
