#include "util/toml_guard.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace tfgpu {
namespace {

// Thrown inside the scanner only; guard_toml turns it into a value.
struct GuardError {
  size_t line;
  std::string why;
};

class Scanner {
 public:
  Scanner(std::string_view t, const TomlLimits& l) : t_(t), limits_(l) {}

  void run() {
    while (p_ < t_.size()) {
      skip_blank();
      if (p_ >= t_.size()) break;
      char c = t_[p_];
      if (c == '\n' || c == '\r') {
        newline();
        continue;
      }
      if (c == '#') {
        comment();
        continue;
      }
      if (stack_.empty() && !in_value_) {
        // Start of an expression: a table header or a key/value pair (TOML 1.0, "Keys").
        if (c == '[') {
          header();
        } else {
          key("a key");
          skip_blank();
          expect('=', "'=' after the key");
          in_value_ = true;
          token_start_ = true;
        }
        continue;
      }
      value_byte(c);
    }
    if (!stack_.empty()) fail(fmt::format("unclosed '{}'", stack_.back()));
  }

 private:
  [[noreturn]] void fail(std::string why) const { throw GuardError{line_, std::move(why)}; }

  void skip_blank() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t')) ++p_;
  }

  void newline() {
    if (t_[p_] == '\r') {
      if (p_ + 1 >= t_.size() || t_[p_ + 1] != '\n') fail("a carriage return without a line feed");
      ++p_;
    }
    ++p_;
    ++line_;
    // A value ends at the end of its line unless an array is still open (inline tables
    // are one line in TOML 1.0).
    if (stack_.empty()) in_value_ = false;
  }

  void comment() {
    while (p_ < t_.size() && t_[p_] != '\n') {
      unsigned char b = static_cast<unsigned char>(t_[p_]);
      if (b < 0x20 && b != '\t' && b != '\r') fail("a control character in a comment");
      ++p_;
    }
  }

  void expect(char c, const char* what) {
    if (p_ >= t_.size() || t_[p_] != c) fail(fmt::format("expected {}", what));
    ++p_;
  }

  static bool bare_key_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }

  // A single-line basic ("...") or literal ('...') string; multi-line ones in values only.
  void string_at(bool allow_multiline) {
    char q = t_[p_];
    bool multi = allow_multiline && t_.substr(p_, 3) == std::string(3, q);
    p_ += multi ? 3 : 1;
    for (;;) {
      if (p_ >= t_.size()) fail("an unterminated string");
      char c = t_[p_];
      unsigned char b = static_cast<unsigned char>(c);
      if (c == '\n') {
        if (!multi) fail("an unterminated string (a line break inside a single-line string)");
        ++line_;
      } else if (b < 0x20 && c != '\t' && c != '\r') {
        fail("a control character in a string");
      }
      if (q == '"' && c == '\\') {
        ++p_;  // the escape and what it escapes (the parser checks which); a line-ending
        if (p_ < t_.size() && t_[p_] != '\n') ++p_;  // backslash leaves the line break to count
        continue;
      }
      if (c == q) {
        if (!multi) {
          ++p_;
          return;
        }
        if (t_.substr(p_, 3) == std::string(3, q)) {
          p_ += 3;
          // Up to two more quotes may close it ("""a""""" is a"").
          for (int i = 0; i < 2 && p_ < t_.size() && t_[p_] == q; ++i) ++p_;
          return;
        }
      }
      ++p_;
    }
  }

  // key = simple-key *( dot-sep simple-key ); simple-key = quoted-key / unquoted-key.
  void key(const char* what) {
    size_t start = p_, parts = 0;
    for (;;) {
      skip_blank();
      if (p_ >= t_.size()) fail(fmt::format("expected {}", what));
      char c = t_[p_];
      if (c == '"' || c == '\'') {
        string_at(/*allow_multiline=*/false);
      } else if (bare_key_char(c)) {
        while (p_ < t_.size() && bare_key_char(t_[p_])) ++p_;
      } else {
        unsigned char b = static_cast<unsigned char>(c);
        if (b >= 0x80) fail(fmt::format("expected {}: a non-ASCII byte outside a string (quote the key)", what));
        fail(fmt::format("expected {} (letters, digits, '_', '-', or a quoted key), not '{}'", what,
                         b < 0x20 || b == 0x7f ? fmt::format("\\x{:02x}", b) : std::string(1, c)));
      }
      if (++parts > limits_.max_key_parts) fail(fmt::format("a dotted key of more than {} parts", limits_.max_key_parts));
      if (p_ - start > limits_.max_key_bytes) fail(fmt::format("a key longer than {} bytes", limits_.max_key_bytes));
      skip_blank();
      if (p_ < t_.size() && t_[p_] == '.') {
        ++p_;
        continue;
      }
      return;
    }
  }

  // [table] or [[array.of.tables]]
  void header() {
    ++p_;
    bool array = p_ < t_.size() && t_[p_] == '[';
    if (array) ++p_;
    key("a table name");
    expect(']', "']' after the table name");
    if (array) expect(']', "']]' after the array-of-tables name");
  }

  void value_byte(char c) {
    unsigned char b = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
      case '\'':
        // A string is a whole value token: toml++ reads `2'''e...` as one token and runs
        // into its own undefined behaviour on a non-ASCII byte there (fuzzer, plan_lock).
        if (!token_start_) fail("a quote inside a value (a string starts right after '=', '[', ',' or '{')");
        string_at(/*allow_multiline=*/true);
        token_start_ = false;
        return;
      case '[':
      case '{':
        if (stack_.size() >= limits_.max_depth)
          fail(fmt::format("arrays and inline tables nested more than {} deep", limits_.max_depth));
        stack_.push_back(c);
        ++p_;
        token_start_ = true;
        if (c == '{') inline_key();
        return;
      case ']':
      case '}':
        if (stack_.empty() || stack_.back() != (c == ']' ? '[' : '{')) fail(fmt::format("an unmatched '{}'", c));
        stack_.pop_back();
        ++p_;
        token_start_ = false;
        return;
      case ',':
        ++p_;
        token_start_ = true;
        if (!stack_.empty() && stack_.back() == '{') inline_key();
        return;
      default:
        break;
    }
    if (b >= 0x80) fail("a non-ASCII byte outside a string or comment");
    if ((b < 0x20 && c != '\t') || b == 0x7f) fail(fmt::format("a control character (\\x{:02x}) outside a string", b));
    token_start_ = false;
    ++p_;
  }

  // After '{' or a ',' inside one: a key and '=', or the closing '}' of an empty table.
  void inline_key() {
    skip_blank();
    if (p_ < t_.size() && t_[p_] == '}') return;  // handled by value_byte
    key("a key in the inline table");
    skip_blank();
    expect('=', "'=' after the key");
  }

  std::string_view t_;
  const TomlLimits& limits_;
  size_t p_ = 0;
  size_t line_ = 1;
  bool in_value_ = false;
  bool token_start_ = false;  // in a value: the next byte starts a token (after '=', '[', ',', '{')
  std::vector<char> stack_;  // open '[' and '{' of the current value
};

}  // namespace

Result<void> guard_toml(std::string_view text, std::string_view name, const TomlLimits& limits) {
  if (text.size() > limits.max_bytes)
    return fail(Error::input(fmt::format("{}: {} bytes, more than the {} a TOML file may have here", name, text.size(),
                                         limits.max_bytes)));
  try {
    Scanner(text, limits).run();
  } catch (const GuardError& e) {
    return fail(Error::input(fmt::format("{}:{}: {}", name, e.line, e.why)));
  }
  return {};
}

}  // namespace tfgpu
