#include "util/version.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu {

Result<Version> Version::parse(std::string_view text) {
  std::string_view s = trim(text);
  if (!s.empty() && (s.front() == 'v' || s.front() == 'V')) s.remove_prefix(1);
  std::vector<int> parts;
  size_t i = 0;
  while (i < s.size() && parts.size() < 4) {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start) break;
    if (i - start > 9) return fail(Error::input(fmt::format("version '{}' has a component that is too long", text)));
    int value = 0;
    std::from_chars(s.data() + start, s.data() + i, value);
    parts.push_back(value);
    if (i < s.size() && s[i] == '.' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') {
      ++i;
      continue;
    }
    break;
  }
  if (parts.empty()) return fail(Error::input(fmt::format("'{}' is not a version number", text)));
  // Anything after the numbers must look like a suffix (rc1, .dev, +build, -beta),
  // not more digits or a second version glued on.
  if (i < s.size()) {
    char c = s[i];
    bool suffix = c == '+' || c == '-' || c == '.' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!suffix) return fail(Error::input(fmt::format("'{}' is not a version number", text)));
  }
  return Version(std::move(parts));
}

std::string Version::str() const {
  std::string out;
  for (size_t i = 0; i < parts_.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(parts_[i]);
  }
  return out;
}

Version Version::truncated(size_t n) const {
  std::vector<int> p(parts_.begin(), parts_.begin() + std::min(n, parts_.size()));
  return Version(std::move(p));
}

bool Version::matches_prefix(const Version& prefix) const {
  if (prefix.parts_.size() > parts_.size()) return false;
  return std::equal(prefix.parts_.begin(), prefix.parts_.end(), parts_.begin());
}

std::strong_ordering Version::operator<=>(const Version& other) const {
  size_t n = std::max(parts_.size(), other.parts_.size());
  for (size_t i = 0; i < n; ++i) {
    if (auto c = component(i) <=> other.component(i); c != 0) return c;
  }
  return std::strong_ordering::equal;
}

bool satisfies_specifier(const Version& v, std::string_view specifier) {
  bool ok = true;
  for (const auto& clause : split(specifier, ',')) {
    std::string c(trim(clause));
    size_t n = c.find_first_not_of("<>=!");
    if (n == std::string::npos || n == 0) continue;
    std::string op = c.substr(0, n);
    auto bound = Version::parse(c.substr(n));
    if (!bound) continue;
    if (op == "<") ok = ok && v < *bound;
    else if (op == "<=") ok = ok && !(*bound < v);
    else if (op == ">") ok = ok && *bound < v;
    else if (op == ">=") ok = ok && !(v < *bound);
    else if (op == "!=") ok = ok && !(v == *bound);
  }
  return ok;
}

Result<VersionRange> VersionRange::parse(std::string_view text) {
  std::string_view s = trim(text);
  if (s.empty()) return fail(Error::input("empty version range"));
  if (s == "*") return VersionRange{};
  auto bound = [&](std::string_view b) -> Result<Version> { return Version::parse(b); };
  if (starts_with(s, ">=")) {
    auto lo = bound(s.substr(2));
    if (!lo) return fail(lo.error());
    return VersionRange(*lo, std::nullopt);
  }
  if (starts_with(s, "<=")) {
    auto hi = bound(s.substr(2));
    if (!hi) return fail(hi.error());
    return VersionRange(std::nullopt, *hi);
  }
  // "a-b" or "a–b" (en dash, as the docs write it).
  size_t dash = s.find("\xE2\x80\x93");
  size_t dash_len = 3;
  if (dash == std::string_view::npos) {
    dash = s.find('-');
    dash_len = 1;
  }
  if (dash != std::string_view::npos) {
    auto lo = bound(s.substr(0, dash));
    auto hi = bound(s.substr(dash + dash_len));
    if (!lo) return fail(lo.error());
    if (!hi) return fail(hi.error());
    if (*hi < *lo) return fail(Error::input(fmt::format("version range '{}' ends before it starts", text)));
    return VersionRange(*lo, *hi);
  }
  auto one = bound(s);
  if (!one) return fail(one.error());
  return VersionRange(*one, *one);
}

bool VersionRange::contains(const Version& v) const {
  if (lo_ && v < *lo_ && !v.matches_prefix(*lo_)) return false;
  if (hi_ && v > *hi_ && !v.matches_prefix(*hi_)) return false;
  return true;
}

std::string VersionRange::str() const {
  if (!lo_ && !hi_) return "*";
  if (lo_ && !hi_) return ">=" + lo_->str();
  if (!lo_ && hi_) return "<=" + hi_->str();
  if (*lo_ == *hi_) return lo_->str();
  return lo_->str() + "-" + hi_->str();
}

}  // namespace tfgpu
