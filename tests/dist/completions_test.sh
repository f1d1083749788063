#!/usr/bin/env bash
# The generated bash completion parses (bash -n) and completes like a shell would: COMP_WORDS
# set as readline does, the completion function called, COMPREPLY checked. zsh/fish/PowerShell
# scripts are checked for every visible subcommand (and zsh/fish syntax where installed).
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" __completions bash >"$tmp/tfgpu.bash"
bash -n "$tmp/tfgpu.bash"
fail=0
complete_words() {  # words of the line, the last being completed
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _tfgpu
    printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/tfgpu.bash" "$@"
}
expect() {  # expected reply (space-joined) for the words
  local want=$1; shift
  local got
  got=$(complete_words "$@" | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$want" ]; then echo "ok: tfgpu ${*:2}<TAB> -> $got"; else echo "FAIL: tfgpu ${*:2}<TAB> -> '$got', want '$want'"; fail=1; fi
}
expect "doctor" tfgpu "do"
expect "plan probe" tfgpu p
expect "--snapshot" tfgpu doctor --sn
expect "--json" tfgpu doctor --js
expect "always auto never" tfgpu --color ""
expect "--gpu" tfgpu matrix --gp
# After a flag (no value), the next word is a command again, not a file.
expect "doctor" tfgpu --json "do"
# The hidden internal commands are not offered.
expect "" tfgpu __
# Every visible command of `tfgpu --help` is offered at the first word.
cmds=$("$bin" --help | awk '/^Subcommands:/{s=1; next} s && /^  [a-z]/{print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$cmds" ] || { echo "FAIL: no subcommands in tfgpu --help"; fail=1; }
got=$(complete_words tfgpu "" | grep -v '^-' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" = "$cmds" ]; then echo "ok: every subcommand offered: $got"; else echo "FAIL: offered '$got', --help lists '$cmds'"; fail=1; fi
for shell in zsh fish powershell; do
  "$bin" __completions $shell >"$tmp/c.$shell"
  for c in $cmds; do grep -q "$c" "$tmp/c.$shell" || { echo "FAIL: $shell completion lacks $c"; fail=1; }; done
done
if command -v zsh >/dev/null; then zsh -n "$tmp/c.zsh" && echo "ok: zsh -n"; fi
if command -v fish >/dev/null; then
  fish -n "$tmp/c.fish" && echo "ok: fish -n"
  got=$(fish -c "source $tmp/c.fish; complete -C 'tfgpu do'; complete -C 'tfgpu doctor --sn'" | cut -f1 | tr '\n' ' ')
  if [ "$got" = "doctor --snapshot " ]; then echo "ok: fish completes: $got"; else echo "FAIL: fish completes '$got'"; fail=1; fi
fi
if "$bin" __completions tcsh >/dev/null 2>"$tmp/err"; then echo "FAIL: unknown shell accepted"; fail=1
else echo "ok: unknown shell: $(cat "$tmp/err")"; fi
exit $fail
