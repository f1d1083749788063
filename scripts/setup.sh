#!/usr/bin/env bash
# Installs, from Debian 12's packages, everything tfgpu needs to build and test.
# Idempotent: asks apt only for what is missing. Usage: scripts/setup.sh [--windows]
#   --windows  also the mingw-w64 cross compiler and wine (Windows build and tests)
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config ccache
          libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev
          googletest libgtest-dev libgmock-dev libbenchmark-dev
          shellcheck python3 python3-venv file
          cmark      # CommonMark reference renderer: the Markdown output test renders with it
          prometheus # promtool: `probe --prometheus` output is checked with `promtool check metrics`
          slurm-wlm munge  # a real single-node Slurm for the fleet recipe's test (tests/real/slurm_fleet.sh)
          binutils groff-base man-db bsdextrautils python3-yaml zsh fish)  # dist tests: objdump, man -l, col, conda recipe, completions
for arg in "$@"; do
  case "$arg" in
    --windows) packages+=(g++-mingw-w64-x86-64-posix wine64 wine) ;;  # never the win32-thread variant
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all build dependencies are installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
echo "setup.sh: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
