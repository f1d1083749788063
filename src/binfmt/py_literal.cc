#include "binfmt/py_literal.h"

#include <fmt/format.h>

#include <stdexcept>

#include "util/strings.h"
#include "util/text_encoding.h"

namespace tfgpu::binfmt {
namespace {

constexpr int kMaxDepth = 64;

struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  PyValue parse_single() {
    skip_space(Newlines::kSkip);
    PyValue v = value(0);
    skip_space(Newlines::kSkip);
    if (!at_end()) error("unexpected " + describe_here());
    return v;
  }

  std::vector<PyAssignment> parse_module() {
    std::vector<PyAssignment> out;
    for (;;) {
      skip_space(Newlines::kSkip);
      if (at_end()) return out;
      size_t stmt_line = line_;
      if (peek() == '"' || peek() == '\'' || string_prefix_len() > 0) {
        value(0);  // a docstring or bare string expression
        end_statement(stmt_line);
        continue;
      }
      if (!is_ident_start(peek())) unsupported(stmt_line);
      size_t mark = i_;
      std::string name = identifier();
      if (name == "import" || name == "from") {
        skip_import();
        continue;
      }
      skip_space(Newlines::kKeep);
      if (peek() == '[') {  // name[key] = value on a dict assigned earlier
        ++i_;
        skip_space(Newlines::kSkip);
        PyValue key = value(1);
        skip_space(Newlines::kSkip);
        expect(']');
        skip_space(Newlines::kKeep);
        if (!(peek() == '=' && peek(1) != '=')) unsupported(stmt_line);
        ++i_;
        skip_space(Newlines::kKeep);
        PyValue v = value(0);
        end_statement(stmt_line);
        PyAssignment* target = nullptr;
        for (auto it = out.rbegin(); it != out.rend(); ++it)
          if (it->name == name) { target = &*it; break; }
        if (!target || target->value.kind != PyValue::Kind::kDict) unsupported(stmt_line);
        set_entry(target->value, std::move(key), std::move(v));
        continue;
      }
      if (!(peek() == '=' && peek(1) != '=')) {
        i_ = mark;
        unsupported(stmt_line);
      }
      ++i_;
      skip_space(Newlines::kKeep);
      PyValue v = value(0);
      end_statement(stmt_line);
      out.push_back({std::move(name), std::move(v)});
    }
  }

  [[noreturn]] void error(const std::string& what) const {
    throw SyntaxError(fmt::format("{} at line {} column {}", what, line_, i_ - line_start_ + 1));
  }

 private:
  enum class Newlines { kSkip, kKeep };

  bool at_end() const { return i_ >= s_.size(); }
  char peek(size_t ahead = 0) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }

