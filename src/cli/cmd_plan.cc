// `tfgpu plan`: choose a consistent TensorFlow / Python / CUDA / cuDNN / driver set for
// this machine (or a snapshot, or a machine described by flags) and write reproducible
// setup files into --out DIR. Nothing is installed or executed.
#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "host/file_write.h"
#include "kb/kb.h"
#include "plan/emit.h"
#include "plan/lock.h"
#include "plan/packaging.h"
#include "plan/plan.h"
#include "probe/kb_namer.h"
#include "probe/probe.h"
#include "report/plan_report.h"
#include "snapshot/snapshot_json.h"
#include "util/error.h"
#include "util/json_text.h"
#include "util/strings.h"

namespace tfgpu {
namespace {

struct PlanOptions {
  std::string tf;
  bool latest = false;
  std::string python;
  std::string target;
  std::string snapshot;
  std::string os;
  std::string gpu;
  std::string driver;
  std::string out_dir;
  bool force = false;
};

// The live machine through the probe (branch probe): hardware, driver and Pythons;
// GPUs seen only on the bus are named from the same KB the plan uses.
Snapshot live_snapshot(const Host& host, const kb::KnowledgeBase& kb) {
  probe::ProbeOptions o;
  o.name_gpu = probe::gpu_namer_from(kb);
  o.tool_version = TFGPU_VERSION;
  return probe::probe_machine(host, o);
}

// A file tfgpu wrote says so in its first lines ("written by tfgpu plan", "planned by
// tfgpu"); any other file at one of our names is the user's and is never overwritten
// without --force.
bool written_by_tfgpu(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(512, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.find("written by tfgpu") != std::string::npos || head.find("planned by tfgpu") != std::string::npos;
}

Result<std::vector<std::string>> write_files(const std::string& dir, const std::vector<plan::EmittedFile>& files,
                                             bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail(Error::usage(fmt::format("--out {}: {}", dir, ec.message())));
  if (!fs::is_directory(dir, ec)) return fail(Error::usage(fmt::format("--out {}: not a directory", dir)));
  // Every name is checked before anything is written: a refusal leaves the folder as it was.
  for (const auto& f : files) {
    fs::path path = fs::path(dir) / f.name;
    if (!fs::exists(fs::symlink_status(path, ec))) continue;
    // A link at one of our names is refused even with --force: writing through it would
    // overwrite (and make executable) whatever it points to.
    if (is_symlink_path(path.string()))
      return fail(Error::usage(fmt::format("--out {}: {} is a symbolic link; not writing through it (remove it, or use another --out)",
                                           dir, path.string())));
    if (fs::is_directory(path, ec))
      return fail(Error::usage(fmt::format("--out {}: {} is a directory", dir, path.string())));
    if (!force && !written_by_tfgpu(path))
      return fail(Error::usage(fmt::format("--out {}: {} exists and was not written by tfgpu; not overwriting it (use --force, or another --out)",
                                           dir, path.string())));
  }
  std::vector<std::string> written;
  for (const auto& f : files) {
    fs::path path = fs::path(dir) / f.name;
    // A new file renamed over the name (host/file_write.h): a link planted after the
    // check above is replaced, never followed.
    auto w = write_file_replacing(path.string(), f.text,
                                  f.mode == plan::FileMode::kExecutable ? WrittenFileMode::kExecutable : WrittenFileMode::kRegular);
    if (!w) return fail(Error::usage(fmt::format("--out {}: {}", dir, w.error().message)));
    written.push_back(path.string());
  }
  return written;
}

int run_plan(CommandIo& io, const PlanOptions& opt) {
  auto fail_with = [&](const Error& e) {
    io.err << "tfgpu plan: " << e.message << "\n";
    return exit_code_for(e);
  };
  auto kb = kb::load_for_command(io.host, io.global.kb_dir);
  if (!kb) return fail_with(kb.error());
  auto pk = plan::load_packaging(io.host, io.global.kb_dir);
  if (!pk) return fail_with(pk.error());

  Snapshot snap;
  if (!opt.snapshot.empty()) {
    auto text = io.host.read_file(opt.snapshot);
    if (!text) return fail_with(Error::input(fmt::format("--snapshot {}: {}", opt.snapshot, text.error().message)));
    auto parsed = parse_snapshot(*text, opt.snapshot);
    if (!parsed) return fail_with(Error::input(fmt::format("--snapshot {}: {}", opt.snapshot, parsed.error().message)));
    snap = std::move(*parsed);
  }
  // A machine described by flags is planned as described: nothing of the machine tfgpu runs
  // on (its Pythons, GPU, driver, WSL) may leak into it. Without flags or a snapshot the
  // plan is for this machine, probed.
  const bool described = !opt.os.empty() || !opt.gpu.empty() || !opt.driver.empty();
  const bool probed = opt.snapshot.empty() && !described;
  if (probed) snap = live_snapshot(io.host, *kb);

  plan::MachineFlags flags{opt.os, opt.gpu, opt.driver, opt.python};
  auto machine = plan::describe_machine(opt.snapshot.empty() && described ? nullptr : &snap, flags, *kb);
  if (!machine) return fail_with(machine.error());

  plan::PlanRequest req;
  if (!opt.target.empty()) {
    auto t = plan::parse_target(opt.target);
    if (!t) return fail_with(t.error());
    req.target = *t;
  }
  if (!opt.tf.empty()) req.tf = opt.tf;
  req.preference = opt.latest ? plan::Preference::kLatest : plan::Preference::kReuse;
  auto result = plan::solve(*machine, req, *kb, *pk);
  if (!result) return fail_with(result.error());

  std::optional<plan::Lock> lock;
  if (result->chosen) {
    auto l = plan::build_lock(*result, *kb, *pk);
    if (!l) return fail_with(l.error());
    lock = std::move(*l);
  }
  report::PlanReport rep{*result, lock ? &*lock : nullptr, {}, opt.out_dir};
  if (!opt.out_dir.empty() && lock) {
    auto written = write_files(opt.out_dir, plan::emit_all(*lock), opt.force);
    if (!written) return fail_with(written.error());
    rep.written = std::move(*written);
  }
  switch (io.global.format) {
    case OutputFormat::kJson: io.out << dump_json(report::plan_to_json(rep)) << "\n"; break;
    case OutputFormat::kMarkdown: io.out << report::render_plan_markdown(rep, local_redactor(io.host)); break;
    case OutputFormat::kText: io.out << report::wrap_text(report::render_plan_text(rep), io.global.width); break;
  }
  return result->status == plan::PlanStatus::kOk ? kExitOk : kExitProblems;
}

}  // namespace

CommandRunner define_plan(CLI::App& sub) {
  auto opt = std::make_shared<PlanOptions>();
  auto* tf = sub.add_option("--tf", opt->tf, "Plan for this TensorFlow release (e.g. 2.10)")
                ->option_text("VERSION")
                ->check(usage::version_value("2.16", 2, 3));
  sub.add_flag("--latest", opt->latest, "Newest feasible TensorFlow with its newest Python, ignoring what is installed")
      ->excludes(tf);
  sub.add_option("--python", opt->python, "Python version to use (major.minor); overrides the snapshot")
      ->option_text("VERSION")
      ->check(usage::version_value("3.11", 2, 3));
  sub.add_option("--target", opt->target, "Where TensorFlow will run: native, wsl2 or docker")
      ->check(CLI::IsMember({"native", "wsl2", "docker"}));
  sub.add_option("--snapshot", opt->snapshot, "Plan for the machine in this snapshot (tfgpu probe --json)")->option_text("FILE");
  sub.add_option("--os", opt->os, "Describe the machine: windows or linux (overrides the snapshot)")
      ->check(CLI::IsMember({"windows", "linux"}));
  sub.add_option("--gpu", opt->gpu, "Describe the machine: GPU name or PCI id (overrides the snapshot)")->option_text("NAME|PCI-ID");
  sub.add_option("--driver", opt->driver, "Describe the machine: NVIDIA driver version (overrides the snapshot)")
      ->option_text("VERSION")
      ->check(usage::version_value("535.104.05", 1, 3));
  sub.add_flag("--force", opt->force, "Overwrite files in --out that tfgpu did not write");
  sub.add_option("--out", opt->out_dir, "Write tfgpu.lock.toml, the setup script, requirements.txt, environment.yml, Dockerfile and verify.py here")
      ->option_text("DIR");
  return [opt](CommandIo& io) { return run_plan(io, *opt); };
}

}  // namespace tfgpu
