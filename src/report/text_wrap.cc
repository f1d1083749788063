#include "report/text_wrap.h"

#include <algorithm>
#include <array>

namespace tfgpu::report {

namespace {

// Bytes of a colour sequence starting at `i`, else 0: ESC [ ... final byte, or tfgpu's own
// tagged form (util/terminal_text.h: ESC, 24 hex digits, then the '[' ... of the SGR),
// which the output filter turns into the plain one.
size_t escape_length(std::string_view s, size_t i) {
  if (s[i] != '\x1b') return 0;
  size_t j = i + 1;
  while (j < s.size() && j - i <= 24 && ((s[j] >= '0' && s[j] <= '9') || (s[j] >= 'a' && s[j] <= 'f'))) ++j;
  if (j >= s.size() || s[j] != '[') return 0;
  ++j;
  while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7e)) ++j;
  return std::min(j + 1, s.size()) - i;
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The marker at the start of `s` ("- ", "1. ", "A1. ", "✓ ", "[ok] "), with its space;
// 0 when there is none.
size_t marker_length(std::string_view s) {
  // Doctor's marks (and their ASCII forms), list bullets, verify's step results.
  static constexpr std::array<std::string_view, 14> kMarks = {
      "- ", "* ", "✓ ", "✗ ", "! ", "i ", "[ok] ", "[x] ", "[!] ", "[i] ", "• ", "[pass] ", "[FAIL] ", "[skip] "};
  for (auto m : kMarks)
    if (s.substr(0, m.size()) == m) return m.size();
  // "1. ", "12. ", "A1. ", "B3. ": an optional capital letter, digits, a dot, a space.
  size_t i = 0;
  if (i < s.size() && s[i] >= 'A' && s[i] <= 'Z') ++i;
  size_t digits = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i > digits && i - digits <= 3 && i + 1 < s.size() && s[i] == '.' && s[i + 1] == ' ') return i + 2;
  return 0;
}

}  // namespace

size_t display_width(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    if (size_t esc = escape_length(text, i)) {
      i += esc;
      continue;
    }
    if (!is_continuation_byte(text[i])) ++width;
    ++i;
  }
  return width;
}

size_t hanging_indent(std::string_view line) {
  size_t pos = line.find_first_not_of(' ');
  if (pos == std::string_view::npos) return 0;
  // Colour around a marker ("\x1b[32m✓\x1b[0m ") does not hide it.
  std::string plain;
  for (size_t i = pos; i < line.size();) {
    if (size_t esc = escape_length(line, i)) {
      i += esc;
      continue;
    }
    plain += line[i++];
  }
  size_t marker = marker_length(plain);
  size_t body = marker;  // bytes into `plain`
  // "label   value": the value's column, when the label is short (a layer name, "GPU build").
  constexpr size_t kMaxLabel = 32;  // "--timeout SECONDS" in --help, "GPU build" in matrix
  size_t search_end = std::min(plain.size(), body + kMaxLabel);
  for (size_t i = body; i + 1 < search_end; ++i) {
    if (plain[i] == ' ' && plain[i + 1] == ' ') {
      size_t j = plain.find_first_not_of(' ', i);
      if (j == std::string::npos) break;
      body = j;
      i = j;
    }
  }
  return pos + display_width(std::string_view(plain).substr(0, body));
}

std::string wrap_line(std::string_view line, size_t hang, size_t width) {
  if (width == 0 || display_width(line) <= width) return std::string(line);
  // A hang that leaves little room for text is shortened: words first, alignment second.
  hang = std::min(hang, width * 2 / 3);
  std::string out;
  std::string_view rest = line;
  size_t start_col = 0;
  while (true) {
    size_t col = start_col;
    size_t best = std::string_view::npos;      // last space that fits
    size_t overflow = std::string_view::npos;  // first space past the width
    bool fits = true;
    for (size_t i = 0; i < rest.size();) {
      if (size_t esc = escape_length(rest, i)) {
        i += esc;
        continue;
      }
      if (rest[i] == ' ' && col >= hang && col > start_col) {
        // Only a space after some text on this line is a break point.
        if (col <= width) best = i;
        else if (overflow == std::string_view::npos) overflow = i;
      }
      if (!is_continuation_byte(rest[i])) ++col;
      if (col > width) fits = false;
      if (!fits && overflow != std::string_view::npos) break;
      ++i;
    }
    if (fits) {
      out += rest;
      break;
    }
    size_t cut = best != std::string_view::npos ? best : overflow;
    if (cut == std::string_view::npos) {
      out += rest;
      break;
    }
    std::string_view head = rest.substr(0, cut);
    while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
    out += head;
    out += '\n';
    rest = rest.substr(cut);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty()) break;
    out += std::string(hang, ' ');
    start_col = hang;
  }
  return out;
}

std::string wrap_text(std::string_view text, size_t width) {
  if (width == 0) return std::string(text);
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    out += wrap_line(line, hanging_indent(line), width);
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

}  // namespace tfgpu::report
