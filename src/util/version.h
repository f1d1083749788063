#pragma once
// Dotted version numbers ("2.10", "11.8", "522.06", "8.9.7") and inclusive ranges
// of them, as used throughout the knowledge base and the probes.

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace tfgpu {

// A version of up to four numeric components. Missing components compare as 0
// except through `matches_prefix`, which treats "11" as covering "11.8.0".
class Version {
 public:
  Version() = default;
  explicit Version(std::vector<int> parts) : parts_(std::move(parts)) {}

  // Accepts "2", "2.10", "2.10.1", "522.06", "v11.8"; trailing pre-release or build
  // text ("2.16.0rc1", "12.5.1+cuda") is dropped. Rejects empty or non-numeric input.
  static Result<Version> parse(std::string_view text);

  int major() const { return component(0); }
  int minor() const { return component(1); }
  int patch() const { return component(2); }
  int component(size_t i) const { return i < parts_.size() ? parts_[i] : 0; }
  size_t size() const { return parts_.size(); }
  bool empty() const { return parts_.empty(); }
  const std::vector<int>& parts() const { return parts_; }

  // "2.10" style, with as many components as were parsed.
  std::string str() const;
  // Only the first n components ("11.8.0".truncated(2) == "11.8").
  Version truncated(size_t n) const;
  // True when every component of `prefix` equals ours ("11" covers "11.8").
  bool matches_prefix(const Version& prefix) const;

  std::strong_ordering operator<=>(const Version& other) const;
  bool operator==(const Version& other) const { return (*this <=> other) == 0; }

 private:
  std::vector<int> parts_;
};

// Inclusive range [lo, hi]; an absent bound is open. Text forms: "3.7-3.10",
// "3.7–3.10", ">=3.9", "<=2.10", "3.12", "*". Bounds are compared by prefix, so
// "3.7-3.10" contains "3.10.12".
// PEP 440 comparison clauses, comma-separated ("<2", ">=1.23.5,<2.0.0", "!=4.21.0"): true
// when `v` meets every clause with <, <=, >, >= or !=. A clause it cannot read is ignored.
bool satisfies_specifier(const Version& v, std::string_view specifier);

class VersionRange {
 public:
  VersionRange() = default;
  VersionRange(std::optional<Version> lo, std::optional<Version> hi)
      : lo_(std::move(lo)), hi_(std::move(hi)) {}

  static Result<VersionRange> parse(std::string_view text);

  bool contains(const Version& v) const;
  const std::optional<Version>& lo() const { return lo_; }
  const std::optional<Version>& hi() const { return hi_; }
  std::string str() const;
  bool operator==(const VersionRange&) const = default;

 private:
  std::optional<Version> lo_;
  std::optional<Version> hi_;
};

}  // namespace tfgpu
