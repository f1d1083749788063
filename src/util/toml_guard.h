#pragma once
// A lexical check of TOML text before it reaches the TOML parser (toml++ 3.3.0 as Debian
// ships it crashes, asserts or has undefined behaviour on some inputs: very long dotted
// keys, a non-ASCII byte where a key belongs, `[[:a]]`). It enforces the TOML 1.0 rules
// those inputs break (keys and table headers are bare or quoted keys; non-ASCII only in
// strings and comments) and bounds size, key length and nesting depth, so that whatever
// passes is a shape the parser handles; what fails gets one line naming file and line.

#include <cstddef>
#include <string_view>

#include "util/error.h"

namespace tfgpu {

struct TomlLimits {
  size_t max_bytes = 8u << 20;   // the largest KB file is ~100 KB, a lock ~2 KB
  size_t max_key_parts = 32;     // a.b.c: the KB uses at most 2
  size_t max_key_bytes = 512;
  size_t max_depth = 32;         // arrays and inline tables inside each other
};

// Ok, or Error::input("NAME:LINE: why").
Result<void> guard_toml(std::string_view text, std::string_view name, const TomlLimits& limits = {});

}  // namespace tfgpu
