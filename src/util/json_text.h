#pragma once
// JSON output that never fails on bytes: paths and environment values are bytes on Linux,
// and JSON strings must be UTF-8. Each string (or object key) holding invalid UTF-8 is
// written with U+FFFD for each invalid byte, and its exact bytes go into a top-level
// "invalid_utf8" list ({"pointer": RFC 6901 pointer, "hex": bytes} for a value,
// {"key_of": pointer, "hex": bytes} for a key), so nothing is lost (docs/snapshot.md).
// Reading a document back, restore_invalid_utf8 puts the original bytes in place again.

#include <string>

#include <nlohmann/json.hpp>

namespace tfgpu {

// `text` with each byte that is not part of a valid UTF-8 sequence replaced by U+FFFD;
// returns true when `text` was valid (then `out` is a copy).
bool to_valid_utf8(std::string_view text, std::string* out);

// Rewrites `j` as described above (adds "invalid_utf8" to a top-level object when needed;
// a non-object document only gets the replacement characters).
void make_json_utf8(nlohmann::json& j);

// j.dump(indent) after make_json_utf8: never throws for invalid UTF-8.
std::string dump_json(nlohmann::json j, int indent = 2);

// Undoes make_json_utf8 on a parsed document (ignores malformed "invalid_utf8" entries)
// and removes the "invalid_utf8" list.
void restore_invalid_utf8(nlohmann::json& j);

}  // namespace tfgpu
