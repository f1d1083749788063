#!/usr/bin/env bash
# The portable binary needs nothing newer than GLIBC_2.17 (manylinux2014), links its C++
# runtime in (no libstdc++ / libgcc_s NEEDED), and runs: --version, and doctor --json
# (exit 0 or 1: a verdict, with or without blockers; 2/3 or a signal fail).
set -euo pipefail
bin=$1
[ -x "$bin" ] || { echo "FAIL: $bin missing (scripts/build-portable.sh)"; exit 1; }
versions=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV)
[ -n "$versions" ] || { echo "FAIL: objdump -T shows no GLIBC_ symbol version: not a dynamic glibc binary?"; exit 1; }
newest=$(tail -n1 <<<"$versions")
echo "GLIBC symbol versions needed: $(tr '\n' ' ' <<<"$versions")"
echo "newest: $newest"
if [ "$(printf '%s\n' GLIBC_2.17 "$newest" | sort -V | tail -n1)" != GLIBC_2.17 ]; then
  echo "FAIL: $newest > GLIBC_2.17"
  objdump -T "$bin" | grep -E "GLIBC_2\.(1[89]|[2-9][0-9])" | head -20
  exit 1
fi
needed=$(objdump -p "$bin" | awk '$1 == "NEEDED" {print $2}')
echo "NEEDED: $(tr '\n' ' ' <<<"$needed")"
if grep -qE 'libstdc\+\+|libgcc_s|libc\+\+' <<<"$needed"; then
  echo "FAIL: the C++ runtime is not linked in"; exit 1
fi
grep -qx 'libdl.so.2\|libc.so.6' <<<"$needed" || { echo "FAIL: no libc/libdl NEEDED: static? (dlopen needs glibc)"; exit 1; }
python3 "$(dirname "$0")/../../scripts/wheels.py" check-elf "$bin"

v=$("$bin" --version)
echo "--version: $v"
[[ "$v" =~ ^tfgpu\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "FAIL: --version printed '$v'"; exit 1; }
set +e
"$bin" doctor --json >"${TMPDIR:-/tmp}/portable-doctor.$$.json" 2>"${TMPDIR:-/tmp}/portable-doctor.$$.err"
rc=$?
set -e
echo "doctor --json: exit $rc"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("doctor --json keys:", ", ".join(sorted(d)[:8]))' \
  "${TMPDIR:-/tmp}/portable-doctor.$$.json"
rm -f "${TMPDIR:-/tmp}/portable-doctor.$$.json" "${TMPDIR:-/tmp}/portable-doctor.$$.err"
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || { echo "FAIL: doctor --json exited $rc"; exit 1; }
echo "PASS"
