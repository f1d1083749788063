#pragma once
// The width of the terminal standard output is on, for text reports that wrap to it
// (host_posix.cc: TIOCGWINSZ; host_win32.cc: the console's window). Kept out of Host:
// only main asks, once, and hands the answer to run_cli.

#include <optional>

namespace tfgpu {

// Columns of standard output's terminal; nullopt when it is not a terminal or the size
// is unknown.
std::optional<int> stdout_terminal_columns();

}  // namespace tfgpu
