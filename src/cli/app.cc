#include <algorithm>

#include <fmt/format.h>

#include "cli/command.h"
#include "util/strings.h"
#include "util/error.h"
#include "util/terminal_text.h"

namespace tfgpu {

namespace {

int run_parsed(const std::vector<std::string>& args, Host& host, std::ostream& out, std::ostream& err,
               bool stdout_is_terminal, TerminalSafeStreambuf& out_filter) {
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
      ->check(CLI::IsMember({"auto", "always", "never"}));

  std::vector<std::pair<CLI::App*, CommandRunner>> commands;
  for (const auto& spec : command_table()) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    if (spec.hidden) sub->group("");
    commands.emplace_back(sub, spec.define(*sub));
  }

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << "tfgpu " << TFGPU_VERSION << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "tfgpu: " << e.what() << " (see tfgpu --help)\n";
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

  for (auto& [sub, runner] : commands) {
    if (sub->parsed()) {
      CommandIo io{host, out, err, global};
      return runner(io);
    }
  }
  out << app.help();
  return kExitOk;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, Host& host, std::ostream& out, std::ostream& err,
            bool stdout_is_terminal) {
  // Every byte any command prints passes here (util/terminal_text.h): control characters
  // from a snapshot, a log or a file name reach the terminal as visible escapes.
  TerminalSafeStreambuf out_filter(out.rdbuf());
  TerminalSafeStreambuf err_filter(err.rdbuf());
  std::ostream safe_out(&out_filter);
  std::ostream safe_err(&err_filter);
  int code = run_parsed(args, host, safe_out, safe_err, stdout_is_terminal, out_filter);
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
