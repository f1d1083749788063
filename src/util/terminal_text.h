#pragma once
// What reaches a terminal: tfgpu prints text from untrusted places (a snapshot from
// another machine, a log, file names on disk), and a control character in it (ESC]0;...BEL,
// ESC[2J, a C1 CSI) would act on the reader's terminal. Every byte of text and Markdown
// output goes through TerminalSafeStreambuf (installed once, in run_cli), which prints
// control characters as visible escapes (`\x1b`, `\u009b`). tfgpu's own colours and the
// progress line's erase are marked with a per-process random tag that no input can know,
// and only they pass as real control sequences.

#include <streambuf>
#include <string>
#include <string_view>

namespace tfgpu {

// SGR colour / attribute sequence that the filter lets through: sgr("31") = red.
std::string sgr(std::string_view code);
// Carriage return + erase to end of line (a progress line rewritten in place).
std::string erase_line();

enum class EscapeStyle {
  kText,  // C0 (but \n, \t), DEL, invalid UTF-8 bytes as \xNN; C1 code points as \u0080..\u009f
  kJson,  // inside JSON strings: DEL and C1 as \u007f, \u009b (valid JSON escapes of the same text)
};

// `text` with every control character escaped (no tags honoured): pure, for tests and
// for strings shown inside other output.
std::string escape_controls(std::string_view text, EscapeStyle style = EscapeStyle::kText);

// Escapes everything written through it into `target` (see the header comment).
// `failed()` says whether a write to the target failed (a full disk, a closed pipe).
class TerminalSafeStreambuf final : public std::streambuf {
 public:
  explicit TerminalSafeStreambuf(std::streambuf* target, EscapeStyle style = EscapeStyle::kText);
  ~TerminalSafeStreambuf() override;
  void set_style(EscapeStyle style) { style_ = style; }
  // Writes out what is pending (an unfinished UTF-8 sequence is escaped) and flushes.
  bool finish();
  bool failed() const { return failed_; }

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void process(bool final);
  void emit(std::string_view bytes);
  std::streambuf* target_;
  EscapeStyle style_;
  std::string pending_;
  bool failed_ = false;
};

}  // namespace tfgpu
