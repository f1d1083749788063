#pragma once
// Markdown that renders what tfgpu means, and only what it may publish. Commands, paths
// and evidence go in code spans (md_code: the fence is longer than any backtick run in
// the text, so `__import__`, `*/lib/*` and `C:\Users\<user>\` render verbatim); prose is
// backslash-escaped (md_text). Everything is redacted first (Redactor): host names, user
// names (as any path component, so /data/alice too), home folders and GPU UUIDs.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "snapshot/snapshot.h"

namespace tfgpu::report {

struct Redactor {
  std::vector<std::string> users;  // login names: any path component equal to one becomes <user>
  std::vector<std::string> hosts;  // host names: any whole word equal to one becomes <host>

  // `text` without the names above, home folders (/home/NAME, /Users/NAME, C:\Users\NAME,
  // also JSON-escaped) and GPU/MIG UUIDs.
  std::string apply(std::string_view text) const;
  // A home folder (HOME, USERPROFILE): its last component is hidden like a user name
  // (HOME=/data/alice -> /data/<user>).
  void add_home(std::string_view path);
  void add_user(std::string_view name);
  void add_host(std::string_view name);
  // Adds the user names that home paths in `text` reveal (/home/alice/... -> alice).
  void learn_from(std::string_view text);
  // Adds the names a snapshot reveals (every string in it).
  void learn_from(const Snapshot& s);
};

// Every string value of `j` through the redactor (keys kept): `probe --json --redact`.
void redact_json(nlohmann::json& j, const Redactor& r);

// A code span holding `text` verbatim (newlines become spaces, as CommonMark does).
std::string md_code(std::string_view text);
// A fenced code block holding `text` verbatim (the fence is longer than any backtick run).
std::string md_block(std::string_view text);
// Prose: Markdown punctuation escaped so that it renders as written.
std::string md_text(std::string_view text);

}  // namespace tfgpu::report
