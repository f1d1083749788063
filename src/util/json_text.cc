#include "util/json_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tfgpu {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF).
size_t utf8_sequence(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

std::string hex(std::string_view s) {
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s) out += fmt::format("{:02x}", c);
  return out;
}

bool unhex(std::string_view h, std::string* out) {
  if (h.size() % 2) return false;
  out->clear();
  for (size_t i = 0; i < h.size(); i += 2) {
    auto v = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    int a = v(h[i]), b = v(h[i + 1]);
    if (a < 0 || b < 0) return false;
    out->push_back(static_cast<char>(a * 16 + b));
  }
  return true;
}

std::string pointer_token(const std::string& key) {
  std::string t;
  for (char c : key) {
    if (c == '~') t += "~0";
    else if (c == '/') t += "~1";
    else t += c;
  }
  return t;
}

void walk(nlohmann::json& j, const std::string& pointer, nlohmann::json& log) {
  if (j.is_string()) {
    std::string fixed;
    if (!to_valid_utf8(j.get_ref<const std::string&>(), &fixed)) {
      log.push_back({{"pointer", pointer}, {"hex", hex(j.get_ref<const std::string&>())}});
      j = fixed;
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) walk(j[i], pointer + "/" + std::to_string(i), log);
  } else if (j.is_object()) {
    std::vector<std::string> bad_keys;
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string fixed;
      if (!to_valid_utf8(it.key(), &fixed)) bad_keys.push_back(it.key());
    }
    for (const auto& key : bad_keys) {
      std::string fixed;
      to_valid_utf8(key, &fixed);
      // Two keys that differ only in invalid bytes would collide: keep them apart.
      std::string unique = fixed;
      for (int n = 2; j.contains(unique); ++n) unique = fixed + "~" + std::to_string(n);
      j[unique] = std::move(j[key]);
      j.erase(key);
      log.push_back({{"key_of", pointer + "/" + pointer_token(unique)}, {"hex", hex(key)}});
    }
    for (auto it = j.begin(); it != j.end(); ++it) walk(it.value(), pointer + "/" + pointer_token(it.key()), log);
  }
}

}  // namespace

bool to_valid_utf8(std::string_view text, std::string* out) {
  bool valid = true;
  out->clear();
  out->reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_sequence(text, i);
    if (n == 0) {
      *out += "\xEF\xBF\xBD";  // U+FFFD
      valid = false;
      ++i;
    } else {
      out->append(text.substr(i, n));
      i += n;
    }
  }
  return valid;
}

void make_json_utf8(nlohmann::json& j) {
  nlohmann::json log = nlohmann::json::array();
  walk(j, "", log);
  if (!log.empty() && j.is_object()) j["invalid_utf8"] = std::move(log);
}

std::string dump_json(nlohmann::json j, int indent) {
  make_json_utf8(j);
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void restore_invalid_utf8(nlohmann::json& j) {
  if (!j.is_object()) return;
  auto it = j.find("invalid_utf8");
  if (it == j.end()) return;
  nlohmann::json log = std::move(*it);
  j.erase("invalid_utf8");
  if (!log.is_array()) return;
  // Values first (their pointers name the keys as written), then keys, deepest first.
  for (const auto& e : log) {
    if (!e.is_object() || !e.contains("pointer") || !e["pointer"].is_string() || !e.contains("hex") || !e["hex"].is_string())
      continue;
    std::string bytes;
    if (!unhex(e["hex"].get<std::string>(), &bytes)) continue;
    try {
      nlohmann::json::json_pointer p(e["pointer"].get<std::string>());
      if (j.contains(p) && j[p].is_string()) j[p] = bytes;
    } catch (const nlohmann::json::exception&) {
    }
  }
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& e : log) {
    if (!e.is_object() || !e.contains("key_of") || !e["key_of"].is_string() || !e.contains("hex") || !e["hex"].is_string())
      continue;
    std::string bytes;
    if (unhex(e["hex"].get<std::string>(), &bytes)) keys.emplace_back(e["key_of"].get<std::string>(), bytes);
  }
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return std::count(a.first.begin(), a.first.end(), '/') > std::count(b.first.begin(), b.first.end(), '/');
  });
  for (const auto& [pointer, bytes] : keys) {
    try {
      nlohmann::json::json_pointer p(pointer);
      if (!j.contains(p) || p.empty()) continue;
      nlohmann::json& parent = j[p.parent_pointer()];
      if (!parent.is_object()) continue;
      std::string key = p.back();
      nlohmann::json v = std::move(parent[key]);
      parent.erase(key);
      parent[bytes] = std::move(v);
    } catch (const nlohmann::json::exception&) {
    }
  }
}

}  // namespace tfgpu