  std::string describe_here() const {
    if (at_end()) return "end of input";
    char c = s_[i_];
    if (c >= 0x20 && c < 0x7f) return fmt::format("'{}'", c);
    return fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c));
  }

  [[noreturn]] void unsupported(size_t line) const {
    throw SyntaxError(fmt::format("unsupported statement at line {}", line));
  }

  void newline() {
    ++line_;
    line_start_ = i_ + 1;
  }

  // Skips spaces and comments; newlines too when inside brackets (kSkip) or between
  // statements. A backslash-newline is a line continuation everywhere.
  void skip_space(Newlines nl) {
    while (!at_end()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++i_;
      } else if (c == '#') {
        while (!at_end() && s_[i_] != '\n') ++i_;
      } else if (c == '\\' && peek(1) == '\n') {
        ++i_;
        newline();
        ++i_;
      } else if (c == '\n' && nl == Newlines::kSkip) {
        newline();
        ++i_;
      } else {
        return;
      }
    }
  }

  void end_statement(size_t stmt_line) {
    skip_space(Newlines::kKeep);
    if (at_end()) return;
    if (peek() == ';') {
      ++i_;
      return;
    }
    if (peek() != '\n') unsupported(stmt_line);
    newline();
    ++i_;
  }

  void skip_import() {
    // `import x`, `from __future__ import a, b`, `from x import (a,\n b)`.
    int depth = 0;
    while (!at_end()) {
      char c = s_[i_];
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == '\n') {
        newline();
        ++i_;
        if (depth <= 0) return;
        continue;
      }
      ++i_;
    }
  }

  void expect(char c) {
    if (peek() != c) error(fmt::format("expected '{}' but found {}", c, describe_here()));
    ++i_;
  }

  std::string identifier() {
    size_t start = i_;
    while (!at_end() && is_ident_char(s_[i_])) ++i_;
    return std::string(s_.substr(start, i_ - start));
  }

  size_t string_prefix_len() const {
    // r, u, b, br, rb (any case) directly followed by a quote.
    size_t n = 0;
    while (n < 2 && (peek(n) == 'r' || peek(n) == 'R' || peek(n) == 'u' || peek(n) == 'U' ||
                     peek(n) == 'b' || peek(n) == 'B'))
      ++n;
    if (n > 0 && (peek(n) == '"' || peek(n) == '\'')) return n;
    return 0;
  }

  PyValue value(int depth) {
    if (depth > kMaxDepth) error("nesting deeper than 64 levels");
    char c = peek();
    if (c == '"' || c == '\'' || string_prefix_len() > 0) {
      PyValue v;
      v.kind = PyValue::Kind::kString;
      v.text = string_literal();
      // Implicit concatenation: 'a' 'b' (also across lines inside brackets).
      for (;;) {
        size_t mark = i_, mark_line = line_, mark_start = line_start_;
        skip_space(depth > 0 ? Newlines::kSkip : Newlines::kKeep);
        if (peek() == '"' || peek() == '\'' || string_prefix_len() > 0) {
          v.text += string_literal();
        } else {
          i_ = mark, line_ = mark_line, line_start_ = mark_start;
          return v;
        }
      }
    }
    if (c == '[') return sequence(depth, ']', PyValue::Kind::kList);
    if (c == '(') return sequence(depth, ')', PyValue::Kind::kTuple);
    if (c == '{') return dict(depth);
    if (is_digit(c) || c == '-' || c == '+' || (c == '.' && is_digit(peek(1)))) return number();
    if (is_ident_start(c)) {
      size_t start = i_;
      std::string name = identifier();
      if (name == "True" || name == "False") {
        PyValue v;
        v.kind = PyValue::Kind::kBool;
        v.boolean = name == "True";
        return v;
      }
      if (name == "None") return PyValue{};
      while (peek() == '.' && is_ident_start(peek(1))) {
        ++i_;
        name += "." + identifier();
      }
      if (name == "collections.OrderedDict" || name == "OrderedDict" || name == "dict") return dict_call(depth);
      i_ = start;
      error(fmt::format("unsupported name '{}'", name));
    }
    error("unexpected " + describe_here());
  }

  PyValue sequence(int depth, char close, PyValue::Kind kind) {
    ++i_;  // the opening bracket
    PyValue v;
    v.kind = kind;
    bool trailing_comma = false;
    for (;;) {
      skip_space(Newlines::kSkip);
      if (peek() == close) {
        ++i_;
        break;
      }
      if (!v.items.empty() && !trailing_comma) error(fmt::format("expected ',' or '{}' but found {}", close, describe_here()));
      v.items.push_back(value(depth + 1));
      skip_space(Newlines::kSkip);
      trailing_comma = peek() == ',';
      if (trailing_comma) ++i_;
    }
    // (x) is just x; (x,) is a tuple.
    if (kind == PyValue::Kind::kTuple && v.items.size() == 1 && !trailing_comma) return std::move(v.items[0]);
    return v;
  }

  static void set_entry(PyValue& dict, PyValue key, PyValue val) {
    for (auto& [k, existing] : dict.entries) {
      if (k.kind == key.kind && k.text == key.text && k.boolean == key.boolean) {
        existing = std::move(val);
        return;
      }
    }
    dict.entries.emplace_back(std::move(key), std::move(val));
  }

  PyValue dict(int depth) {
    ++i_;  // '{'
    PyValue v;
    v.kind = PyValue::Kind::kDict;
    bool first = true;
    for (;;) {
      skip_space(Newlines::kSkip);
      if (peek() == '}') {
        ++i_;
        return v;
      }
      if (!first) {
        expect(',');
        skip_space(Newlines::kSkip);
        if (peek() == '}') {
          ++i_;
          return v;
        }
      }
      first = false;
      PyValue key = value(depth + 1);
      skip_space(Newlines::kSkip);
      if (peek() != ':') error("sets are not supported; expected ':' but found " + describe_here());
      ++i_;
      skip_space(Newlines::kSkip);
      PyValue val = value(depth + 1);
      set_entry(v, std::move(key), std::move(val));
    }
  }

  // OrderedDict([(k, v), ...]) / dict(k=v, ...) / dict({...}).
  PyValue dict_call(int depth) {
    skip_space(Newlines::kKeep);
    expect('(');
    PyValue v;
    v.kind = PyValue::Kind::kDict;
    bool first = true;
    for (;;) {
      skip_space(Newlines::kSkip);
      if (peek() == ')') {
        ++i_;
        return v;
      }
      if (!first) {
        expect(',');
        skip_space(Newlines::kSkip);
        if (peek() == ')') {
          ++i_;
          return v;
        }
      }
      first = false;
      if (is_ident_start(peek()) && string_prefix_len() == 0) {
        size_t mark = i_;
        std::string kw = identifier();
        skip_space(Newlines::kSkip);
        if (peek() == '=' && peek(1) != '=') {
          ++i_;
          skip_space(Newlines::kSkip);
          PyValue key;
          key.kind = PyValue::Kind::kString;
          key.text = kw;
          set_entry(v, std::move(key), value(depth + 1));
          continue;
        }
        i_ = mark;
      }
      PyValue arg = value(depth + 1);
      if (arg.kind == PyValue::Kind::kDict) {
        for (auto& [k, val] : arg.entries) set_entry(v, std::move(k), std::move(val));
      } else if (arg.kind == PyValue::Kind::kList || arg.kind == PyValue::Kind::kTuple) {
        for (auto& pair : arg.items) {
          if ((pair.kind != PyValue::Kind::kTuple && pair.kind != PyValue::Kind::kList) || pair.items.size() != 2)
            error("OrderedDict items must be (key, value) pairs");
          set_entry(v, std::move(pair.items[0]), std::move(pair.items[1]));
        }
      } else {
        error("OrderedDict argument must be a list of pairs or a dict");
      }
    }
  }

  PyValue number() {
    size_t start = i_;
    if (peek() == '-' || peek() == '+') ++i_;
    if (!is_digit(peek()) && !(peek() == '.' && is_digit(peek(1)))) error("unexpected " + describe_here());
    bool is_float = false;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' || peek(1) == 'b' || peek(1) == 'B')) {
      i_ += 2;
      while (hex_value(peek()) >= 0 || peek() == '_') ++i_;
    } else {
      while (is_digit(peek()) || peek() == '_') ++i_;
      if (peek() == '.') {
        is_float = true;
        ++i_;
        while (is_digit(peek()) || peek() == '_') ++i_;
      }
      if (peek() == 'e' || peek() == 'E') {
        is_float = true;
        ++i_;
        if (peek() == '-' || peek() == '+') ++i_;
        if (!is_digit(peek())) error("malformed number");
        while (is_digit(peek())) ++i_;
      }
    }
    if (is_ident_char(peek())) error("malformed number");
    PyValue v;
    v.kind = is_float ? PyValue::Kind::kFloat : PyValue::Kind::kInt;
    v.text = std::string(s_.substr(start, i_ - start));
    return v;
  }

  std::string string_literal() {
    bool raw = false;
    while (peek() != '"' && peek() != '\'') {
      if (peek() == 'r' || peek() == 'R') raw = true;
      ++i_;
    }
    char q = peek();
    bool triple = peek(1) == q && peek(2) == q;
    // Errors about the string as a whole point at its opening quote, as Python's do.
    const size_t open_i = i_, open_line = line_, open_line_start = line_start_;
    auto unterminated = [&] {
      i_ = open_i, line_ = open_line, line_start_ = open_line_start;
      error("unterminated string");
    };
    i_ += triple ? 3 : 1;
    std::string out;
    for (;;) {
      if (at_end()) unterminated();
      char c = s_[i_];
      if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
        i_ += triple ? 3 : 1;
        return out;
      }
      if (c == '\n') {
        if (!triple) unterminated();
        out += c;
        newline();
        ++i_;
        continue;
      }
      if (c != '\\') {
        out += c;
        ++i_;
        continue;
      }
      // Backslash.
      char e = peek(1);
      if (i_ + 1 >= s_.size()) unterminated();
      if (raw) {
        // Raw strings keep the backslash; it still stops a quote from ending the string.
        out += c;
        out += e;
        if (e == '\n') newline();
        i_ += 2;
        continue;
      }
      i_ += 2;
      switch (e) {
        case '\n': newline(); break;  // line continuation inside the string
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case 'x': out += static_cast<char>(hex_escape(2)); break;
        case 'u': append_utf8(out, hex_escape(4)); break;
        case 'U': append_utf8(out, hex_escape(8)); break;
        case 'N': error("\\N{...} escapes are not supported");
        default:
          if (e >= '0' && e <= '7') {
            uint32_t v = e - '0';
            for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k) v = v * 8 + (s_[i_++] - '0');
            append_utf8(out, v);
          } else {
            out += '\\';  // unknown escapes are kept verbatim, as Python does
            out += e;
          }
      }
    }
  }

  uint32_t hex_escape(int digits) {
    uint32_t v = 0;
    for (int k = 0; k < digits; ++k) {
      int h = hex_value(peek());
      if (h < 0) error("truncated \\x/\\u escape");
      v = v * 16 + h;
      ++i_;
    }
    return v;
  }

  std::string_view s_;
  size_t i_ = 0;
  size_t line_ = 1;
  size_t line_start_ = 0;
};

