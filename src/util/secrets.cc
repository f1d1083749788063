#include "util/secrets.h"

#include <array>
#include <cmath>

#include "util/strings.h"

namespace tfgpu {

namespace {

bool is_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_upper_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }

// Bits per character of the token's own character distribution.
double shannon_entropy(std::string_view t) {
  std::array<int, 256> count{};
  for (unsigned char c : t) ++count[c];
  double h = 0;
  for (int n : count)
    if (n) {
      double p = static_cast<double>(n) / static_cast<double>(t.size());
      h -= p * std::log2(p);
    }
  return h;
}

bool is_separator(char c) {
  switch (c) {
    case ':':
    case ';':
    case ',':
    case '=':
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '/':
    case '\\':
    case '"':
    case '\'':
    case '`':
    case '@':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '<':
    case '>':
    case '|':
    case '&':
    case '?':
    case '#':
      return true;
    default:
      return false;
  }
}

// Well-known token shapes: the prefix and the least length of the whole token.
struct Prefix {
  std::string_view prefix;
  size_t min_length;
};
constexpr Prefix kTokenPrefixes[] = {
    {"ghp_", 20},        {"gho_", 20},     {"ghu_", 20},
    {"ghs_", 20},        {"ghr_", 20},  // GitHub
    {"github_pat_", 30},                // GitHub fine-grained
    {"glpat-", 20},                     // GitLab
    {"xoxb-", 15},       {"xoxp-", 15},    {"xoxa-", 15},
    {"xoxs-", 15},       {"xoxe-", 15},  // Slack
    {"xapp-", 15},                       // Slack app
    {"sk-", 20},         {"hf_", 20},      {"AIza", 30},
    {"npm_", 30},        {"pypi-", 30},  // OpenAI, HF, Google, npm, PyPI
    {"sk_live_", 20},    {"rk_live_", 20}, {"SG.", 30},
    {"dop_v1_", 30},     {"shpat_", 20},
};

}  // namespace

bool looks_like_secret_name(std::string_view name) {
  static constexpr std::string_view kWords[] = {"TOKEN",      "SECRET", "PASSWORD", "PASSWD",  "PASSPHRASE", "KEY",
                                                "CREDENTIAL", "AUTH",   "COOKIE",   "SESSION", "PRIVATE"};
  for (auto w : kWords)
    if (icontains(name, w)) return true;
  return false;
}

bool looks_like_secret_token(std::string_view t) {
  for (const auto& p : kTokenPrefixes)
    if (t.size() >= p.min_length && starts_with(t, p.prefix)) return true;
  // AWS access key ids: AKIA / ASIA + 16 upper-case letters or digits.
  if (t.size() >= 20 && (starts_with(t, "AKIA") || starts_with(t, "ASIA"))) {
    bool all = true;
    for (char c : t.substr(0, 20)) all = all && is_upper_alnum(c);
    if (all) return true;
  }
  // A JWT: base64url header starting with {"  ->  "eyJ", three dot-separated parts.
  if (t.size() >= 30 && starts_with(t, "eyJ") && t.find('.') != std::string_view::npos) return true;
  // A long random-looking string. Checked per piece between '_', '-', '.' so that folder
  // names made of words and numbers (tfgpu_probe_cli_23214_JsonIsASnapshot...) are not
  // taken for one: a piece of 20+ characters with both cases, 2+ digits and high entropy
  // (base62 / base64 keys), or 32+ hex digits.
  bool token_chars = true, hex = true, digit_seen = false;
  for (char c : t) {
    token_chars = token_chars && (is_alnum(c) || c == '+' || c == '-' || c == '_' || c == '.' || c == '~');
    hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
    digit_seen = digit_seen || (c >= '0' && c <= '9');
  }
  if (!token_chars) return false;
  if (hex && digit_seen && t.size() >= 32 && shannon_entropy(t) >= 3.0) return true;
  size_t start = 0;
  while (start < t.size()) {
    size_t end = start;
    while (end < t.size() && t[end] != '_' && t[end] != '-' && t[end] != '.' && t[end] != '~') ++end;
    std::string_view piece = t.substr(start, end - start);
    if (piece.size() >= 20) {
      bool lower = false, upper = false;
      int digits = 0;
      for (char c : piece) {
        lower = lower || (c >= 'a' && c <= 'z');
        upper = upper || (c >= 'A' && c <= 'Z');
        digits += (c >= '0' && c <= '9') ? 1 : 0;
      }
      if (lower && upper && digits >= 2 && shannon_entropy(piece) >= 4.0) return true;
    }
    start = end + 1;
  }
  return false;
}

std::string redact_secret_tokens(std::string_view value) {
  if (value.find("-----BEGIN") != std::string_view::npos) return std::string(kRedacted);
  // scheme://user:password@host
  if (auto scheme = value.find("://"); scheme != std::string_view::npos) {
    auto at = value.find('@', scheme);
    auto colon = value.find(':', scheme + 3);
    auto slash = value.find('/', scheme + 3);
    if (at != std::string_view::npos && colon != std::string_view::npos && colon < at &&
        (slash == std::string_view::npos || at < slash))
      return std::string(kRedacted);
  }
  std::string out;
  out.reserve(value.size());
  size_t i = 0;
  while (i < value.size()) {
    if (is_separator(value[i])) {
      out += value[i++];
      continue;
    }
    size_t j = i;
    while (j < value.size() && !is_separator(value[j])) ++j;
    std::string_view token = value.substr(i, j - i);
    if (looks_like_secret_token(token))
      out += kRedacted;
    else
      out += token;
    i = j;
  }
  return out;
}

}  // namespace tfgpu
