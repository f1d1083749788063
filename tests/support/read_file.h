#pragma once
// A whole file's bytes (empty when it cannot be opened): what the tests compare goldens and
// written files with.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tfgpu::testing {

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace tfgpu::testing
