#include "binfmt/python_metadata.h"

#include "util/strings.h"

namespace tfgpu::binfmt {

std::string normalize_dist_name(std::string_view name) {
  // PEP 503: re.sub(r"[-_.]+", "-", name).lower()
  std::string out;
  bool in_run = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (!in_run) out += '-';
      in_run = true;
      continue;
    }
    in_run = false;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

Result<DistMetadata> parse_dist_metadata(std::string_view text, std::string_view name) {
  if (text.find('\0') != std::string_view::npos) return fail(Error::input_in(name, "metadata contains NUL bytes"));
  DistMetadata md;
  // Core metadata is an RFC 822 header block (email.parser): "Key: value" lines,
  // continuation lines start with whitespace, the first empty line ends the headers.
  std::string key, value;
  auto flush = [&] {
    if (key.empty()) return;
    std::string k = to_lower(key);
    std::string v(trim(value));
    if (k == "name" && md.name.empty()) md.name = v;
    else if (k == "version" && md.version.empty()) md.version = v;
    else if (k == "metadata-version") md.metadata_version = v;
    else if (k == "requires-python") md.requires_python = v;
    else if (k == "requires-dist") md.requires_dist.push_back(v);
    key.clear();
    value.clear();
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view line = text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? text.size() + 1 : eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trim(line).empty()) break;  // end of the header block
    if (line[0] == ' ' || line[0] == '\t') {
      if (!key.empty()) value += " " + std::string(trim(line));
      continue;
    }
    flush();
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;  // email.parser tolerates junk
    key = std::string(trim(line.substr(0, colon)));
    value = std::string(line.substr(colon + 1));
  }
  flush();
  if (md.name.empty()) return fail(Error::input_in(name, "no Name field in metadata"));
  if (md.version.empty()) return fail(Error::input_in(name, "no Version field in metadata"));
  md.normalized_name = normalize_dist_name(md.name);
  return md;
}

Result<PyvenvCfg> parse_pyvenv_cfg(std::string_view text, std::string_view name) {
  if (text.find('\0') != std::string_view::npos) return fail(Error::input_in(name, "pyvenv.cfg contains NUL bytes"));
  PyvenvCfg cfg;
  // CPython Lib/site.py venv(): lines with '=' are key = value (key lower-cased, both
  // stripped); other lines are ignored. getpath reads the same file for `home`.
  for (const std::string& raw : split(text, '\n')) {
    std::string_view line = trim(raw);
    if (line.starts_with("#")) continue;
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key = to_lower(trim(line.substr(0, eq)));
    std::string value(trim(line.substr(eq + 1)));
    if (key.empty()) continue;
    cfg.values[key] = value;
  }
  auto get = [&](const char* k) {
    auto it = cfg.values.find(k);
    return it == cfg.values.end() ? std::string() : it->second;
  };
  cfg.home = get("home");
  cfg.version = get("version");
  if (cfg.version.empty()) cfg.version = get("version_info");
  cfg.executable = get("executable");
  cfg.command = get("command");
  if (cfg.values.contains("include-system-site-packages")) {
    // site.py: system site-packages are used only when the value is "true" (any case).
    cfg.include_system_site_packages = to_lower(get("include-system-site-packages")) == "true" ? Tri::kYes : Tri::kNo;
  }
  if (cfg.home.empty()) return fail(Error::input_in(name, "no 'home' key in pyvenv.cfg"));
  return cfg;
}

}  // namespace tfgpu::binfmt
