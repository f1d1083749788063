#pragma once
// Path text helpers for the probes ('/' and, on Windows hosts, '\\' separators);
// pure string work, no file system access.

#include <string>
#include <string_view>

namespace tfgpu::python {

std::string path_join(std::string_view dir, std::string_view name);
std::string path_dirname(std::string_view path);   // "/a/b/c" -> "/a/b"; "c" -> ""
std::string path_basename(std::string_view path);  // "/a/b/c" -> "c"
// Removes a trailing separator (except for the root) and "/./" pieces.
std::string path_clean(std::string_view path);

}  // namespace tfgpu::python
