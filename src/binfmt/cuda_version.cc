#include "binfmt/cuda_version.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "util/strings.h"

namespace tfgpu::binfmt {
namespace {

bool is_version_text(std::string_view v) {
  if (v.empty() || v.size() > 64) return false;
  for (char c : v)
    if (!((c >= '0' && c <= '9') || c == '.')) return false;
  return v.front() != '.' && v.back() != '.';
}

}  // namespace

Result<CudaVersionJson> parse_cuda_version_json(std::string_view text, std::string_view name) {
  // {"cuda": {"name": "CUDA SDK", "version": "12.2.2"}, "cuda_cudart": {..., "version": "12.2.140"}, ...}
  nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return fail(Error::input_in(name, "not valid JSON"));
  if (!doc.is_object()) return fail(Error::input_in(name, "version.json is not a JSON object"));
  CudaVersionJson out;
  for (const auto& [key, entry] : doc.items()) {
    if (!entry.is_object()) continue;
    auto it = entry.find("version");
    if (it == entry.end() || !it->is_string()) continue;
    out.components[key] = it->get<std::string>();
  }
  auto cuda = out.components.find("cuda");
  if (cuda == out.components.end()) return fail(Error::input_in(name, "no \"cuda\" version in version.json"));
  if (!is_version_text(cuda->second))
    return fail(Error::input_in(name, fmt::format("malformed CUDA version '{}'", cuda->second)));
  out.version = cuda->second;
  return out;
}

Result<std::string> parse_cuda_version_txt(std::string_view text, std::string_view name) {
  // CUDA <= 11.0: a single line "CUDA Version 10.2.89".
  for (const std::string& raw : split(text, '\n')) {
    std::string_view line = trim(raw);
    if (!line.starts_with("CUDA Version")) continue;
    std::string_view v = trim(line.substr(12));
    if (!is_version_text(v)) return fail(Error::input_in(name, fmt::format("malformed CUDA version '{}'", v)));
    return std::string(v);
  }
  return fail(Error::input_in(name, "no 'CUDA Version' line"));
}

Result<std::string> parse_cudnn_version_header(std::string_view text, std::string_view name) {
  std::optional<std::string> major, minor, patch;
  for (const std::string& raw : split(text, '\n')) {
    std::string_view line = trim(raw);
    if (!line.starts_with("#")) continue;
    line = trim(line.substr(1));
    if (!line.starts_with("define")) continue;
    line = line.substr(6);
    if (line.empty() || (line[0] != ' ' && line[0] != '\t')) continue;
    line = trim(line);
    size_t sp = line.find_first_of(" \t");
    if (sp == std::string_view::npos) continue;
    std::string_view macro = line.substr(0, sp);
    std::string_view value = trim(line.substr(sp));
    value = value.substr(0, value.find("//"));
    value = trim(value.substr(0, value.find("/*")));
    std::optional<std::string>* slot = macro == "CUDNN_MAJOR"        ? &major
                                       : macro == "CUDNN_MINOR"      ? &minor
                                       : macro == "CUDNN_PATCHLEVEL" ? &patch
                                                                     : nullptr;
    if (!slot || slot->has_value()) continue;
    bool digits = !value.empty() && value.size() <= 9 &&
                  value.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) return fail(Error::input_in(name, fmt::format("{} is not a number: '{}'", macro, value)));
    // "09" would read as 9 in the preprocessor's eyes only if decimal; strip zeros the
    // same way so "9.01.0" never appears.
    size_t nz = value.find_first_not_of('0');
    *slot = nz == std::string_view::npos ? std::string("0") : std::string(value.substr(nz));
  }
  if (!major) {
    std::string what = "no CUDNN_MAJOR define";
    return fail(Error::not_found(name.empty() ? what : fmt::format("{}: {}", name, what)));
  }
  if (!minor) return fail(Error::input_in(name, "CUDNN_MAJOR without CUDNN_MINOR"));
  return fmt::format("{}.{}.{}", *major, *minor, patch ? *patch : "0");
}

}  // namespace tfgpu::binfmt
