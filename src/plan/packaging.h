#pragma once
// Packaging facts for `tfgpu plan` (kb/packaging.toml): which Docker image, conda
// packages, CUDA installer file and Windows PATH entries install a version set. The
// release facts come from the main knowledge base (kb/kb.h); this table only says how
// to install them, each row with its sources.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/host.h"
#include "kb/embedded.h"
#include "util/error.h"
#include "util/version.h"

namespace tfgpu::plan {

struct PackagingSource {
  std::vector<std::string> source;  // ids of kb/sources.toml or literal URLs
  bool verified = true;
};

struct DockerImage {
  VersionRange tf;
  std::string image;  // "tensorflow/tensorflow"
  std::string tag;    // "{version}-gpu"
  std::string note;
  PackagingSource prov;
};

struct CondaCuda {
  Platform platform = Platform::kWindows;
  Version cuda;   // "11.2"
  Version cudnn;  // "8.1"
  std::string channel;
  std::vector<std::string> packages;  // "cudatoolkit=11.2"
  std::string note;
  PackagingSource prov;
};

struct CudaInstaller {
  Version cuda;
  Platform platform = Platform::kWindows;
  std::string file;
  std::string sha256;  // "" = not known
  PackagingSource prov;
};

struct WindowsPath {
  VersionRange tf;
  std::vector<std::string> entries;  // with {cuda_root} / {cudnn_root}
  std::string cuda_root;             // with {cuda}
  std::string cudnn_root;
  std::string note;
  PackagingSource prov;
};

// A tensorflow[and-cuda] pin pip cannot install for some Pythons.
struct AndCudaGap {
  VersionRange tf;
  std::vector<Version> python;  // major.minor
  std::string wheel;
  std::string note;
  PackagingSource prov;
};

class Packaging {
 public:
  std::span<const DockerImage> docker() const { return docker_; }
  std::span<const CondaCuda> conda() const { return conda_; }
  std::span<const CudaInstaller> installers() const { return installers_; }
  std::span<const WindowsPath> windows_paths() const { return windows_paths_; }
  std::span<const AndCudaGap> and_cuda_gaps() const { return gaps_; }

  const DockerImage* docker_for(const Version& tf) const;
  // Conda packages for exactly this CUDA major.minor and cuDNN major.minor.
  const CondaCuda* conda_for(Platform p, const Version& cuda, const Version& cudnn) const;
  const CudaInstaller* installer_for(Platform p, const Version& cuda) const;
  const WindowsPath* windows_path_for(const Version& tf) const;
  const AndCudaGap* and_cuda_gap(const Version& tf, const Version& python) const;

 private:
  friend Result<Packaging> parse_packaging(std::string_view text, std::string_view name);
  std::vector<DockerImage> docker_;
  std::vector<CondaCuda> conda_;
  std::vector<CudaInstaller> installers_;
  std::vector<WindowsPath> windows_paths_;
  std::vector<AndCudaGap> gaps_;
};

inline constexpr std::string_view kPackagingFile = "packaging.toml";

// Parses kb/packaging.toml text. Malformed TOML or a row missing a field: kInput naming
// the file, line and row.
Result<Packaging> parse_packaging(std::string_view text, std::string_view name = kPackagingFile);
// The packaging table for a command: DIR/packaging.toml when `--kb DIR` has one, else
// the embedded copy.
Result<Packaging> load_packaging(const Host& host, const std::string& kb_dir);
Result<Packaging> load_packaging(std::span<const EmbeddedFile> files);

}  // namespace tfgpu::plan
