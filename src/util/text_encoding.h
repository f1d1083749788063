#pragma once
// Text files as Windows writes them: Windows PowerShell 5.1's `>` writes UTF-16 LE with a
// byte order mark, Notepad and `Out-File -Encoding utf8` a UTF-8 BOM. Everything that
// reads a snapshot, lock, prediction or log takes these as UTF-8 without the mark.
// Text without a BOM passes through unchanged (no guessing).

#include <istream>
#include <streambuf>
#include <string>
#include <string_view>

namespace tfgpu {

enum class TextEncoding { kPlain, kUtf8Bom, kUtf16Le, kUtf16Be };

// Appends code point `cp` to `out` as UTF-8; a surrogate or a value past U+10FFFF (not a
// character) is written as U+FFFD, so the result is always valid UTF-8.
void append_utf8(std::string& out, char32_t cp);

// By the byte order mark at the start of `bytes` (kPlain: none).
TextEncoding detect_bom(std::string_view bytes);

// `bytes` as UTF-8 without a BOM: UTF-16 is converted (an unpaired surrogate or a last
// odd byte becomes U+FFFD), a UTF-8 BOM is dropped, anything else is returned as is.
std::string decode_text(std::string_view bytes);

// The same, for a stream read in chunks (explain reads logs of any size).
class DecodingStreambuf : public std::streambuf {
 public:
  explicit DecodingStreambuf(std::istream& in) : in_(in) {}

 protected:
  int_type underflow() override;

 private:
  bool fill();
  std::istream& in_;
  bool started_ = false;
  bool eof_ = false;
  TextEncoding encoding_ = TextEncoding::kPlain;
  std::string pending_;  // raw bytes not yet decoded (a split code unit or surrogate pair)
  std::string out_;      // decoded bytes being handed out
};

}  // namespace tfgpu
