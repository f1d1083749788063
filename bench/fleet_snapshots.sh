#!/usr/bin/env bash
# Benchmark (not a test): `tfgpu fleet` over N generated snapshots (default 10,000), next
# to `cat` reading the same files in the same run (the peer: the bytes, nothing
# diagnosed). Prints snapshots/s of both, the time ratio fleet / cat, and fleet's peak
# RSS (/usr/bin/time -v) at N/10 and at N snapshots: flat memory means the two are close.
#
#   bench/fleet_snapshots.sh [TFGPU_BINARY] [N]
#
# The snapshots are tests/scenarios/linux_pip_and_cuda_good.json (a probe-format
# snapshot) as N nodes gpu00001..: every 10th block of 100 nodes has driver 470.57.02
# (too old for its TF 2.15: a blocker), one node has another 550 driver (an outlier).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
tfgpu=${1:-$here/build/release/tfgpu}
n=${2:-10000}
[[ -x $tfgpu ]] || { echo "no tfgpu binary at $tfgpu (build it: cmake --build --preset release)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to generate the snapshots" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time (Debian package time) is needed for the peak RSS" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
small=$(( n / 10 ))
mkdir -p "$work/all" "$work/small"

python3 - "$here/tests/scenarios/linux_pip_and_cuda_good.json" "$work" "$n" "$small" <<'PY'
import json, os, sys
src, work, n, small = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = json.load(open(src))
for i in range(1, n + 1):
    s = base
    s["host"]["hostname"] = f"gpu{i:05}"
    s["driver"]["version"], s["driver"]["cuda_version"] = "550.54.14", "12.4"
    if (i - 1) // 100 % 10 == 9:
        s["driver"]["version"], s["driver"]["cuda_version"] = "470.57.02", "11.4"
    elif i == 4242:
        s["driver"]["version"] = "550.90.07"
    text = json.dumps(s, indent=2)
    path = os.path.join(work, "all", f"gpu{i:05}.json")
    with open(path, "w") as f:
        f.write(text + "\n")
    if i <= small:
        os.link(path, os.path.join(work, "small", f"gpu{i:05}.json"))
PY
bytes=$(du -sb "$work/all" | cut -f1)

# Page cache warm for both: one unmeasured read first.
find "$work/all" -name '*.json' -exec cat {} + >/dev/null

now_ns() { date +%s%N; }
t0=$(now_ns)
find "$work/all" -name '*.json' -exec cat {} + >/dev/null
t1=$(now_ns)
cat_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')

# fleet exits 1 (there are blockers); the time is what counts.
run_fleet() {  # DIR LABEL -> prints wall seconds, peak RSS (KB), CPU seconds (user + system)
  local t0 t1 rc=0
  t0=$(now_ns)
  /usr/bin/time -v -o "$work/time.$2" "$tfgpu" fleet "$1" --json >"$work/out.$2" 2>"$work/err.$2" || rc=$?
  t1=$(now_ns)
  [[ $rc -le 1 ]] || { echo "tfgpu fleet failed ($rc):" >&2; cat "$work/err.$2" >&2; exit 3; }
  local rss cpu
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.$2")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$work/time.$2")
  awk -v a="$t0" -v b="$t1" -v r="$rss" -v c="$cpu" 'BEGIN { printf "%.3f %d %.2f\n", (b - a) / 1e9, r, c }'
}
read -r small_s small_rss small_cpu < <(run_fleet "$work/small" small)
read -r all_s all_rss all_cpu < <(run_fleet "$work/all" all)

python3 - "$work/out.all" "$n" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert j["nodes"] == n, f"fleet read {j['nodes']} of {n} snapshots"
print(f"fleet report: {j['nodes']} nodes, {len(j['configurations'])} configurations, "
      f"states {j['states']}, {len(j['skipped'])} skipped")
for c in j["configurations"]:
    print(f"  {c['nodes']:>6} {c['worst']:<8} {c['hostlist'][:70]}")
PY

awk -v n="$n" -v small="$small" -v bytes="$bytes" -v cat_s="$cat_s" -v all_s="$all_s" -v small_s="$small_s" \
    -v all_rss="$all_rss" -v small_rss="$small_rss" -v all_cpu="$all_cpu" 'BEGIN {
  printf "snapshots: %d (%.1f MB)\n", n, bytes / 1048576
  printf "cat:            %8.3f s  %10.0f snapshots/s  %8.1f MB/s\n", cat_s, n / cat_s, bytes / 1048576 / cat_s
  printf "tfgpu fleet:    %8.3f s  %10.0f snapshots/s  %8.1f MB/s\n", all_s, n / all_s, bytes / 1048576 / all_s
  printf "tfgpu fleet CPU: %8.2f s  %10.0f snapshots per CPU second (wall time counts waits on a busy machine)\n", all_cpu, n / all_cpu
  printf "ratio fleet / cat (time): %.1f\n", all_s / cat_s
  printf "peak RSS: %.1f MB at %d snapshots, %.1f MB at %d snapshots (ratio %.2f)\n",
         small_rss / 1024, small, all_rss / 1024, n, all_rss / small_rss
}'
