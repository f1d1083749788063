#pragma once
// /etc/ld.so.conf reader: ordered library directories with `include` globs expanded
// (through the Host seam), comments stripped and `hwcap` lines ignored, as ldconfig does.

#include <string>
#include <string_view>
#include <vector>

#include "host/host.h"
#include "util/error.h"

namespace tfgpu::binfmt {

// One parsed line of an ld.so.conf file (pure parsing, no includes followed).
struct LdSoConfLine {
  enum class Kind { kDir, kInclude };
  Kind kind = Kind::kDir;
  std::string value;  // the directory, or the include pattern as written
};

// Splits the text into directories and include patterns, in order, as glibc's ldconfig
// (elf/ldconfig.c parse_conf) does: '#' starts a comment anywhere; a directory line is the
// whole trimmed line, trailing '/' removed and any "=libc5"-style type suffix dropped;
// "include" takes whitespace-separated patterns; "hwcap ..." lines are ignored.
std::vector<LdSoConfLine> parse_ld_so_conf_text(std::string_view text);

// Reads `path` and every file its `include` lines match (relative patterns are relative to
// the including file's directory; the '*' '?' '[...]' glob is matched in code against the
// entries of the pattern's directory, sorted by name like glob(3)), depth first, each
// file read at most once. Directories come out in ldconfig order, duplicates removed.
// Errors: kNotFound when `path` itself cannot be read; unreadable included files are
// skipped (ldconfig warns and goes on).
Result<std::vector<std::string>> read_ld_so_conf(const Host& host,
                                                 const std::string& path = "/etc/ld.so.conf");

// fnmatch(3)-style matching of one path component (no '/' in name): '*', '?', '[abc]',
// '[a-z]', '[!x]' and '\\' escapes.
bool glob_match(std::string_view pattern, std::string_view name);

}  // namespace tfgpu::binfmt
