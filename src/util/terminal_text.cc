#include "util/terminal_text.h"

#include <algorithm>
#include <random>

#include <fmt/format.h>

namespace tfgpu {

namespace {

// ESC + 24 random hex digits, fixed for the process: tfgpu's own control sequences.
const std::string& tag() {
  static const std::string t = [] {
    std::random_device rd;
    return fmt::format("\x1b{:08x}{:08x}{:08x}", rd(), rd(), rd());
  }();
  return t;
}

// Length of the UTF-8 sequence a lead byte starts (0: not a lead byte).
size_t utf8_length(unsigned char c) {
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;
}

// Escapes `in` from `i` on into `out`; stops (returns the index) where a sequence is
// cut off by the end of the input unless `final`. Tags are honoured when `tags`.
size_t escape_into(std::string_view in, size_t i, bool final, bool tags, EscapeStyle style, std::string& out) {
  const std::string& t = tag();
  while (i < in.size()) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    if (c == 0x1b && tags) {
      size_t have = in.size() - i;
      // A tag is followed by the byte it lets through ('[' of an SGR, or '\r').
      if (have < t.size() + 1 && !final && t.compare(0, have, in.substr(i, std::min(have, t.size()))) == 0) return i;
      if (have >= t.size() + 1 && in.compare(i, t.size(), t) == 0) {
        char next = in[i + t.size()];
        out += next == '\r' ? std::string("\r") : std::string("\x1b") + next;
        i += t.size() + 1;
        continue;
      }
    }
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c < 0x80) {  // C0 control, ESC, DEL
      out += style == EscapeStyle::kJson ? fmt::format("\\u{:04x}", c) : fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    size_t len = utf8_length(c);
    if (len == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    if (i + len > in.size()) {
      if (!final) {
        bool prefix_ok = true;
        for (size_t k = i + 1; k < in.size(); ++k)
          prefix_ok = prefix_ok && (static_cast<unsigned char>(in[k]) >> 6) == 2;
        if (prefix_ok) return i;
      }
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    bool ok = true;
    for (size_t k = 1; k < len; ++k) ok = ok && (static_cast<unsigned char>(in[i + k]) >> 6) == 2;
    if (!ok) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    if (len == 2 && c == 0xC2 && static_cast<unsigned char>(in[i + 1]) <= 0x9F) {  // U+0080..U+009F: C1 controls
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(in[i + 1]));
      i += 2;
      continue;
    }
    out.append(in.substr(i, len));
    i += len;
  }
  return i;
}

}  // namespace

std::string sgr(std::string_view code) { return fmt::format("{}[{}m", tag(), code); }

std::string erase_line() { return tag() + "\r" + tag() + "[K"; }

std::string escape_controls(std::string_view text, EscapeStyle style) {
  std::string out;
  out.reserve(text.size());
  escape_into(text, 0, /*final=*/true, /*tags=*/false, style, out);
  return out;
}

TerminalSafeStreambuf::TerminalSafeStreambuf(std::streambuf* target, EscapeStyle style)
    : target_(target), style_(style) {}

TerminalSafeStreambuf::~TerminalSafeStreambuf() { finish(); }

void TerminalSafeStreambuf::emit(std::string_view bytes) {
  if (bytes.empty() || !target_) return;
  auto n = target_->sputn(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (n != static_cast<std::streamsize>(bytes.size())) failed_ = true;
}

void TerminalSafeStreambuf::process(bool final) {
  std::string out;
  size_t used = escape_into(pending_, 0, final, /*tags=*/true, style_, out);
  pending_.erase(0, used);
  emit(out);
}

TerminalSafeStreambuf::int_type TerminalSafeStreambuf::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  pending_ += traits_type::to_char_type(ch);
  if (pending_.size() >= 4096 || ch == '\n') process(false);
  return ch;
}

std::streamsize TerminalSafeStreambuf::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<size_t>(n));
  process(false);
  return n;
}

int TerminalSafeStreambuf::sync() {
  process(false);
  if (target_ && target_->pubsync() != 0) failed_ = true;
  return failed_ ? -1 : 0;
}

bool TerminalSafeStreambuf::finish() {
  process(true);
  if (target_ && target_->pubsync() != 0) failed_ = true;
  return !failed_;
}

}  // namespace tfgpu
