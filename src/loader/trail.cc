#include "loader/trail.h"

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::loader {

const char* to_string(Why why) {
  switch (why) {
    case Why::kChosen: return "chosen";
    case Why::kAlreadyLoaded: return "already_loaded";
    case Why::kKnownDll: return "known_dll";
    case Why::kAbsent: return "absent";
    case Why::kOtherVersion: return "other_version";
    case Why::kWrongClass: return "wrong_class";
    case Why::kWrongMachine: return "wrong_machine";
    case Why::kUnreadable: return "unreadable";
    case Why::kInvalid: return "invalid";
    case Why::kNotInCache: return "not_in_cache";
    case Why::kUnknown: return "unknown";
  }
  return "unknown";
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::kFound: return "found";
    case Outcome::kNotFound: return "not_found";
    case Outcome::kFailed: return "failed";
    case Outcome::kUnknown: return "unknown";
  }
  return "unknown";
}

std::vector<std::string> LoadResult::newly_loaded() const {
  std::vector<std::string> out;
  auto chosen = [](const Resolution& r) {
    return r.outcome == Outcome::kFound && !r.trail.empty() && r.trail.back().why == Why::kChosen;
  };
  if (chosen(root)) out.push_back(root.path);
  for (const auto& d : closure)
    if (chosen(d.resolution)) out.push_back(d.resolution.path);
  return out;
}

std::string render_trail(const Resolution& r) {
  std::string out = fmt::format("{}: {}", r.name, to_string(r.outcome));
  if (!r.path.empty()) out += fmt::format(" -> {}", r.path);
  if (!r.error.empty()) out += fmt::format(" ({})", r.error);
  out += '\n';
  for (const auto& s : r.trail) {
    out += fmt::format("  {:<28} {:<48} {}", s.source, s.path.empty() ? s.dir : s.path, to_string(s.why));
    if (!s.detail.empty()) out += fmt::format(" ({})", s.detail);
    out += '\n';
  }
  return out;
}

HeaderState header_state(const LibraryFile& f) {
  if (f.headers == "read") return HeaderState::kRead;
  if (f.headers == "invalid") return HeaderState::kInvalid;
  if (f.headers == "unreadable") return HeaderState::kUnreadable;
  if (f.headers == "unknown") return HeaderState::kUnknown;
  // Older snapshots: a quick probe wrote "headers not read: N MiB file ..." for big
  // files (nothing was learnt: unknown), "permission denied" / "unreadable ..." when
  // open() failed, and any other error after a real parse.
  std::string e = to_lower(f.error);
  // format "unknown" without an error: not read at all (a symlink's own record).
  if (e.empty()) return f.format == "unknown" ? HeaderState::kUnknown : HeaderState::kRead;
  if (e.find("headers not read") != std::string::npos) return HeaderState::kUnknown;
  if (e.find("permission denied") != std::string::npos || e.find("access is denied") != std::string::npos ||
      starts_with(e, "unreadable"))
    return HeaderState::kUnreadable;
  return HeaderState::kInvalid;
}

}  // namespace tfgpu::loader
