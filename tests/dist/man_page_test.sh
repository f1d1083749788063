#!/usr/bin/env bash
# The generated man page renders without a single groff warning, and documents every
# visible subcommand and every option of `tfgpu --help`.
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" __man >"$tmp/tfgpu.1"
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$tmp/tfgpu.1" 2>"$tmp/warnings"
if [ -s "$tmp/warnings" ]; then echo "FAIL: groff warnings:"; cat "$tmp/warnings"; exit 1; fi
# ASCII rendering (C locale): option names keep their plain hyphens for grep.
LC_ALL=C MANWIDTH=100 man -l "$tmp/tfgpu.1" 2>"$tmp/man-err" | col -b >"$tmp/rendered"
LC_ALL=C groff -man -Tascii -ww -z "$tmp/tfgpu.1" 2>>"$tmp/man-err"
[ -s "$tmp/man-err" ] && { echo "FAIL: man -l:"; cat "$tmp/man-err"; exit 1; }
fail=0
cmds=$("$bin" --help | awk '/^Subcommands:/{s=1; next} s && /^  [a-z]/{print $1}')
[ -n "$cmds" ] || { echo "FAIL: no subcommands in tfgpu --help"; exit 1; }
for c in $cmds; do
  grep -q "^ *tfgpu $c\$" "$tmp/rendered" || { echo "FAIL: no section for $c"; fail=1; }
  for o in $("$bin" "$c" --help | grep -oE '^ +--[a-z][a-z-]*' | tr -d ' '); do
    grep -q -- "$o" "$tmp/rendered" || { echo "FAIL: $c $o not in the man page"; fail=1; }
  done
done
grep -q '__probe-driver\|__man' "$tmp/rendered" && { echo "FAIL: internal commands documented"; fail=1; }
echo "rendered $(wc -l <"$tmp/rendered") lines; commands: $(tr '\n' ' ' <<<"$cmds")"
exit $fail
