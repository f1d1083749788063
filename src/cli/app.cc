#include <algorithm>

#include <fmt/format.h>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "util/strings.h"
#include "util/error.h"
#include "util/terminal_text.h"

namespace tfgpu {

namespace {

int run_parsed(const std::vector<std::string>& args, Host& host, std::ostream& out, std::ostream& err,
               bool stdout_is_terminal, std::optional<int> terminal_columns, TerminalSafeStreambuf& out_filter) {
  CLI::App app{"tfgpu: make TensorFlow use your NVIDIA GPU, and prove that it does.", "tfgpu"};
  app.set_version_flag("--version", std::string("tfgpu ") + TFGPU_VERSION);
  app.require_subcommand(0, 1);
  app.fallthrough();  // global options may follow the subcommand: `tfgpu doctor --json`
  // Same syntax on every platform: CLI11's default on Windows would read a path such as
  // `/tmp/log.txt` (MSYS2, Wine, Git Bash) as an option named `tmp`.
  app.allow_windows_style_options(false);

  GlobalOptions global;
  bool json = false;
  bool markdown = false;
  std::string color = "auto";
  app.add_option("--kb", global.kb_dir, "Read the knowledge base from DIR/*.toml instead of the built-in copy")
      ->option_text("DIR");
  auto* json_flag = app.add_flag("--json", json, "Machine-readable JSON output");
  app.add_flag("--markdown", markdown, "Markdown output to paste into a bug report")->excludes(json_flag);
  app.add_option("--color", color, "Colour: auto (terminal only, honours NO_COLOR), always, never")
      ->option_text("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  usage::refuse_empty_values(app);

  struct Defined {
    CLI::App* sub;
    const CommandSpec* spec;
    CommandRunner runner;
  };
  std::vector<Defined> commands;
  for (const auto& spec : command_table()) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    if (spec.hidden) sub->group("");
    commands.push_back({sub, &spec, spec.define(*sub)});
    usage::refuse_empty_values(*sub);
    if (!spec.hidden) {
      std::string own = sub->get_footer();
      sub->footer((own.empty() ? "" : own + "\n\n") + usage::help_footer(spec));
    }
  }

  // A bare `tfgpu`: what to type, not the whole help (usage error, as git and cargo do).
  if (args.empty()) {
    err << usage::short_usage(command_table());
    return kExitUsage;
  }

  // Text reports wrap to the terminal (report/text_wrap.h): COLUMNS when it holds a
  // number, else the terminal's own width, else 80 columns: a report written to a file
  // or a pipe reads the same on every machine (and in the golden files).
  global.width = report::kDefaultTextWidth;
  if (auto cols = host.env("COLUMNS"); cols && !cols->empty() && cols->size() <= 4 &&
                                        cols->find_first_not_of("0123456789") == std::string::npos) {
    global.width = static_cast<size_t>(std::stoi(*cols));
  } else if (stdout_is_terminal) {
    if (terminal_columns && *terminal_columns > 0) global.width = static_cast<size_t>(*terminal_columns);
  }
  global.width = std::max<size_t>(global.width, 40);  // narrower: words first, no room for indents

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << report::wrap_text(app.help(), global.width);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << report::wrap_text(app.help("", CLI::AppFormatMode::All), global.width);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << "tfgpu " << TFGPU_VERSION << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << usage::parse_error_line(args, app, e) << "\n";
    return kExitUsage;
  }

  global.stdout_is_terminal = stdout_is_terminal;
  global.format = json ? OutputFormat::kJson : markdown ? OutputFormat::kMarkdown : OutputFormat::kText;
  if (global.format == OutputFormat::kJson) out_filter.set_style(EscapeStyle::kJson);
  bool no_color_env = host.env("NO_COLOR").has_value();
  global.color = color == "always" || (color == "auto" && stdout_is_terminal && !no_color_env &&
                                       global.format == OutputFormat::kText);
  // The locale decides the marks: the first of LC_ALL, LC_CTYPE, LANG that is set and not
  // empty (POSIX order) must name UTF-8. None set: POSIX's "C" locale, except on Windows,
  // where tfgpu switches its console to UTF-8 itself.
  std::string locale;
  for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    auto v = host.env(var);
    if (v && !v->empty()) {
      locale = to_lower(*v);
      break;
    }
  }
  const bool utf8 = locale.empty() ? host.platform() == Platform::kWindows
                                   : locale.find("utf-8") != std::string::npos || locale.find("utf8") != std::string::npos;
  global.ascii = !utf8;

  for (auto& [sub, spec, runner] : commands) {
    if (!sub->parsed()) continue;
    // An output a command does not have is refused, not ignored (`probe --markdown`).
    if (!usage::supports(*spec, global.format)) {
      err << fmt::format("tfgpu {}: --markdown is not an output of {} (it has {})\n", spec->name, spec->name,
                         usage::describe_outputs(*spec));
      return kExitUsage;
    }
    CommandIo io{host, out, err, global};
    return runner(io);
  }
  err << usage::short_usage(command_table());
  return kExitUsage;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, Host& host, std::ostream& out, std::ostream& err,
            bool stdout_is_terminal, std::optional<int> terminal_columns) {
  // Every byte any command prints passes here (util/terminal_text.h): control characters
  // from a snapshot, a log or a file name reach the terminal as visible escapes.
  TerminalSafeStreambuf out_filter(out.rdbuf());
  TerminalSafeStreambuf err_filter(err.rdbuf());
  std::ostream safe_out(&out_filter);
  std::ostream safe_err(&err_filter);
  // The probe's vendor-library child (probe_child.cc starts one per library) is answered
  // before the command line interface is built: building it costs more than the child's
  // own work on a machine without a driver. Any other shape of its arguments goes through
  // the parser as before.
  std::optional<int> direct = run_probe_driver_direct(args, host, safe_out, safe_err);
  int code = direct ? *direct
                    : run_parsed(args, host, safe_out, safe_err, stdout_is_terminal, terminal_columns, out_filter);
  safe_out.flush();
  bool out_ok = out_filter.finish();
  if (!out_ok) {
    safe_err << "tfgpu: cannot write the output (standard output): the output is incomplete\n";
    code = kExitInternal;
  }
  err_filter.finish();
  return code;
}

}  // namespace tfgpu
