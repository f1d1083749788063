#pragma once
// The command line's manners, shared by every command: checks on option values (an empty
// or malformed value is refused while parsing, exit 2, with one line saying what a valid
// value looks like), "did you mean" for mistyped commands and options, the global options
// and examples at the end of every `--help`, and the short usage of a bare `tfgpu`.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace tfgpu::usage {

// A dotted version typed by the user: digits only, `min_parts` to `max_parts` components
// of at most 6 digits ("2.16", "522.06"); refuses "", "2.", "1e9", "v2", "2.16rc1".
// `example` is shown in the message.
CLI::Validator version_value(std::string example, int min_parts = 1, int max_parts = 3);

// A number of seconds: finite, within [lo, hi] ("nan", "inf", "-1" are refused).
CLI::Validator seconds_value(double lo, double hi);

// A whole number within [lo, hi] ("1.5", "x", "" are refused).
CLI::Validator whole_number(long lo, long hi);

// Adds to every option of `app` that takes a value a check that refuses an empty value
// ("--snapshot ''"): run after the command has defined its options.
void refuse_empty_values(CLI::App& app);

// The closest of `choices` to `wanted` (edit distance at most 2, and less than half of
// `wanted`'s length), or a choice `wanted` is a prefix of (when only one is); nullopt
// when none is close or two are equally close.
std::optional<std::string> closest(std::string_view wanted, const std::vector<std::string>& choices);

// The one line for a command line CLI11 refused: names the command, and for an unknown
// command or option the closest known one ("did you mean 'doctor'?").
std::string parse_error_line(const std::vector<std::string>& args, CLI::App& app, const CLI::ParseError& e);

// Global options and the command's examples, appended to every subcommand's `--help`.
std::string help_footer(const CommandSpec& spec);

// What a bare `tfgpu` prints (to standard error; exit 2).
std::string short_usage(std::span<const CommandSpec> commands);

// The output formats a command has, as words for a message ("text and --json").
bool supports(const CommandSpec& spec, OutputFormat format);
std::string describe_outputs(const CommandSpec& spec);

}  // namespace tfgpu::usage
