#pragma once
// The knowledge base files (kb/*.toml) compiled into the binary by
// cmake/embed_kb.cmake; `--kb DIR` reads the same files from disk instead.

#include <span>
#include <string_view>

namespace tfgpu {

struct EmbeddedFile {
  std::string_view name;  // file name, e.g. "tensorflow.toml"
  std::string_view text;  // whole file contents
};

std::span<const EmbeddedFile> embedded_kb_files();

}  // namespace tfgpu
