#pragma once
// Python packaging metadata read as text, never by running Python: dist-info METADATA /
// egg-info PKG-INFO (core metadata, RFC 822 style headers) and a venv's pyvenv.cfg.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu::binfmt {

struct DistMetadata {
  std::string name;                       // as written: "Tensorflow_CPU"
  std::string normalized_name;            // PEP 503: "tensorflow-cpu"
  std::string version;                    // "2.15.0"
  std::string metadata_version;           // "2.1"
  std::string requires_python;            // ">=3.9" ("" when absent)
  std::vector<std::string> requires_dist; // each value verbatim, in order
};

// Parses METADATA / PKG-INFO. Only the header block is read (the body after the first
// blank line is the description). Continuation lines (leading whitespace) are folded.
// Errors: kInput "NAME: no Name field in metadata" (also when Version is missing).
Result<DistMetadata> parse_dist_metadata(std::string_view text, std::string_view name = {});

// PEP 503: lower case, runs of '-', '_', '.' become one '-'.
std::string normalize_dist_name(std::string_view name);

struct PyvenvCfg {
  std::string home;     // dir of the base interpreter
  std::string version;  // "version" or "version_info" ("3.11.2"; uv writes version_info)
  Tri include_system_site_packages = Tri::kUnknown;
  std::string executable;  // newer venvs write it ("" when absent)
  std::string command;     // "python -m venv ..." when present
  std::map<std::string, std::string> values;  // every key (lower-cased, trimmed) -> value
};

// Parses pyvenv.cfg the way CPython's site.py does: "key = value" lines, other lines
// ignored, keys lower-cased. Errors: kInput "NAME: no 'home' key in pyvenv.cfg" (every
// venv tool writes it; without it the file is not a usable venv config), or NUL bytes.
Result<PyvenvCfg> parse_pyvenv_cfg(std::string_view text, std::string_view name = {});

}  // namespace tfgpu::binfmt
