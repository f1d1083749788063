#include "report/markdown.h"

#include <algorithm>
#include <regex>

#include "snapshot/snapshot_json.h"

namespace tfgpu::report {

namespace {

bool is_name_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' ||
         c == '.' || static_cast<unsigned char>(c) >= 0x80;
}

bool is_path_separator(char c) { return c == '/' || c == '\\'; }

// A name worth hiding: long enough not to hit every short word ("a", "tf").
bool usable_name(std::string_view n) {
  if (n.size() < 2 || n == "<user>" || n == "<host>") return false;
  return std::any_of(n.begin(), n.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

void add_unique(std::vector<std::string>& v, std::string_view name) {
  if (!usable_name(name)) return;
  if (std::find(v.begin(), v.end(), name) == v.end()) v.emplace_back(name);
}

// Replaces each occurrence of `name` that `whole` accepts (given the byte before it, or
// -1 at the start, and whether a name character follows) with `with`.
template <typename Whole>
std::string replace_where(const std::string& text, const std::string& name, std::string_view with, Whole whole) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t hit = text.find(name, pos);
    if (hit == std::string::npos) break;
    size_t end = hit + name.size();
    int prev = hit == 0 ? -1 : static_cast<unsigned char>(text[hit - 1]);
    bool after = end == text.size() || !is_name_char(text[end]);
    if (whole(prev) && after) {
      out.append(text, pos, hit - pos);
      out += with;
    } else {
      out.append(text, pos, end - pos);
    }
    pos = end;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

// `name` as a whole path component (after a separator, before a non-name character):
// /data/alice/x, C:\alice; "~alice" stays.
std::string replace_component(const std::string& text, const std::string& name, std::string_view with) {
  return replace_where(text, name, with, [](int prev) { return prev >= 0 && is_path_separator(static_cast<char>(prev)); });
}

// `name` as a whole word (host names: alice-laptop, gpu01.lab).
std::string replace_word(const std::string& text, const std::string& name, std::string_view with) {
  return replace_where(text, name, with, [](int prev) { return prev < 0 || !is_name_char(static_cast<char>(prev)); });
}

// Home folders: /home/NAME, /Users/NAME, C:\Users\NAME (also C:/Users and JSON-escaped
// C:\\Users\\). Windows user names may hold spaces ("Bob Smith"): taken up to the next
// separator.
const std::regex& win_home() {
  static const std::regex r(R"(([A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))([^/\\"'`:;,()<>\[\]|\r\n]+?)(?=\\|/))",
                            std::regex::icase);
  return r;
}
const std::regex& any_home() {
  static const std::regex r(R"((/home/|/Users/|[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))([^/\\\s"'`:;,()<>\[\]|]+))",
                            std::regex::icase);
  return r;
}

void walk_strings(const nlohmann::json& j, std::string& all) {
  if (j.is_string()) {
    all += j.get_ref<const std::string&>();
    all += '\n';
  } else if (j.is_structured()) {
    for (const auto& v : j) walk_strings(v, all);
  }
}

}  // namespace

std::string Redactor::apply(std::string_view text) const {
  std::string out(text);
  out = std::regex_replace(out, win_home(), "$1<user>");
  out = std::regex_replace(out, any_home(), "$1<user>");
  for (const auto& u : users) out = replace_component(out, u, "<user>");
  for (const auto& h : hosts) out = replace_word(out, h, "<host>");
  static const std::regex kUuid(R"(\b(GPU|MIG)-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b)");
  out = std::regex_replace(out, kUuid, "$1-<redacted>");
  return out;
}

void Redactor::add_home(std::string_view path) {
  while (!path.empty() && is_path_separator(path.back())) path.remove_suffix(1);
  size_t cut = path.find_last_of("/\\");
  if (cut != std::string_view::npos) add_unique(users, path.substr(cut + 1));
}

void Redactor::add_user(std::string_view name) { add_unique(users, name); }

void Redactor::add_host(std::string_view name) {
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' ')) name.remove_suffix(1);
  if (name == "localhost") return;
  add_unique(hosts, name);
  // The short name of a fully qualified one (gpu01.lab.example.com -> gpu01).
  if (auto dot = name.find('.'); dot != std::string_view::npos) add_unique(hosts, name.substr(0, dot));
}

void Redactor::learn_from(std::string_view text) {
  std::string t(text);
  for (const std::regex* r : {&win_home(), &any_home()})
    for (auto it = std::sregex_iterator(t.begin(), t.end(), *r); it != std::sregex_iterator(); ++it)
      add_unique(users, (*it)[2].str());
}

void Redactor::learn_from(const Snapshot& s) {
  std::string all;
  walk_strings(snapshot_to_json(s), all);
  learn_from(all);
}

void redact_json(nlohmann::json& j, const Redactor& r) {
  if (j.is_string()) {
    j = r.apply(j.get_ref<const std::string&>());
  } else if (j.is_structured()) {
    for (auto& v : j) redact_json(v, r);
  }
}

std::string md_code(std::string_view text) {
  std::string body(text);
  for (auto& c : body)
    if (c == '\n' || c == '\r') c = ' ';
  size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  // CommonMark strips one space from each end when both are there; pad when the text
  // starts or ends with a backtick (or a space) so that it is kept as is.
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`' || body.front() == ' ' || body.back() == ' ');
  if (pad) body = " " + body + " ";
  return fence + body + fence;
}

std::string md_block(std::string_view text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string body(text);
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "\n" + body + fence + "\n";
}

std::string md_text(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '<':
      case '>':
      case '|':
      case '~':
      case '&':
      case '!':
      case '#':
        out += '\\';
        out += c;
        break;
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace tfgpu::report
