#include "util/hostlist.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Adds v to a set of disjoint, non-adjacent intervals; false when already in one.
bool insert(std::map<uint64_t, uint64_t>& set, uint64_t v) {
  auto next = set.upper_bound(v);  // first interval starting after v
  if (next != set.begin()) {
    auto prev = std::prev(next);
    if (v <= prev->second) return false;
    if (prev->second + 1 == v) {
      prev->second = v;
      if (next != set.end() && next->first == v + 1) {
        prev->second = next->second;
        set.erase(next);
      }
      return true;
    }
  }
  if (next != set.end() && next->first == v + 1) {
    uint64_t last = next->second;
    set.erase(next);
    set.emplace(v, last);
    return true;
  }
  set.emplace(v, v);
  return true;
}

// Adds the interval [a, b], merging the ones it overlaps or touches.
void insert_range(std::map<uint64_t, uint64_t>& set, uint64_t a, uint64_t b) {
  auto it = set.upper_bound(a);
  if (it != set.begin() && std::prev(it)->second + 1 >= a) --it;
  while (it != set.end() && it->first <= b + 1) {
    a = std::min(a, it->first);
    b = std::max(b, it->second);
    it = set.erase(it);
  }
  set.emplace(a, b);
}

}  // namespace

bool HostlistBuilder::add(const std::string& name) {
  // Slurm ranges only a number at the end of a name: "gpu[01-02].cluster" is not a
  // hostlist Slurm 22.05 expands ("Invalid hostlist"), so "gpu01.cluster" stays whole.
  size_t begin = name.size();
  while (begin > 0 && is_digit(name[begin - 1])) --begin;
  size_t digits = name.size() - begin;
  bool added = false;
  // More than 18 digits does not fit a uint64 range: such a name stays whole too.
  if (digits == 0 || digits > 18) {
    added = plain_.insert(name).second;
  } else {
    bool padded = digits > 1 && name[begin] == '0';
    added = insert(ranges_[Key{name.substr(0, begin), digits, padded}], std::stoull(name.substr(begin)));
  }
  if (added) ++size_;
  return added;
}

std::string HostlistBuilder::str() const {
  // Ranges of one width: zero-padded numbers by their width (Slurm keeps the padding it
  // is given); a number written naturally continues the widest padded class no wider
  // than itself ("100" after "098", "099"), else it is in the natural class (width 0).
  // One bracket per prefix, natural class first, as `scontrol show hostlistsorted`.
  std::map<std::string, std::map<size_t, std::map<uint64_t, uint64_t>>> by_prefix;  // prefix -> width -> ranges
  std::map<std::string, std::set<size_t>> padded_widths;
  for (const auto& [key, set] : ranges_) {
    const auto& [prefix, len, padded] = key;
    if (padded) padded_widths[prefix].insert(len);
  }
  for (const auto& [key, set] : ranges_) {
    const auto& [prefix, len, padded] = key;
    size_t width = padded ? len : 0;
    if (!padded) {
      if (auto it = padded_widths.find(prefix); it != padded_widths.end()) {
        auto w = it->second.upper_bound(len);
        if (w != it->second.begin()) width = *std::prev(w);
      }
    }
    auto& into = by_prefix[prefix][width];
    for (const auto& [a, b] : set) insert_range(into, a, b);
  }
  std::vector<std::pair<std::string, std::string>> parts;  // (sort key, text)
  for (const auto& n : plain_) parts.emplace_back(n, n);
  for (const auto& [prefix, widths] : by_prefix) {
    std::vector<std::string> ranges;
    size_t count = 0;
    for (const auto& [width, set] : widths) {
      auto num = [w = width](uint64_t v) { return fmt::format("{:0{}}", v, w); };
      for (const auto& [a, b] : set) {
        ranges.push_back(a == b ? num(a) : num(a) + "-" + num(b));
        count += a == b ? 1 : 2;
      }
    }
    parts.emplace_back(prefix, count == 1 ? prefix + ranges[0] : prefix + "[" + join(ranges, ",") + "]");
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += ",";
    out += p.second;
  }
  return out;
}

std::string compress_hostlist(const std::vector<std::string>& names) {
  HostlistBuilder b;
  for (const auto& n : names) b.add(n);
  return b.str();
}

}  // namespace tfgpu
