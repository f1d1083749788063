#pragma once
// Recognises values that look like credentials (API tokens, keys, passwords) so that
// nothing tfgpu records or prints carries one: the snapshot is the file users are told
// to send to others. Pure string heuristics; false positives cost a "<redacted>".

#include <string>
#include <string_view>

namespace tfgpu {

inline constexpr std::string_view kRedacted = "<redacted>";

// A variable name that says it holds a credential: ...TOKEN..., ...SECRET..., PASSWORD,
// PASSWD, ...KEY..., CREDENTIAL, AUTH (ASCII case-insensitive).
bool looks_like_secret_name(std::string_view name);

// One token (no separators) that looks like a credential: a known token format
// (AKIA..., ghp_..., xoxb-..., glpat-..., sk-..., hf_..., AIza..., a JWT) or a long
// random-looking string (mixed case and digits, high entropy).
bool looks_like_secret_token(std::string_view token);

// `value` with every credential-looking token replaced by "<redacted>"; the whole value
// becomes "<redacted>" when it holds a PEM block ("-----BEGIN") or a URL with a password.
// Separators (':' ';' ',' '=' ' ' '/' quotes ...) are kept, so a PATH stays a PATH.
std::string redact_secret_tokens(std::string_view value);

}  // namespace tfgpu
