#pragma once
// Small string helpers used everywhere (no locale, ASCII case folding only).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfgpu {

std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
bool icontains(std::string_view haystack, std::string_view needle);
std::vector<std::string> split(std::string_view s, char sep);
// Splits and drops empty pieces (PATH-style lists).
std::vector<std::string> split_nonempty(std::string_view s, char sep);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b);

// A human size: 12884901888 -> "12.0 GiB".
std::string gib(uint64_t bytes);

}  // namespace tfgpu
