#include "support/binfmt_fixtures.h"

#include <cstdlib>
#include <random>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "host/host.h"

namespace tfgpu::test {

ScratchDir::ScratchDir() {
  // Portable mkdtemp: create_directory fails when the name exists, so retry with
  // another random suffix (Windows has no mkdtemp).
  std::filesystem::path base = std::filesystem::temp_directory_path();
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::filesystem::path p = base / ("tfgpu-binfmt-" + std::to_string(rd()));
    std::error_code ec;
    if (std::filesystem::create_directory(p, ec)) {
      path_ = p.string();
      return;
    }
  }
  throw std::runtime_error("cannot create a scratch directory under " + base.string());
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string ScratchDir::write(const std::string& name, const std::string& contents) const {
  std::string p = file(name);
  std::filesystem::create_directories(std::filesystem::path(p).parent_path());
  std::ofstream out(p, std::ios::binary);
  out << contents;
  return p;
}

std::string read_binary_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string build_shared_library(const ScratchDir& dir, const std::string& file_name,
                                 const std::vector<std::string>& flags, std::string* error,
                                 const std::vector<std::string>& link_with, const std::string& source) {
  std::string src = dir.write(file_name + ".c",
                              source.empty() ? "int " + std::string("tfgpu_fixture_fn") + "(void) { return 42; }\n" : source);
  std::string out = dir.file(file_name);
  ProcessSpec spec;
  spec.argv = {"gcc", "-shared", "-fPIC", "-o", out, src};
  for (const auto& f : flags) spec.argv.push_back(f);
  for (const auto& l : link_with) spec.argv.push_back(l);
  spec.timeout = std::chrono::milliseconds(60000);
  auto host = make_system_host();
  auto r = host->run(spec);
  if (!r) {
    *error = "gcc: " + r.error().message;
    return "";
  }
  if (!r->exited || r->exit_code != 0) {
    *error = "gcc " + r->describe() + ": " + r->err;
    return "";
  }
  return out;
}

}  // namespace tfgpu::test