Error to_error(std::string_view name, const std::string& what) {
  return Error::input(name.empty() ? what : fmt::format("{}: {}", name, what));
}

}  // namespace

std::string PyValue::to_display() const {
  switch (kind) {
    case Kind::kNone: return "None";
    case Kind::kBool: return boolean ? "True" : "False";
    case Kind::kInt:
    case Kind::kFloat:
    case Kind::kString: return text;
    case Kind::kList:
    case Kind::kTuple: {
      std::vector<std::string> parts;
      for (const auto& item : items) parts.push_back(item.to_display());
      return join(parts, ",");
    }
    case Kind::kDict: {
      std::vector<std::string> parts;
      for (const auto& [k, v] : entries) parts.push_back(k.to_display() + ":" + v.to_display());
      return join(parts, ",");
    }
  }
  return {};
}

Result<PyValue> parse_py_literal(std::string_view text, std::string_view name) {
  try {
    return Parser(text).parse_single();
  } catch (const SyntaxError& e) {
    return fail(to_error(name, e.what()));
  }
}

Result<std::vector<PyAssignment>> parse_py_assignments(std::string_view text, std::string_view name) {
  try {
    return Parser(text).parse_module();
  } catch (const SyntaxError& e) {
    return fail(to_error(name, e.what()));
  }
}

}  // namespace tfgpu::binfmt
