#include "binfmt/byte_reader.h"

#include <fmt/format.h>

#include <algorithm>

namespace tfgpu::binfmt {

ParseError::ParseError(std::string what, uint64_t offset)
    : std::runtime_error(fmt::format("{} at offset 0x{:x}", what, offset)),
      description_(std::move(what)),
      offset_(offset) {}

std::string format_parse_error(std::string_view name, const ParseError& e) {
  if (name.empty()) return e.what();
  return fmt::format("{}: {}", name, e.what());
}

Error parse_error_to_error(std::string_view name, const ParseError& e) {
  return Error::input(format_parse_error(name, e));
}

Error not_this_format(std::string_view name, std::string_view what) {
  if (name.empty()) return Error::not_found(std::string(what));
  return Error::not_found(fmt::format("{}: {}", name, what));
}

ByteReader::ByteReader(std::string_view data, Endian endian, std::string label)
    : data_(data), endian_(endian), label_(std::move(label)) {}

ByteReader::ByteReader(std::string_view data, Endian endian, std::string label, uint64_t base)
    : data_(data), endian_(endian), label_(std::move(label)), base_(base) {}

bool ByteReader::has(uint64_t offset, uint64_t count) const {
  // Written so that huge values cannot wrap around.
  return offset <= data_.size() && count <= data_.size() - offset;
}

void ByteReader::fail_at(uint64_t offset, std::string what) const {
  throw ParseError(std::move(what), base_ + offset);
}

void ByteReader::truncated_at(uint64_t offset) const {
  // An offset beyond the window is reported as the window's end plus the offset when that
  // does not overflow; the point is to name where the read was attempted.
  uint64_t abs = offset > UINT64_MAX - base_ ? UINT64_MAX : base_ + offset;
  throw ParseError("truncated " + label_, abs);
}

ByteReader ByteReader::sub(uint64_t offset, uint64_t length, std::string label) const {
  if (!has(offset, length)) {
    uint64_t abs = offset > UINT64_MAX - base_ ? UINT64_MAX : base_ + offset;
    throw ParseError("truncated " + label, abs);
  }
  return ByteReader(data_.substr(offset, length), endian_, std::move(label), base_ + offset);
}

ByteReader ByteReader::tail(uint64_t offset, std::string label) const {
  if (offset > data_.size()) {
    uint64_t abs = offset > UINT64_MAX - base_ ? UINT64_MAX : base_ + offset;
    throw ParseError("truncated " + label, abs);
  }
  return sub(offset, data_.size() - offset, std::move(label));
}

void ByteReader::seek(uint64_t offset) {
  if (offset > data_.size()) truncated_at(offset);
  pos_ = offset;
}

void ByteReader::skip(uint64_t count) {
  if (!has(pos_, count)) truncated_at(pos_);
  pos_ += count;
}

uint64_t ByteReader::read_uint(uint64_t offset, int width) const {
  if (!has(offset, width)) truncated_at(offset);
  uint64_t v = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(data_.data() + offset);
  if (endian_ == Endian::kLittle) {
    for (int i = width - 1; i >= 0; --i) v = (v << 8) | p[i];
  } else {
    for (int i = 0; i < width; ++i) v = (v << 8) | p[i];
  }
  return v;
}

uint8_t ByteReader::u8_at(uint64_t offset) const { return static_cast<uint8_t>(read_uint(offset, 1)); }
uint16_t ByteReader::u16_at(uint64_t offset) const { return static_cast<uint16_t>(read_uint(offset, 2)); }
uint32_t ByteReader::u32_at(uint64_t offset) const { return static_cast<uint32_t>(read_uint(offset, 4)); }
uint64_t ByteReader::u64_at(uint64_t offset) const { return read_uint(offset, 8); }

std::string_view ByteReader::bytes_at(uint64_t offset, uint64_t count) const {
  if (!has(offset, count)) truncated_at(offset);
  return data_.substr(offset, count);
}

std::string_view ByteReader::cstring_at(uint64_t offset) const {
  if (offset >= data_.size()) truncated_at(offset);
  size_t end = data_.find('\0', offset);
  if (end == std::string_view::npos) fail_at(offset, "unterminated string in " + label_);
  return data_.substr(offset, end - offset);
}

uint8_t ByteReader::u8() { auto v = u8_at(pos_); pos_ += 1; return v; }
uint16_t ByteReader::u16() { auto v = u16_at(pos_); pos_ += 2; return v; }
uint32_t ByteReader::u32() { auto v = u32_at(pos_); pos_ += 4; return v; }
uint64_t ByteReader::u64() { auto v = u64_at(pos_); pos_ += 8; return v; }

std::string_view ByteReader::bytes(uint64_t count) {
  auto v = bytes_at(pos_, count);
  pos_ += count;
  return v;
}

ByteSource::ByteSource(std::string_view whole) : whole_(whole), size_(whole.size()) {}

ByteSource::ByteSource(uint64_t size, RangeFn read) : size_(size), read_(std::move(read)) {}

ByteReader ByteSource::read(uint64_t offset, uint64_t length, std::string label, Endian endian, uint64_t fetch) {
  // Written so that huge values cannot wrap around.
  if (offset > size_ || length > size_ - offset) {
    throw ParseError("truncated " + label, offset);
  }
  if (!read_) return ByteReader::at_base(whole_.substr(offset, length), offset, endian, std::move(label));
  uint64_t want = std::min(length, fetch);
  if (want > kMaxFetched - std::min(fetched_, kMaxFetched)) {
    throw ReadError(fmt::format("headers not read: {} would take more than {} MiB", label, kMaxFetched >> 20));
  }
  auto got = read_(offset, want);
  if (!got) throw ReadError(got.error().message);
  if (got->size() != want) {
    throw ReadError(fmt::format("{}: read {} of {} bytes at offset 0x{:x} (the file changed?)", label, got->size(), want, offset));
  }
  fetched_ += want;
  chunks_.push_back(std::move(*got));
  return ByteReader::at_base(chunks_.back(), offset, endian, std::move(label));
}

ByteReader ByteSource::tail(uint64_t offset, std::string label, Endian endian, uint64_t fetch) {
  if (offset > size_) throw ParseError("truncated " + label, offset);
  return read(offset, size_ - offset, std::move(label), endian, fetch);
}

std::string ByteSource::cstring(uint64_t region, uint64_t region_size, uint64_t index, const std::string& label) {
  if (index >= region_size) {
    uint64_t abs = index > UINT64_MAX - region ? UINT64_MAX : region + index;
    throw ParseError("truncated " + label, abs);
  }
  uint64_t avail = region_size - index;
  for (uint64_t want = 256;; want *= 8) {
    uint64_t n = std::min(want, avail);
    ByteReader r = read(region + index, n, label, Endian::kLittle, n);
    size_t end = r.data().find('\0');
    if (end != std::string_view::npos) return std::string(r.data().substr(0, end));
    if (n == avail) throw ParseError("unterminated string in " + label, region + index);
  }
}

}  // namespace tfgpu::binfmt
