#pragma once
// The one error type of tfgpu: recoverable failures are values
// (std::expected<T, Error>), carrying a kind for the exit code and one clear line.

#include <expected>
#include <string>
#include <string_view>

namespace tfgpu {

enum class ErrorKind {
  kUsage,     // bad flags or arguments (exit 2)
  kInput,     // a file or value given by the user is malformed or missing (exit 2)
  kNotFound,  // something looked up does not exist (exit 2 when user-facing)
  kIo,        // reading the machine failed (exit 3 when it stops a command)
  kInternal,  // a bug (exit 3)
};

struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;  // one line, no trailing period needed

  static Error usage(std::string m) { return {ErrorKind::kUsage, std::move(m)}; }
  static Error input(std::string m) { return {ErrorKind::kInput, std::move(m)}; }
  // "<where>: <what>" (just <what> when `where`, a file or input name, is empty).
  static Error input_in(std::string_view where, std::string_view what) {
    return input(where.empty() ? std::string(what) : std::string(where).append(": ").append(what));
  }
  static Error not_found(std::string m) { return {ErrorKind::kNotFound, std::move(m)}; }
  static Error io(std::string m) { return {ErrorKind::kIo, std::move(m)}; }
  static Error internal(std::string m) { return {ErrorKind::kInternal, std::move(m)}; }
};

template <typename T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(Error e) { return std::unexpected<Error>(std::move(e)); }

// Exit codes shared by every command (DESIGN.md).
enum ExitCode : int {
  kExitOk = 0,        // all good
  kExitProblems = 1,  // blockers found
  kExitUsage = 2,     // usage or input error
  kExitInternal = 3,  // internal error
};

inline int exit_code_for(const Error& e) {
  switch (e.kind) {
    case ErrorKind::kUsage:
    case ErrorKind::kInput:
    case ErrorKind::kNotFound:
      return kExitUsage;
    case ErrorKind::kIo:
    case ErrorKind::kInternal:
      break;
  }
  return kExitInternal;
}

}  // namespace tfgpu
