// util/terminal_text.h: control characters from untrusted text never reach the terminal
// as control characters; tfgpu's own colours do.
#include <sstream>

#include <gtest/gtest.h>

#include "util/terminal_text.h"

namespace tfgpu {
namespace {

std::string through_filter(const std::string& text, EscapeStyle style = EscapeStyle::kText, size_t chunk = 0) {
  std::ostringstream sink;
  {
    TerminalSafeStreambuf buf(sink.rdbuf(), style);
    std::ostream os(&buf);
    if (chunk == 0) {
      os << text;
    } else {
      for (size_t i = 0; i < text.size(); i += chunk) os << text.substr(i, chunk) << std::flush;
    }
    os.flush();
    buf.finish();
  }
  return sink.str();
}

bool has_control(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return true;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) return true;
  }
  return false;
}

TEST(TerminalText, EscapeSequencesFromInputArePrintedAsVisibleEscapes) {
  std::string attack =
      "NVIDIA \x1b]0;pwned\x07\x1b[2J\x9b"
      "31m\xc2\x9b"
      "2J\r\x7f\x08 RTX";
  std::string out = through_filter(attack);
  EXPECT_FALSE(has_control(out)) << out;
  EXPECT_EQ(out, "NVIDIA \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u009b2J\\x0d\\x7f\\x08 RTX");
  EXPECT_EQ(escape_controls(attack), out) << "the pure function and the stream agree";
}

TEST(TerminalText, NewlineTabAndUnicodeTextPassUnchanged) {
  std::string text = "✓ driver 535.104.05\n\tcuDNN 9 — ok ✗ ü 日本\n";
  EXPECT_EQ(through_filter(text), text);
  EXPECT_EQ(through_filter(text, EscapeStyle::kText, 1), text) << "a UTF-8 character split across writes";
}

TEST(TerminalText, OnlyTfgpusOwnTaggedColoursPassAsControlSequences) {
  std::string text = sgr("31") + "red" + sgr("0") + " \x1b[31mforged\x1b[0m" + erase_line() + "x";
  std::string out = through_filter(text);
  EXPECT_EQ(out, "\x1b[31mred\x1b[0m \\x1b[31mforged\\x1b[0m\r\x1b[Kx");
  EXPECT_EQ(through_filter(text, EscapeStyle::kText, 3), out) << "a tag split across writes";
}

TEST(TerminalText, JsonStyleUsesJsonEscapesForDelAndC1) {
  EXPECT_EQ(through_filter("{\"name\": \"a\x7f\xc2\x9b\"}", EscapeStyle::kJson), "{\"name\": \"a\\u007f\\u009b\"}");
}

TEST(TerminalText, AWriteThatFailsIsReported) {
  struct Refuse : std::streambuf {
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
    int_type overflow(int_type) override { return traits_type::eof(); }
  } refuse;
  TerminalSafeStreambuf buf(&refuse);
  std::ostream os(&buf);
  os << "text\n";
  EXPECT_FALSE(buf.finish());
  EXPECT_TRUE(buf.failed());
}

}  // namespace
}  // namespace tfgpu
