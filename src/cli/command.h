#pragma once
// What every subcommand gets, and the one table that lists the subcommands.
// Adding a command = one cmd_<name>.cc defining `define_<name>` + one row in
// command_table() (commands.cc) + its tests.

#include <array>
#include <functional>
#include <ostream>
#include <span>
#include <string>

#include <CLI/CLI.hpp>

#include "host/host.h"
#include "report/markdown.h"

namespace tfgpu {

enum class OutputFormat { kText, kJson, kMarkdown };

struct GlobalOptions {
  std::string kb_dir;                     // --kb DIR: read kb/*.toml from here instead of the embedded copy
  OutputFormat format = OutputFormat::kText;
  bool color = false;                     // resolved: --color, NO_COLOR, and whether stdout is a terminal
  bool stdout_is_terminal = false;        // for live progress lines (bench), independent of colour
  bool ascii = false;                     // the locale is not UTF-8 (LC_ALL / LC_CTYPE / LANG): ASCII marks
  size_t width = 80;                      // text reports wrap to this many columns (0: never)
};

struct CommandIo {
  Host& host;
  std::ostream& out;
  std::ostream& err;
  const GlobalOptions& global;
};

// Runs a parsed command; returns the process exit code (util/error.h ExitCode).
using CommandRunner = std::function<int(CommandIo&)>;

// The output formats a command has: text and --json always, --markdown for some.
enum class Outputs { kTextJson, kTextJsonMarkdown };

struct CommandSpec {
  const char* name;
  const char* summary;
  // Adds the command's options to `sub` (bound to state it owns) and returns its runner.
  CommandRunner (*define)(CLI::App& sub);
  bool hidden = false;  // internal commands (child-process entry points)
  Outputs outputs = Outputs::kTextJson;  // --markdown elsewhere is refused (exit 2)
  std::array<const char*, 2> examples{};  // shown at the end of `tfgpu <name> --help`
};

std::span<const CommandSpec> command_table();

// This machine's user names (USER, LOGNAME, USERNAME, the last component of HOME /
// USERPROFILE) and host name, for redacting Markdown and `probe --json --redact`.
report::Redactor local_redactor(const Host& host);

// `__probe-driver --library L [--path P]` exactly (the probe's child): answered without
// building the CLI; nullopt for any other arguments.
std::optional<int> run_probe_driver_direct(const std::vector<std::string>& args, const Host& host, std::ostream& out,
                                           std::ostream& err);

// The whole command line: parses args (without argv[0]), runs the chosen command.
// `stdout_is_terminal` decides colour in --color=auto mode; `terminal_columns` (when
// stdout is a terminal) the width text reports wrap to, unless COLUMNS says otherwise.
int run_cli(const std::vector<std::string>& args, Host& host, std::ostream& out, std::ostream& err,
            bool stdout_is_terminal = false, std::optional<int> terminal_columns = std::nullopt);

}  // namespace tfgpu
