// `tfgpu fleet [DIR|FILE...|-]`: the doctor over many machines' snapshots (files, the
// *.json of a directory, or JSON documents on standard input), folded into one report:
// configurations worst first, findings with Slurm hostlists, drift and outliers.
// One snapshot at a time: each is parsed, diagnosed, reduced to its NodeFacts and
// dropped. A bad snapshot is reported with its name and skipped.
// Exit: 1 a node has a blocker, 0 none, 2 usage error or no snapshot could be read.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "kb/kb.h"
#include "plan/lock.h"
#include "report/doctor_report.h"
#include "report/fleet.h"
#include "snapshot/snapshot_json.h"
#include "util/error.h"
#include "util/json_stream.h"
#include "util/json_text.h"
#include "util/strings.h"

namespace tfgpu {

namespace {

struct FleetOptions {
  std::vector<std::string> inputs;
  std::string lock_file;
};

// Snapshot files are a few hundred KB; a file much larger is not one.
constexpr uint64_t kMaxSnapshotBytes = 64u << 20;

std::string file_stem(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (ends_with(base, ".json")) base.resize(base.size() - 5);
  return base;
}

class FleetRun {
 public:
  FleetRun(CommandIo& io, const kb::KnowledgeBase& kb, const plan::Lock* lock) : io_(io), kb_(kb), lock_(lock) {}

  void input(const std::string& arg) {
    if (arg == "-") {
      for_each_json_document(std::cin, [this](const JsonChunk& c) {
        std::string source = fmt::format("stdin:{}", c.line);
        if (!c.error.empty()) return skip(source, std::string(c.error));
        snapshot(c.text, source, "");
      });
      return;
    }
    if (io_.host.is_dir(arg)) {
      auto entries = io_.host.list_dir(arg);
      if (!entries) return skip(arg, entries.error().message);
      std::vector<std::string> names;
      for (const auto& e : *entries)
        if (ends_with(e.name, ".json") && e.type != FileType::kDirectory) names.push_back(e.name);
      std::sort(names.begin(), names.end());
      if (names.empty()) return skip(arg, "no *.json file in this directory");
      std::string dir = arg;
      if (!ends_with(dir, "/") && !ends_with(dir, "\\")) dir += io_.host.platform() == Platform::kWindows ? "\\" : "/";
      for (const auto& n : names) file(dir + n);
      return;
    }
    file(arg);
  }

  fleet::FleetReport finish() const { return agg_.finish(); }

 private:
  void file(const std::string& path) {
    auto text = io_.host.read_file(path, kMaxSnapshotBytes);
    if (!text) return skip(path, text.error().message);
    snapshot(*text, path, file_stem(path));
  }

  // A node is named by its file (`probe --out DIR/%h.json` names it for the host; the
  // Kubernetes collector for the node, where the host name is the pod's); a document on
  // standard input by the host name it records, else by its line.
  void snapshot(std::string_view text, const std::string& source, const std::string& file_name) {
    auto s = parse_snapshot(text, source);
    if (!s) return skip(source, s.error().message);
    if (s->origin.empty()) s->origin = "file";
    DoctorReport report = diagnose(*s, kb_);
    if (lock_) add_lock_findings(report, *lock_);
    std::string name = !file_name.empty() ? file_name : !s->host.hostname.empty() ? s->host.hostname : source;
    agg_.add(fleet::node_facts(report, std::move(name), source));
  }

  void skip(const std::string& source, std::string reason) {
    // Parse errors name their input already ("FILE: not valid JSON"): say it once.
    if (reason.starts_with(source + ": ")) reason.erase(0, source.size() + 2);
    io_.err << fmt::format("tfgpu fleet: skipped {}: {}\n", source, reason);
    agg_.skip(source, std::move(reason));
  }

  CommandIo& io_;
  const kb::KnowledgeBase& kb_;
  const plan::Lock* lock_;
  fleet::FleetAggregator agg_;
};

int run_fleet(CommandIo& io, const FleetOptions& opt) {
  if (std::count(opt.inputs.begin(), opt.inputs.end(), "-") > 1) {
    io.err << "tfgpu fleet: '-' (standard input) may be given once\n";
    return static_cast<int>(kExitUsage);
  }
  auto kb = kb::load_for_command(io.host, io.global.kb_dir);
  if (!kb) {
    io.err << "tfgpu fleet: " << kb.error().message << "\n";
    return exit_code_for(kb.error());
  }
  std::optional<plan::Lock> lock;
  if (!opt.lock_file.empty()) {
    auto text = io.host.read_file(opt.lock_file);
    if (!text) {
      io.err << "tfgpu fleet: cannot read " << opt.lock_file << ": " << text.error().message << "\n";
      return static_cast<int>(kExitUsage);
    }
    auto l = plan::parse_lock(*text);
    if (!l) {
      io.err << "tfgpu fleet: " << opt.lock_file << ": " << l.error().message << "\n";
      return exit_code_for(l.error());
    }
    lock = std::move(*l);
  }
  FleetRun run(io, *kb, lock ? &*lock : nullptr);
  for (const auto& in : opt.inputs) run.input(in);
  fleet::FleetReport report = run.finish();
  switch (io.global.format) {
    case OutputFormat::kJson:
      io.out << dump_json(fleet::fleet_to_json(report)) << "\n";
      break;
    case OutputFormat::kMarkdown:
      io.out << fleet::render_fleet_markdown(report);
      break;
    case OutputFormat::kText:
      io.out << report::wrap_text(fleet::render_fleet_text(report), io.global.width);
      break;
  }
  if (report.nodes == 0) {
    io.err << "tfgpu fleet: no snapshot could be read\n";
    return static_cast<int>(kExitUsage);
  }
  return report.exit_code;
}

}  // namespace

CommandRunner define_fleet(CLI::App& sub) {
  auto opt = std::make_shared<FleetOptions>();
  sub.add_option("INPUT", opt->inputs,
                 "Snapshot files (`tfgpu probe --json`), directories of *.json snapshots, or '-' for JSON documents on "
                 "standard input")
      ->required();
  sub.add_option("--lock", opt->lock_file, "Also report each node's drift from a tfgpu.lock.toml from `tfgpu plan`")
      ->option_text("FILE");
  return [opt](CommandIo& io) {
    try {
      return run_fleet(io, *opt);
    } catch (const std::exception& e) {
      io.err << "tfgpu fleet: internal error: " << e.what() << "\n";
      return static_cast<int>(kExitInternal);
    }
  };
}

}  // namespace tfgpu
