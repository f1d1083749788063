// `tfgpu doctor`: will TensorFlow here use the GPU, and if not, exactly what must
// change. Probes this machine, or reads a snapshot (`--snapshot FILE`, from
// `tfgpu probe --json` on any machine), runs the rules and prints the verdicts.
// Exit: 0 no blockers, 1 blockers, 2 usage/input error, 3 internal error.
#include <fmt/format.h>

#include "cli/command.h"
#include "kb/kb.h"
#include "report/doctor_report.h"
#include "snapshot/snapshot_json.h"
#include "util/error.h"

namespace tfgpu {

// The live snapshot (cmd_doctor_live.cc: the probe), or an error saying why not.
Result<Snapshot> doctor_live_snapshot(const Host& host, const kb::KnowledgeBase& kb);

namespace {

struct DoctorOptions {
  std::string snapshot_file;
};

int run_doctor(CommandIo& io, const DoctorOptions& opt) {
  auto kb = kb::load_for_command(io.host, io.global.kb_dir);
  if (!kb) {
    io.err << "tfgpu doctor: " << kb.error().message << "\n";
    return exit_code_for(kb.error());
  }
  Result<Snapshot> snap = [&]() -> Result<Snapshot> {
    if (opt.snapshot_file.empty()) return doctor_live_snapshot(io.host, *kb);
    auto text = io.host.read_file(opt.snapshot_file);
    if (!text) return fail(Error::input(fmt::format("cannot read {}: {}", opt.snapshot_file, text.error().message)));
    auto s = parse_snapshot(*text, opt.snapshot_file);
    if (s && s->origin.empty()) s->origin = "file";
    return s;
  }();
  if (!snap) {
    io.err << "tfgpu doctor: " << snap.error().message << "\n";
    return exit_code_for(snap.error());
  }
  DoctorReport report = diagnose(*snap, *kb);
  switch (io.global.format) {
    case OutputFormat::kJson:
      io.out << doctor_to_json(report).dump(2) << "\n";
      break;
    case OutputFormat::kMarkdown:
      io.out << render_doctor_markdown(report);
      break;
    case OutputFormat::kText:
      io.out << render_doctor_text(report, io.global.color ? Color::kOn : Color::kOff);
      break;
  }
  return report.exit_code;
}

}  // namespace

CommandRunner define_doctor(CLI::App& sub) {
  auto opt = std::make_shared<DoctorOptions>();
  sub.add_option("--snapshot", opt->snapshot_file, "Diagnose a snapshot file (`tfgpu probe --json` of any machine) instead of this machine")
      ->option_text("FILE");
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
