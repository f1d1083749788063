#pragma once
// Snapshot <-> JSON (the `tfgpu probe --json` format, docs/snapshot.md).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "snapshot/snapshot.h"
#include "util/error.h"

namespace tfgpu {

nlohmann::json snapshot_to_json(const Snapshot& s);
// Strict about types and the schema version, lenient about absent fields (they
// take their defaults). Malformed input is an Error naming the problem, never a crash.
Result<Snapshot> snapshot_from_json(const nlohmann::json& j);
Result<Snapshot> parse_snapshot(std::string_view text, std::string_view origin_name = "snapshot");

// JSON from outside (a snapshot, a prediction) nested deeper than this is refused before
// it is parsed: real snapshots nest about 8 levels, and checks walk the tree recursively.
inline constexpr size_t kMaxJsonDepth = 128;
// The deepest nesting of [ and { in `text` (outside strings); stops counting past `limit`.
size_t json_nesting_depth(std::string_view text, size_t limit = kMaxJsonDepth + 1);

const char* to_string(ProbeStatus s);
const char* to_string(Tri t);

}  // namespace tfgpu
