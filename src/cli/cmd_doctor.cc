// `tfgpu doctor`: will TensorFlow here use the GPU, and if not, exactly what must
// change. Probes this machine, or reads a snapshot (`--snapshot FILE`, from
// `tfgpu probe --json` on any machine), runs the rules and prints the verdicts.
// Exit: 0 no blockers, 1 blockers, 2 usage/input error, 3 internal error.
#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <future>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "explain/explain.h"
#include "plan/lock.h"
#include "report/explain_report.h"
#include "rules/rules.h"
#include "kb/kb.h"
#include "report/doctor_report.h"
#include "snapshot/snapshot_json.h"
#include "util/error.h"
#include "util/json_text.h"

namespace tfgpu {

// The live snapshot (cmd_doctor_live.cc: the probe), or an error saying why not.
Result<Snapshot> doctor_live_snapshot(const Host& host, const std::function<const kb::KnowledgeBase*()>& kb,
                                      const std::vector<std::string>& extra_pythons);

namespace {

struct DoctorOptions {
  std::string snapshot_file;
  std::string log_file;   // --log: also explain a TensorFlow log from this machine
  std::string lock_file;  // --lock: report drift from a tfgpu.lock.toml written by `tfgpu plan`
  std::vector<std::string> pythons;  // --python: also read these interpreters (as probe does)
};

// `--log FILE`: the log read with explain (signatures + the same rules over the
// facts the log states), shown after the machine's own diagnosis.
Result<explain::ExplainResult> explain_log_file(CommandIo& io, const kb::KnowledgeBase& kb, const std::string& path) {
  auto sigs = explain::load_signatures(io.host, io.global.kb_dir);
  if (!sigs) return fail(sigs.error());
  if (io.host.is_dir(path)) return fail(Error::input(fmt::format("{} is a directory, not a log file", path)));
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::input(fmt::format("cannot open log {}", path)));
  return explain::explain_log(in, *sigs, &kb);
}

int run_doctor(CommandIo& io, const DoctorOptions& opt) {
  const bool live = opt.snapshot_file.empty();
  if (!live && !opt.pythons.empty()) {
    io.err << "tfgpu doctor: --python reads an interpreter on this machine; it cannot be combined with --snapshot\n";
    return static_cast<int>(kExitUsage);
  }
  // On the live machine the KB (milliseconds of TOML) is parsed on a second thread while
  // the probe reads the machine: doctor's whole budget is below Python's own start-up.
  std::shared_future<Result<kb::KnowledgeBase>> kb_job =
      std::async(live ? std::launch::async : std::launch::deferred,
                 [&io] { return kb::load_for_command(io.host, io.global.kb_dir); })
          .share();
  Result<Snapshot> snap = [&]() -> Result<Snapshot> {
    if (live)
      return doctor_live_snapshot(
          io.host,
          [&kb_job]() -> const kb::KnowledgeBase* {
            const auto& k = kb_job.get();
            return k ? &*k : nullptr;
          },
          opt.pythons);
    auto text = io.host.read_file(opt.snapshot_file);
    if (!text) return fail(Error::input(fmt::format("cannot read {}: {}", opt.snapshot_file, text.error().message)));
    auto s = parse_snapshot(*text, opt.snapshot_file);
    if (s && s->origin.empty()) s->origin = "file";
    return s;
  }();
  const Result<kb::KnowledgeBase>& kb = kb_job.get();
  if (!kb) {
    io.err << "tfgpu doctor: " << kb.error().message << "\n";
    return exit_code_for(kb.error());
  }
  if (!snap) {
    io.err << "tfgpu doctor: " << snap.error().message << "\n";
    return exit_code_for(snap.error());
  }
  std::optional<explain::ExplainResult> log;
  if (!opt.log_file.empty()) {
    auto r = explain_log_file(io, *kb, opt.log_file);
    if (!r) {
      io.err << "tfgpu doctor: " << r.error().message << "\n";
      return exit_code_for(r.error());
    }
    log = std::move(*r);
  }
  DoctorReport report = diagnose(*snap, *kb);
  if (!opt.lock_file.empty()) {
    auto text = io.host.read_file(opt.lock_file);
    if (!text) {
      io.err << "tfgpu doctor: cannot read " << opt.lock_file << ": " << text.error().message << "\n";
      return static_cast<int>(kExitUsage);
    }
    auto lock = plan::parse_lock(*text);
    if (!lock) {
      io.err << "tfgpu doctor: " << opt.lock_file << ": " << lock.error().message << "\n";
      return exit_code_for(lock.error());
    }
    add_lock_findings(report, *lock);
  }
  bool log_blocker = log && !log->findings.empty() && log->findings.front().severity == Severity::kBlocker;
  switch (io.global.format) {
    case OutputFormat::kJson: {
      nlohmann::json j = doctor_to_json(report);
      if (log) j["log"] = nlohmann::json::parse(report::render_explain_json(*log));
      io.out << dump_json(j) << "\n";
      break;
    }
    case OutputFormat::kMarkdown: {
      report::Redactor redactor = local_redactor(io.host);
      redactor.learn_from(*snap);
      io.out << render_doctor_markdown(report, redactor);
      if (log) io.out << "\n" << report::render_explain_markdown(*log, redactor);
      break;
    }
    case OutputFormat::kText:
      io.out << report::wrap_text(render_doctor_text(report, io.global.color ? Color::kOn : Color::kOff, io.global.ascii),
                                  io.global.width);
      if (log) {
        io.out << "\nFrom the log " << opt.log_file << ":\n";
        io.out << report::wrap_text(report::render_explain_text(*log, {.color = io.global.color}), io.global.width);
      }
      break;
  }
  return log_blocker ? std::max(report.exit_code, static_cast<int>(kExitProblems)) : report.exit_code;
}

}  // namespace

CommandRunner define_doctor(CLI::App& sub) {
  auto opt = std::make_shared<DoctorOptions>();
  sub.add_option("--snapshot", opt->snapshot_file, "Diagnose a snapshot file (`tfgpu probe --json` of any machine) instead of this machine")
      ->option_text("FILE");
  sub.add_option("--lock", opt->lock_file, "Report drift between this machine and a tfgpu.lock.toml from `tfgpu plan`")
      ->option_text("FILE");
  sub.add_option("--log", opt->log_file, "Also explain a TensorFlow log or bug report from this machine")
      ->option_text("FILE");
  sub.add_option("--python", opt->pythons, "Also read this Python interpreter (repeatable; e.g. a venv's bin/python)")
      ->option_text("PATH");
  return [opt](CommandIo& io) {
    try {
      return run_doctor(io, *opt);
    } catch (const std::exception& e) {
      io.err << "tfgpu doctor: internal error: " << e.what() << "\n";
      return static_cast<int>(kExitInternal);
    }
  };
}

}  // namespace tfgpu
