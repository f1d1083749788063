#include "report/trail_render.h"

#include <fmt/format.h>

#include "rules/runtime_loads.h"

namespace tfgpu {

namespace {

std::string line(size_t index, const TrailStep& s) {
  std::string out = fmt::format("{}. {}: {}{}", index + 1, rules::step_place(s), s.path.empty() ? "" : s.path + ", ",
                                s.why);
  if (!s.detail.empty()) out += fmt::format(" ({})", s.detail);
  return out;
}

}  // namespace

std::vector<std::string> short_trail(const std::vector<TrailStep>& trail, size_t keep) {
  std::vector<std::string> out;
  if (keep < 2) keep = 2;
  if (trail.size() <= keep + 1) {
    for (size_t i = 0; i < trail.size(); ++i) out.push_back(line(i, trail[i]));
    return out;
  }
  for (size_t i = 0; i + 1 < keep; ++i) out.push_back(line(i, trail[i]));
  out.push_back(fmt::format("… {} more", trail.size() - keep));
  out.push_back(line(trail.size() - 1, trail.back()));
  return out;
}

}  // namespace tfgpu
