#include "util/text_encoding.h"

namespace tfgpu {
namespace {

// Decodes whole code units (and pairs) of `in`; returns how many bytes it used. With
// `final`, a trailing odd byte or unpaired high surrogate becomes U+FFFD too.
size_t decode_utf16(std::string_view in, bool big_endian, bool final, std::string* out) {
  auto unit = [&](size_t i) -> char16_t {
    auto a = static_cast<unsigned char>(in[i]), b = static_cast<unsigned char>(in[i + 1]);
    return big_endian ? static_cast<char16_t>(a << 8 | b) : static_cast<char16_t>(b << 8 | a);
  };
  size_t i = 0;
  while (i + 2 <= in.size()) {
    char16_t u = unit(i);
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 4 > in.size()) {
        if (!final) return i;
        append_utf8(*out, 0xFFFD);
        i += 2;
        continue;
      }
      char16_t low = unit(i + 2);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        append_utf8(*out, 0x10000 + ((static_cast<char32_t>(u) - 0xD800) << 10) + (low - 0xDC00));
        i += 4;
      } else {
        append_utf8(*out, 0xFFFD);
        i += 2;
      }
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      append_utf8(*out, 0xFFFD);
      i += 2;
    } else {
      append_utf8(*out, u);
      i += 2;
    }
  }
  if (final && i < in.size()) {
    append_utf8(*out, 0xFFFD);
    i = in.size();
  }
  return i;
}

size_t bom_size(TextEncoding e) {
  switch (e) {
    case TextEncoding::kUtf8Bom:
      return 3;
    case TextEncoding::kUtf16Le:
    case TextEncoding::kUtf16Be:
      return 2;
    case TextEncoding::kPlain:
      break;
  }
  return 0;
}

}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

TextEncoding detect_bom(std::string_view b) {
  if (b.starts_with("\xEF\xBB\xBF")) return TextEncoding::kUtf8Bom;
  if (b.starts_with("\xFF\xFE")) return TextEncoding::kUtf16Le;
  if (b.starts_with("\xFE\xFF")) return TextEncoding::kUtf16Be;
  return TextEncoding::kPlain;
}

std::string decode_text(std::string_view bytes) {
  TextEncoding e = detect_bom(bytes);
  bytes.remove_prefix(bom_size(e));
  if (e == TextEncoding::kPlain || e == TextEncoding::kUtf8Bom) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size());
  decode_utf16(bytes, e == TextEncoding::kUtf16Be, /*final=*/true, &out);
  return out;
}

bool DecodingStreambuf::fill() {
  out_.clear();
  while (out_.empty()) {
    if (eof_ && pending_.empty()) return false;
    if (!eof_) {
      char buf[65536];
      in_.read(buf, sizeof buf);
      auto n = static_cast<size_t>(in_.gcount());
      pending_.append(buf, n);
      if (n == 0 || !in_) eof_ = true;
    }
    if (!started_) {
      if (pending_.size() < 3 && !eof_) continue;
      started_ = true;
      encoding_ = detect_bom(pending_);
      pending_.erase(0, bom_size(encoding_));
    }
    if (encoding_ == TextEncoding::kPlain || encoding_ == TextEncoding::kUtf8Bom) {
      out_.swap(pending_);
      pending_.clear();
    } else {
      size_t used = decode_utf16(pending_, encoding_ == TextEncoding::kUtf16Be, eof_, &out_);
      pending_.erase(0, used);
    }
    if (out_.empty() && eof_ && pending_.empty()) return false;
  }
  setg(out_.data(), out_.data(), out_.data() + out_.size());
  return true;
}

DecodingStreambuf::int_type DecodingStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (!fill()) return traits_type::eof();
  return traits_type::to_int_type(*gptr());
}

}  // namespace tfgpu
