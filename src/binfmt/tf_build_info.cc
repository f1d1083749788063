#include "binfmt/tf_build_info.h"

#include <fmt/format.h>

#include "binfmt/py_literal.h"

namespace tfgpu::binfmt {

Result<std::map<std::string, std::string>> parse_tf_build_info(std::string_view text, std::string_view name) {
  auto module = parse_py_assignments(text, name);
  if (!module) return fail(module.error());
  std::map<std::string, std::string> out;
  const PyValue* dict = nullptr;
  // TF <= 2.2 wrote one module attribute per key (cuda_version_number = '10.1', ...);
  // every literal assignment other than build_info itself is such a key. Dunder names
  // (__all__, __doc__) are Python plumbing, not build facts.
  for (const PyAssignment& a : *module) {
    if (a.name == "build_info" && a.value.kind == PyValue::Kind::kDict) {
      dict = &a.value;
      continue;
    }
    if (a.name.starts_with("__")) continue;
    out[a.name] = a.value.to_display();
  }
  if (dict) {
    for (const auto& [k, v] : dict->entries) out[k.to_display()] = v.to_display();
  } else if (out.empty()) {
    std::string what = "no build_info dict and no build settings in build_info.py";
    return fail(Error::input(name.empty() ? what : fmt::format("{}: {}", name, what)));
  }
  return out;
}

}  // namespace tfgpu::binfmt
