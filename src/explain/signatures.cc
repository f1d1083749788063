// Loader for kb/signatures.toml (toml++; its parse_error becomes a kInput Error here).
#include "explain/signatures.h"

#include <set>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "util/strings.h"
#include "util/toml_guard.h"

namespace tfgpu::explain {

const char* to_string(SignatureKind k) {
  switch (k) {
    case SignatureKind::kCause: return "cause";
    case SignatureKind::kSymptom: return "symptom";
    case SignatureKind::kNoise: return "noise";
    case SignatureKind::kFact: return "fact";
  }
  return "noise";
}

const std::vector<std::string>& FindingInfo::fix_on(std::string_view os) const {
  auto it = fix_for.find(std::string(os));
  if (it != fix_for.end() && !it->second.empty()) return it->second;
  return fix;
}

std::pair<std::string, std::string> FindingInfo::check_on(std::string_view os) const {
  auto it = check_for.find(std::string(os));
  if (it != check_for.end()) return it->second;
  return {check_run, check_means};
}

const FindingInfo* SignatureSet::finding(std::string_view id) const {
  for (const auto& f : findings_)
    if (f.id == id) return &f;
  return nullptr;
}

const Signature* SignatureSet::signature(std::string_view id) const {
  for (const auto& s : signatures_)
    if (s.id == id) return &s;
  return nullptr;
}

namespace {

struct RowError {
  std::string message;
};

std::vector<std::string> strings_of(const toml::table& row, std::string_view key, bool lower = false) {
  std::vector<std::string> out;
  const toml::node* node = row.get(key);
  if (!node) return out;
  if (auto s = node->value<std::string>()) {
    out.push_back(lower ? to_lower(*s) : *s);
    return out;
  }
  const toml::array* arr = node->as_array();
  if (!arr) throw RowError{fmt::format("'{}' must be a string or a list of strings", key)};
  for (const auto& el : *arr) {
    auto s = el.value<std::string>();
    if (!s) throw RowError{fmt::format("'{}' must hold only strings", key)};
    out.push_back(lower ? to_lower(*s) : *s);
  }
  return out;
}

std::string string_of(const toml::table& row, std::string_view key, bool required) {
  const toml::node* node = row.get(key);
  if (!node) {
    if (required) throw RowError{fmt::format("missing '{}'", key)};
    return {};
  }
  auto s = node->value<std::string>();
  if (!s) throw RowError{fmt::format("'{}' must be a string", key)};
  return *s;
}

Severity severity_of(const std::string& text) {
  if (text == "blocker") return Severity::kBlocker;
  if (text == "warning") return Severity::kWarning;
  if (text == "info" || text.empty()) return Severity::kInfo;
  throw RowError{fmt::format("unknown severity '{}' (blocker, warning, info)", text)};
}

Layer layer_of(const std::string& text) {
  if (text == "hardware") return Layer::kHardware;
  if (text == "driver") return Layer::kDriver;
  if (text == "runtime") return Layer::kRuntime;
  if (text == "framework") return Layer::kFramework;
  throw RowError{fmt::format("unknown layer '{}' (hardware, driver, runtime, framework)", text)};
}

SignatureKind kind_of(const std::string& text) {
  if (text == "cause") return SignatureKind::kCause;
  if (text == "symptom") return SignatureKind::kSymptom;
  if (text == "noise") return SignatureKind::kNoise;
  if (text == "fact") return SignatureKind::kFact;
  throw RowError{fmt::format("unknown kind '{}' (cause, symptom, noise, fact)", text)};
}

// "finding_id" or "finding_id:0.3".
FindingLink link_of(const std::string& text, double default_weight) {
  FindingLink link;
  auto colon = text.find(':');
  link.finding = std::string(trim(text.substr(0, colon)));
  link.weight = default_weight;
  if (colon != std::string::npos) {
    try {
      size_t used = 0;
      std::string num(trim(text.substr(colon + 1)));
      link.weight = std::stod(num, &used);
      if (used != num.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw RowError{fmt::format("bad weight in '{}' (want id:0.3)", text)};
    }
  }
  if (link.finding.empty()) throw RowError{fmt::format("empty finding id in '{}'", text)};
  return link;
}

double weight_of(const toml::table& row) {
  const toml::node* node = row.get("weight");
  if (!node) return 0.0;
  if (auto d = node->value<double>()) {
    if (*d < 0.0 || *d > 1.0) throw RowError{"'weight' must be between 0 and 1"};
    return *d;
  }
  throw RowError{"'weight' must be a number"};
}

FindingInfo parse_finding(const toml::table& row) {
  FindingInfo f;
  f.id = string_of(row, "id", true);
  f.layer = layer_of(string_of(row, "layer", true));
  f.severity = severity_of(string_of(row, "severity", true));
  f.title = string_of(row, "title", true);
  f.fix = strings_of(row, "fix");
  if (f.fix.empty()) throw RowError{"missing 'fix'"};
  for (const char* os : {"linux", "windows", "macos"}) {
    auto steps = strings_of(row, std::string("fix_") + os);
    if (!steps.empty()) f.fix_for[os] = std::move(steps);
  }
  auto check_of = [&](const std::string& key) -> std::optional<std::pair<std::string, std::string>> {
    const toml::node* check = row.get(key);
    if (!check) return std::nullopt;
    const toml::table* t = check->as_table();
    if (!t) throw RowError{fmt::format("'{}' must be a table ({{ run = \"...\", means = \"...\" }})", key)};
    return std::pair{string_of(*t, "run", true), string_of(*t, "means", true)};
  };
  if (auto c = check_of("check")) std::tie(f.check_run, f.check_means) = *c;
  for (const char* os : {"linux", "windows", "macos"})
    if (auto c = check_of(std::string("check_") + os)) f.check_for[os] = *c;
  f.source = strings_of(row, "source");
  if (f.source.empty()) throw RowError{"missing 'source'"};
  f.platforms = strings_of(row, "platforms");
  for (const auto& os : f.platforms)
    if (os != "linux" && os != "windows" && os != "macos")
      throw RowError{fmt::format("'platforms' lists '{}' (linux, windows or macos)", os)};
  return f;
}

Signature parse_signature(const toml::table& row) {
  Signature s;
  s.id = string_of(row, "id", true);
  s.kind = kind_of(string_of(row, "kind", true));
  s.finding = string_of(row, "finding", false);
  s.weight = weight_of(row);
  s.severity = severity_of(string_of(row, "severity", false));
  const toml::node* pat = row.get("patterns");
  if (!pat || !pat->as_table()) throw RowError{"missing 'patterns' table ({ all = [...], any = [...] })"};
  const toml::table& p = *pat->as_table();
  s.patterns.all = strings_of(p, "all", true);
  s.patterns.any = strings_of(p, "any", true);
  s.patterns.none = strings_of(p, "none", true);
  for (const auto* list : {&s.patterns.all, &s.patterns.any, &s.patterns.none})
    for (const auto& lit : *list)
      if (lit.empty()) throw RowError{"empty literal in 'patterns'"};
  if (s.patterns.all.empty() && s.patterns.any.empty())
    throw RowError{"'patterns' needs at least one 'all' or 'any' literal"};
  s.meaning = string_of(row, "meaning", true);
  for (const auto& t : strings_of(row, "supports")) s.supports.push_back(link_of(t, 0.3));
  for (const auto& t : strings_of(row, "refutes")) s.refutes.push_back(link_of(t, 1.0));
  if (const toml::node* sets = row.get("sets")) {
    const toml::table* t = sets->as_table();
    if (!t) throw RowError{"'sets' must be a table of strings"};
    for (const auto& [k, v] : *t) {
      auto val = v.value<std::string>();
      if (!val) throw RowError{"'sets' must be a table of strings"};
      s.sets[std::string(k.str())] = *val;
    }
  }
  if (const toml::node* n = row.get("noise_without_gpu")) {
    auto b = n->value<bool>();
    if (!b) throw RowError{"'noise_without_gpu' must be true or false"};
    s.noise_without_gpu = *b;
  }
  s.noise_unless = string_of(row, "noise_unless", false);
  if (!s.noise_unless.empty() && s.kind != SignatureKind::kNoise) throw RowError{"'noise_unless' is for noise only"};
  s.examples = strings_of(row, "examples");
  s.counter_examples = strings_of(row, "counter_examples");
  s.source = strings_of(row, "source");
  if (s.examples.empty()) throw RowError{"missing 'examples'"};
  if (s.source.empty()) throw RowError{"missing 'source'"};
  if ((s.kind == SignatureKind::kCause || s.kind == SignatureKind::kSymptom) && s.finding.empty())
    throw RowError{"a cause or symptom needs 'finding'"};
  return s;
}

}  // namespace

Result<SignatureSet> parse_signatures(std::string_view toml_text, std::string_view file_name) {
  toml::table doc;
  // toml++ 3.3.0 crashes on some shapes of input: checked first (util/toml_guard.h).
  if (auto guarded = guard_toml(toml_text, file_name); !guarded) return fail(guarded.error());
  try {
    doc = toml::parse(toml_text, file_name);
  } catch (const toml::parse_error& e) {
    return fail(Error::input(fmt::format("{}:{}: {}", file_name, e.source().begin.line, e.description())));
  }
  SignatureSet set;
  auto rows = [&](std::string_view key, auto&& each) -> Result<void> {
    const toml::node* node = doc.get(key);
    if (!node) return {};
    const toml::array* arr = node->as_array();
    if (!arr) return fail(Error::input(fmt::format("{}: '{}' must be an array of tables", file_name, key)));
    size_t index = 0;
    for (const auto& el : *arr) {
      ++index;
      const toml::table* row = el.as_table();
      if (!row) return fail(Error::input(fmt::format("{}: {} #{} is not a table", file_name, key, index)));
      try {
        each(*row);
      } catch (const RowError& e) {
        std::string id;
        if (auto v = row->get("id"); v && v->value<std::string>()) id = *v->value<std::string>();
        return fail(Error::input(fmt::format("{}: {} #{}{}: {}", file_name, key, index,
                                             id.empty() ? "" : " (" + id + ")", e.message)));
      }
    }
    return {};
  };
  if (auto r = rows("finding", [&](const toml::table& t) { set.findings_.push_back(parse_finding(t)); }); !r)
    return fail(r.error());
  if (auto r = rows("signature", [&](const toml::table& t) { set.signatures_.push_back(parse_signature(t)); }); !r)
    return fail(r.error());

  std::set<std::string> ids;
  for (const auto& f : set.findings_)
    if (!ids.insert(f.id).second)
      return fail(Error::input(fmt::format("{}: duplicate finding id '{}'", file_name, f.id)));
  std::set<std::string> sig_ids;
  for (const auto& s : set.signatures_) {
    if (!sig_ids.insert(s.id).second)
      return fail(Error::input(fmt::format("{}: duplicate signature id '{}'", file_name, s.id)));
    auto check = [&](const std::string& f) -> Result<void> {
      if (!f.empty() && !ids.count(f))
        return fail(Error::input(fmt::format("{}: signature '{}' names unknown finding '{}'", file_name, s.id, f)));
      return {};
    };
    if (auto r = check(s.finding); !r) return fail(r.error());
    for (const auto& l : s.supports)
      if (auto r = check(l.finding); !r) return fail(r.error());
    for (const auto& l : s.refutes)
      if (auto r = check(l.finding); !r) return fail(r.error());
  }
  if (!set.finding("harmless_warning_only"))
    return fail(Error::input(fmt::format("{}: the finding 'harmless_warning_only' must be defined", file_name)));
  return set;
}

Result<SignatureSet> load_signatures(std::span<const EmbeddedFile> files) {
  for (const auto& f : files)
    if (f.name == "signatures.toml") return parse_signatures(f.text, f.name);
  return fail(Error::not_found("the knowledge base has no signatures.toml"));
}

Result<SignatureSet> load_signatures(const Host& host, const std::string& kb_dir) {
  if (kb_dir.empty()) return load_signatures(embedded_kb_files());
  std::string path = kb_dir;
  if (!path.empty() && path.back() != '/' && path.back() != '\\') path += '/';
  path += "signatures.toml";
  auto text = host.read_file(path, 16u << 20);
  if (!text) return fail(Error::input(fmt::format("cannot read {}: {}", path, text.error().message)));
  return parse_signatures(*text, path);
}

}  // namespace tfgpu::explain
