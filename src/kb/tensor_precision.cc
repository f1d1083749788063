#include "kb/tensor_precision.h"

#include <fmt/format.h>
#include <toml++/toml.h>

namespace tfgpu::kb {

namespace {

std::optional<std::string> text_of(const toml::table& row, std::string_view key) {
  if (auto v = row.get(key); v && v->value<std::string>()) return *v->value<std::string>();
  return std::nullopt;
}

}  // namespace

Result<std::vector<TensorPrecision>> parse_tensor_precisions(std::string_view toml_text, std::string_view file_name) {
  toml::table doc;
  try {
    doc = toml::parse(toml_text, file_name);
  } catch (const toml::parse_error& e) {
    return fail(Error::input(fmt::format("{}:{}: {}", file_name, e.source().begin.line, e.description())));
  }
  std::vector<TensorPrecision> out;
  const toml::node* node = doc.get("tensor_precision");
  if (!node) return out;
  const toml::array* arr = node->as_array();
  if (!arr) return fail(Error::input(fmt::format("{}: 'tensor_precision' must be an array of tables", file_name)));
  size_t index = 0;
  for (const auto& el : *arr) {
    ++index;
    auto bad = [&](const std::string& what) {
      return Error::input(fmt::format("{}: tensor_precision #{}: {}", file_name, index, what));
    };
    const toml::table* row = el.as_table();
    if (!row) return fail(bad("not a table"));
    TensorPrecision t;
    auto name = text_of(*row, "precision");
    if (!name || name->empty()) return fail(bad("'precision' is missing"));
    t.precision = *name;
    auto cc_text = text_of(*row, "min_cc");
    if (!cc_text) return fail(bad("'min_cc' is missing"));
    auto cc = ComputeCapability::parse(*cc_text);
    if (!cc) return fail(bad(fmt::format("'min_cc' '{}' is not a compute capability", *cc_text)));
    t.min_cc = *cc;
    t.note = text_of(*row, "note").value_or("");
    if (const toml::array* src = row->get_as<toml::array>("source")) {
      for (const auto& s : *src)
        if (auto v = s.value<std::string>()) t.prov.source.push_back(*v);
    }
    if (t.prov.source.empty()) return fail(bad("'source' is missing"));
    if (auto v = row->get("verified"); v && v->value<bool>()) t.prov.verified = *v->value<bool>();
    out.push_back(std::move(t));
  }
  return out;
}

Result<std::vector<TensorPrecision>> load_tensor_precisions(std::span<const EmbeddedFile> files) {
  for (const auto& f : files)
    if (f.name == "gpus.toml") return parse_tensor_precisions(f.text, f.name);
  return fail(Error::not_found("the knowledge base has no gpus.toml"));
}

Result<std::vector<TensorPrecision>> load_tensor_precisions(const Host& host, const std::string& kb_dir) {
  if (kb_dir.empty()) return load_tensor_precisions(embedded_kb_files());
  std::string path = kb_dir;
  if (path.back() != '/' && path.back() != '\\') path += '/';
  path += "gpus.toml";
  auto text = host.read_file(path, 16u << 20);
  if (!text) return fail(Error::input(fmt::format("cannot read {}: {}", path, text.error().message)));
  return parse_tensor_precisions(*text, path);
}

const TensorPrecision* find_tensor_precision(std::span<const TensorPrecision> rows, std::string_view precision) {
  for (const auto& r : rows)
    if (r.precision == precision) return &r;
  return nullptr;
}

}  // namespace tfgpu::kb
