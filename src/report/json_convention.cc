#include "report/json_convention.h"

#include "util/strings.h"

namespace tfgpu::report {

namespace {

nlohmann::json step_json(std::string_view text) {
  nlohmann::json step = {{"text", std::string(text)}};
  // Commands are the step's code spans: `pip install "tensorflow[and-cuda]"`.
  nlohmann::json commands = nlohmann::json::array();
  size_t at = 0;
  while (true) {
    size_t open = text.find('`', at);
    if (open == std::string_view::npos) break;
    size_t close = text.find('`', open + 1);
    if (close == std::string_view::npos) break;
    if (close > open + 1) commands.push_back(std::string(text.substr(open + 1, close - open - 1)));
    at = close + 1;
  }
  if (!commands.empty()) step["commands"] = std::move(commands);
  return step;
}

// "owner/repo:path/in/repo@commit"
bool split_repo_ref(std::string_view s, nlohmann::json& out) {
  size_t colon = s.find(':');
  size_t at = s.rfind('@');
  if (colon == std::string_view::npos || at == std::string_view::npos || at < colon) return false;
  std::string_view repo = s.substr(0, colon);
  if (repo.find('/') == std::string_view::npos || repo.find(' ') != std::string_view::npos) return false;
  std::string_view commit = s.substr(at + 1);
  if (commit.size() < 7 || commit.find_first_not_of("0123456789abcdef") != std::string_view::npos) return false;
  out["repo"] = std::string(repo);
  out["path"] = std::string(s.substr(colon + 1, at - colon - 1));
  out["commit"] = std::string(commit);
  return true;
}

}  // namespace

nlohmann::json fix_steps_json(const std::vector<std::string>& fix) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : fix) {
    if (starts_with(s, "  ") && !steps.empty()) {
      steps.back()["steps"].push_back(step_json(trim(s)));
    } else {
      steps.push_back(step_json(trim(s)));
    }
  }
  return steps;
}

nlohmann::json citation_json(std::string_view source) {
  if (!starts_with(source, "kb:")) return nullptr;
  std::string_view rest = trim(source.substr(3));
  nlohmann::json c;
  bool verified = true;
  if (ends_with(rest, "[unverified]")) {
    verified = false;
    rest = trim(rest.substr(0, rest.size() - 12));
  }
  size_t open = rest.find(" (");
  if (open == std::string_view::npos || !ends_with(rest, ")")) {
    c["row"] = std::string(rest);
  } else {
    c["row"] = std::string(rest.substr(0, open));
    std::string_view src = rest.substr(open + 2, rest.size() - open - 3);  // inside the parentheses
    // "URL (owner/repo:path@commit)" or "URL (a note on how it was derived)"
    size_t inner = src.find(" (");
    std::string_view url = inner == std::string_view::npos ? src : src.substr(0, inner);
    if (starts_with(url, "http://") || starts_with(url, "https://")) c["url"] = std::string(url);
    else if (!split_repo_ref(url, c)) c["note"] = std::string(url);
    if (inner != std::string_view::npos && ends_with(src, ")")) {
      std::string_view detail = src.substr(inner + 2, src.size() - inner - 3);
      if (!split_repo_ref(detail, c)) c["note"] = std::string(detail);
    }
  }
  c["verified"] = verified;
  return c;
}

}  // namespace tfgpu::report
