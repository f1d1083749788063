#pragma once
// Bounds-checked reading of untrusted binary data (ELF, PE, ld.so.cache). Every read
// checks its range and throws ParseError with the absolute offset; each parser's single
// public entry point catches it and turns it into an Error value (parse_error_to_error).
// Nothing here ever reads outside the given bytes or allocates from a count in the data.

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "util/error.h"

namespace tfgpu::binfmt {

enum class Endian { kLittle, kBig };

// Thrown only inside parsers; never crosses a public binfmt function.
class ParseError : public std::runtime_error {
 public:
  // what: "truncated dynamic section"; offset: absolute offset in the whole input.
  ParseError(std::string what, uint64_t offset);
  uint64_t offset() const { return offset_; }
  const std::string& description() const { return description_; }

 private:
  std::string description_;
  uint64_t offset_;
};

// "libfoo.so: truncated dynamic section at offset 0x1234" (name omitted when empty).
std::string format_parse_error(std::string_view name, const ParseError& e);
// The value form of a ParseError: Error::input(format_parse_error(...)).
Error parse_error_to_error(std::string_view name, const ParseError& e);
// "libfoo.so: not an ELF file" style errors for input that is not this format at all
// (ErrorKind::kNotFound), so callers can try the next format.
Error not_this_format(std::string_view name, std::string_view what);

// A window [base, base+size) onto the input with a read position. `label` names what the
// window holds ("dynamic section") for error messages. Offsets given to the *_at functions
// are relative to the window; ParseError offsets are absolute.
class ByteReader {
 public:
  explicit ByteReader(std::string_view data, Endian endian = Endian::kLittle,
                      std::string label = "file");
  // A window whose first byte is at absolute offset `base` of the input (ByteSource).
  static ByteReader at_base(std::string_view data, uint64_t base, Endian endian, std::string label) {
    return ByteReader(data, endian, std::move(label), base);
  }

  size_t size() const { return data_.size(); }
  uint64_t base() const { return base_; }  // absolute offset of this window
  size_t pos() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  Endian endian() const { return endian_; }
  void set_endian(Endian e) { endian_ = e; }
  const std::string& label() const { return label_; }
  std::string_view data() const { return data_; }

  // A sub-window; throws "truncated <label> at offset X" when it does not fit.
  ByteReader sub(uint64_t offset, uint64_t length, std::string label) const;
  // A sub-window from offset to the end of this window.
  ByteReader tail(uint64_t offset, std::string label) const;

  void seek(uint64_t offset);  // throws when offset > size()
  void skip(uint64_t count);

  // Sequential reads at pos(), advancing it.
  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  uint64_t u64();
  std::string_view bytes(uint64_t count);

  // Random access (pos() unchanged).
  uint8_t u8_at(uint64_t offset) const;
  uint16_t u16_at(uint64_t offset) const;
  uint32_t u32_at(uint64_t offset) const;
  uint64_t u64_at(uint64_t offset) const;
  std::string_view bytes_at(uint64_t offset, uint64_t count) const;
  // NUL-terminated string starting at offset; throws when no NUL before the window's end.
  std::string_view cstring_at(uint64_t offset) const;
  bool has(uint64_t offset, uint64_t count) const;

  // Throws ParseError("<what>", base()+offset).
  [[noreturn]] void fail_at(uint64_t offset, std::string what) const;
  // Throws "truncated <label>" at base()+offset.
  [[noreturn]] void truncated_at(uint64_t offset) const;

 private:
  ByteReader(std::string_view data, Endian endian, std::string label, uint64_t base);
  uint64_t read_uint(uint64_t offset, int width) const;

  std::string_view data_;
  Endian endian_;
  std::string label_;
  uint64_t base_ = 0;
  size_t pos_ = 0;
};

// Thrown by a ranged ByteSource when the file itself could not be read (an I/O error, a
// file that shrank): what the headers say is then unknown, not malformed. Each parser's
// entry point turns it into Error::io.
class ReadError : public std::runtime_error {
 public:
  explicit ReadError(const std::string& what) : std::runtime_error(what) {}
};

// `length` bytes at `offset` of a file (fewer only where the file ends), or an Error.
using RangeFn = std::function<Result<std::string>(uint64_t offset, uint64_t length)>;

// Where a parser's bytes come from: the whole input in memory, or a file of known size
// read by ranges on demand, so a parser touches a few KiB of a file of any size. Every
// window is bounds-checked against the file size before anything is read, and is a
// ByteReader (absolute offsets in errors) over bytes this source owns.
class ByteSource {
 public:
  explicit ByteSource(std::string_view whole);
  ByteSource(uint64_t size, RangeFn read);

  uint64_t size() const { return size_; }
  bool ranged() const { return static_cast<bool>(read_); }
  uint64_t bytes_fetched() const { return fetched_; }

  // [offset, offset+length): "truncated <label>" at offset when the file is shorter. A
  // ranged source reads only the first `fetch` bytes of it (the window is then shorter);
  // an in-memory source always gives the whole range.
  ByteReader read(uint64_t offset, uint64_t length, std::string label, Endian endian,
                  uint64_t fetch = UINT64_MAX);
  // From offset to the end of the file, likewise.
  ByteReader tail(uint64_t offset, std::string label, Endian endian, uint64_t fetch = UINT64_MAX);
  // The NUL-terminated string at `index` of the region [region, region+region_size):
  // "truncated <label>" when index is outside it, "unterminated string in <label>" when
  // no NUL comes before its end. Reads grow from 256 bytes.
  std::string cstring(uint64_t region, uint64_t region_size, uint64_t index, const std::string& label);

  // Most bytes a ranged source reads for one file's headers; more is a ReadError.
  static constexpr uint64_t kMaxFetched = 16u << 20;

 private:
  std::string_view whole_;
  uint64_t size_ = 0;
  RangeFn read_;
  std::deque<std::string> chunks_;  // owned bytes of ranged windows (stable addresses)
  uint64_t fetched_ = 0;
};

}  // namespace tfgpu::binfmt
