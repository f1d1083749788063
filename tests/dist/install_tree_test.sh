#!/usr/bin/env bash
# `cmake --install` puts the binary, the man page and the four completions in place.
set -euo pipefail
build=$1 prefix=$2
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" --strip >/dev/null
fail=0
for f in bin/tfgpu share/man/man1/tfgpu.1 share/bash-completion/completions/tfgpu \
         share/zsh/site-functions/_tfgpu share/fish/vendor_completions.d/tfgpu.fish \
         share/tfgpu/completions/tfgpu.ps1; do
  if [ -s "$prefix/$f" ]; then echo "ok: $f"; else echo "FAIL: $f not installed"; fail=1; fi
done
"$prefix/bin/tfgpu" --version
exit $fail
