#include "snapshot/snapshot_json.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/json_text.h"
#include "util/text_encoding.h"

namespace tfgpu {

NLOHMANN_JSON_SERIALIZE_ENUM(ProbeStatus, {{ProbeStatus::kNotProbed, "not_probed"},
                                           {ProbeStatus::kOk, "ok"},
                                           {ProbeStatus::kAbsent, "absent"},
                                           {ProbeStatus::kUnsupported, "unsupported"},
                                           {ProbeStatus::kFailed, "failed"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Tri, {{Tri::kUnknown, "unknown"}, {Tri::kNo, "no"}, {Tri::kYes, "yes"}})

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ProbeState, status, reason, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CpuInfo, vendor, model, avx, avx2, avx512f, fma, bmi1, bmi2, lzcnt,
                                                movbe, popcnt, avx512cd, avx512er, avx512pf, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostInfo, os, distro, kernel, arch, glibc_version, wsl2, container, cpu,
                                                state, hostname)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuInfo, index, name, pci_id, pci_bus_id, compute_capability,
                                                memory_total_bytes, memory_free_bytes, uuid, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LoadAttempt, library, tried, errors, opened, init_result)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DriverInfo, state, version, cuda_version, kernel_module_version,
                                                device_count, attempts)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ElfInfo, bits, machine, soname, needed, rpath, runpath, symbols)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PeInfo, bits, machine, imports, file_version, product_version)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LibraryFile, path, name, component, version, version_source, format,
                                                elf, pe, symlink_target, origin, error, headers)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CudaInstall, root, version, version_source, kind, package, lib_dirs)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CudnnInstall, root, version, version_source, kind, package, cuda_major,
                                                lib_dirs)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LdCacheEntry, name, path, arch)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LoaderInfo, ld_so_conf_dirs, ld_cache, ld_cache_state, default_dirs,
                                                system_dir, windows_dir, known_dlls, safe_dll_search_mode,
                                                dir_links)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PythonPackage, name, version, location, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TensorflowInstall, package, version, location, build_info,
                                                build_info_state, dlopen_caller, dlopen_caller_source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PythonEnv, executable, prefix, version, bits, kind, name, active,
                                                site_packages, packages, packages_state, tensorflow, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SearchDirInfo, path, world_writable, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Snapshot, schema_version, tool_version, created_at, origin, host,
                                                gpu_state, gpus, driver, env, runtime_state, cuda, cudnn, libraries,
                                                loader, python_state, pythons, notes, search_dirs)

const char* to_string(ProbeStatus s) {
  switch (s) {
    case ProbeStatus::kNotProbed:
      return "not_probed";
    case ProbeStatus::kOk:
      return "ok";
    case ProbeStatus::kAbsent:
      return "absent";
    case ProbeStatus::kUnsupported:
      return "unsupported";
    case ProbeStatus::kFailed:
      return "failed";
  }
  return "unknown";
}

const char* to_string(Tri t) {
  switch (t) {
    case Tri::kYes:
      return "yes";
    case Tri::kNo:
      return "no";
    case Tri::kUnknown:
      break;
  }
  return "unknown";
}

nlohmann::json snapshot_to_json(const Snapshot& s) { return nlohmann::json(s); }

namespace {
// Enum strings we do not know map silently to the first value in nlohmann; reject them.
Result<void> check_enums(const nlohmann::json& j, const std::string& path) {
  static const std::vector<std::string> kStatus = {"not_probed", "ok", "absent", "unsupported", "failed"};
  static const std::vector<std::string> kTri = {"unknown", "no", "yes"};
  static const std::vector<std::string> kTriKeys = {"avx",    "avx2",   "avx512f",  "fma",      "bmi1",
                                                     "bmi2",   "lzcnt",  "movbe",    "popcnt",   "avx512cd",
                                                     "avx512er", "avx512pf", "wsl2", "world_writable"};
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      std::string here = path + "." + k;
      if (k == "status" && v.is_string() &&
          std::find(kStatus.begin(), kStatus.end(), v.get<std::string>()) == kStatus.end()) {
        return fail(Error::input(fmt::format("{}: unknown status '{}'", here, v.get<std::string>())));
      }
      if (std::find(kTriKeys.begin(), kTriKeys.end(), k) != kTriKeys.end() && v.is_string() &&
          std::find(kTri.begin(), kTri.end(), v.get<std::string>()) == kTri.end()) {
        return fail(Error::input(fmt::format("{}: expected yes/no/unknown, got '{}'", here, v.get<std::string>())));
      }
      if (auto r = check_enums(v, here); !r) return r;
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      if (auto r = check_enums(j[i], fmt::format("{}[{}]", path, i)); !r) return r;
    }
  }
  return {};
}
}  // namespace

Result<Snapshot> snapshot_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return fail(Error::input("snapshot: expected a JSON object at the top level"));
  if (j.contains("invalid_utf8")) {
    // Strings that were not UTF-8 (paths are bytes): their exact bytes back in place.
    nlohmann::json restored = j;
    restore_invalid_utf8(restored);
    return snapshot_from_json(restored);
  }
  auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer()) {
    return fail(Error::input("snapshot: missing integer 'schema_version' (is this a `tfgpu probe --json` file?)"));
  }
  // Compared as the number it is: 4294967297 is not 1 (get<int>() would wrap it).
  bool supported = version->is_number_unsigned()
                       ? version->get<uint64_t>() == static_cast<uint64_t>(kSnapshotSchemaVersion)
                       : version->get<int64_t>() == static_cast<int64_t>(kSnapshotSchemaVersion);
  if (!supported) {
    return fail(Error::input(fmt::format("snapshot: schema_version {} is not supported (this tfgpu reads {})",
                                         version->dump(), kSnapshotSchemaVersion)));
  }
  if (auto r = check_enums(j, "$"); !r) return fail(r.error());
  try {
    return j.get<Snapshot>();
  } catch (const nlohmann::json::exception& e) {
    // e.what() is like "[json.exception.type_error.302] type must be string, but is number"
    std::string what = e.what();
    size_t close = what.find("] ");
    return fail(Error::input(fmt::format("snapshot: {}", close == std::string::npos ? what : what.substr(close + 2))));
  }
}

size_t json_nesting_depth(std::string_view text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest >= limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Result<Snapshot> parse_snapshot(std::string_view raw, std::string_view origin_name) {
  // Windows PowerShell 5.1's `probe --json > FILE` writes UTF-16 LE with a BOM.
  std::string decoded;
  std::string_view text = raw;
  if (detect_bom(raw) != TextEncoding::kPlain) text = decoded = decode_text(raw);
  if (json_nesting_depth(text) > kMaxJsonDepth)
    return fail(Error::input(fmt::format("{}: JSON nested deeper than {} levels: not a snapshot", origin_name, kMaxJsonDepth)));
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail(Error::input(fmt::format("{}: not valid JSON", origin_name)));
  auto s = snapshot_from_json(j);
  if (!s) return fail(Error::input(fmt::format("{}: {}", origin_name, s.error().message)));
  return s;
}

}  // namespace tfgpu
