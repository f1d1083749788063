#!/usr/bin/env bash
# setup.sh: written by tfgpu plan (tfgpu 0.1.0) from tfgpu.lock.toml.
# TensorFlow 2.16.1 + CUDA 12.3 + cuDNN 8.9 + Python 3.12 on Linux (install method: pip-and-cuda)
# GPU: GeForce GTX 960 (compute 5.2, kernels: native)
# Needs: NVIDIA driver (linux numbering) >= 525.60.13, 545.23.06 or newer for every feature of CUDA 12.3
# Idempotent: a second run changes nothing. It never installs an NVIDIA driver
# (in WSL2 the driver comes from the Windows host and must not be installed inside).
# Options: TFGPU_VENV_DIR=DIR to choose the virtual environment (default below).
set -euo pipefail

TF_VERSION='2.16.1'
PYTHON_VERSION='3.12'
METHOD='pip-and-cuda'
TARGET='native'
CUDA_VERSION='12.3'
CUDNN_VERSION='8.9'
DRIVER_MIN='525.60.13'
CUDA_ROOT=''
VENV_DIR="${TFGPU_VENV_DIR:-$HOME/.venvs/tf-2.16}"
REQUIREMENTS=(
  'tensorflow[and-cuda]==2.16.1'
  'numpy<2'
)
# Libraries TensorFlow 2.16.1 loads from a system CUDA / cuDNN (method system-cuda).
CUDA_LIBRARIES=(
  'libcudart.so.12'
  'libcublas.so.12'
  'libcublasLt.so.12'
  'libcufft.so.11'
  'libcusolver.so.11'
  'libcusparse.so.12'
  'libcudnn.so.8'
)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf 'tfgpu-setup: %s\n' "$*"; }
warn() { printf 'tfgpu-setup: warning: %s\n' "$*" >&2; }
die() { printf 'tfgpu-setup: error: %s\n' "$*" >&2; exit 1; }

# version_ge A B: A >= B in version order.
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }

check_driver() {
  if [ "$TARGET" = wsl2 ] && [ ! -e /usr/lib/wsl/lib/libcuda.so.1 ]; then
    warn "/usr/lib/wsl/lib/libcuda.so.1 is missing: install or update the NVIDIA driver on the Windows host (>= $DRIVER_MIN), never inside WSL2"
  fi
  local drv=''
  if command -v nvidia-smi >/dev/null 2>&1; then
    drv="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')" || drv=''
  fi
  if [ -z "$drv" ]; then
    warn "cannot read the NVIDIA driver version (nvidia-smi): it must be >= $DRIVER_MIN"
  elif version_ge "$drv" "$DRIVER_MIN"; then
    log "driver $drv >= $DRIVER_MIN"
  else
    if [ "$TARGET" = wsl2 ]; then
      warn "driver $drv is older than $DRIVER_MIN: update it first, on the Windows host"
    else
      warn "driver $drv is older than $DRIVER_MIN: update it first"
    fi
  fi
}

find_python() {
  local cand v
  for cand in "python$PYTHON_VERSION" python3 python; do
    command -v "$cand" >/dev/null 2>&1 || continue
    v="$("$cand" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" || continue
    if [ "$v" = "$PYTHON_VERSION" ]; then
      command -v "$cand"
      return 0
    fi
  done
  return 1
}

ensure_venv() {
  if [ -x "$VENV_DIR/bin/python" ]; then
    log "virtual environment $VENV_DIR exists"
    return 0
  fi
  local py
  py="$(find_python)" || die "Python $PYTHON_VERSION not found: install it (pyenv, deadsnakes or conda) and run again"
  log "creating the virtual environment $VENV_DIR with $py"
  mkdir -p "$(dirname "$VENV_DIR")"
  "$py" -m venv "$VENV_DIR"
}

installed_version() {
  "$VENV_DIR/bin/python" -m pip show "$1" 2>/dev/null | sed -n 's/^Version: //p'
}

ensure_requirements() {
  local line name want todo=()
  for line in "${REQUIREMENTS[@]}"; do
    name="${line%%==*}"
    name="${name%%\[*}"
    want="${line##*==}"
    if [ "$(installed_version "$name")" != "$want" ]; then
      todo+=("$line")
    fi
  done
  if [ "${#todo[@]}" -eq 0 ]; then
    log "every pinned package is installed at its version"
    return 0
  fi
  log "installing: ${todo[*]}"
  "$VENV_DIR/bin/python" -m pip install "${todo[@]}"
}

have_library() {
  local name="$1" dir
  if command -v ldconfig >/dev/null 2>&1 &&
    ldconfig -p 2>/dev/null | awk -v n="$name" '$1 == n { found = 1 } END { exit !found }'; then
    return 0
  fi
  local -a dirs=()
  IFS=: read -r -a dirs <<<"${LD_LIBRARY_PATH:-}"
  for dir in "${dirs[@]}" "${CUDA_ROOT:+$CUDA_ROOT/lib64}"; do
    if [ -n "$dir" ] && [ -e "$dir/$name" ]; then
      return 0
    fi
  done
  return 1
}

check_system_cuda() {
  [ "$METHOD" = system-cuda ] || return 0
  local lib missing=()
  for lib in "${CUDA_LIBRARIES[@]}"; do
    have_library "$lib" || missing+=("$lib")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    log "CUDA $CUDA_VERSION and cuDNN $CUDNN_VERSION libraries are on the loader path"
    return 0
  fi
  warn "not found on the loader path: ${missing[*]}"
  if [ "$TARGET" = wsl2 ]; then
    warn "install the CUDA $CUDA_VERSION toolkit from NVIDIA's wsl-ubuntu repository (the cuda-toolkit package only, never cuda or cuda-drivers) and cuDNN $CUDNN_VERSION"
  else
    warn "install the CUDA $CUDA_VERSION toolkit and cuDNN $CUDNN_VERSION, then add their lib directories to LD_LIBRARY_PATH or ld.so.conf"
  fi
}

main() {
  log "TensorFlow $TF_VERSION, Python $PYTHON_VERSION, CUDA $CUDA_VERSION, cuDNN $CUDNN_VERSION ($METHOD, $TARGET)"
  check_driver
  ensure_venv
  ensure_requirements
  check_system_cuda
  log "done; check it with: $VENV_DIR/bin/python $HERE/verify.py"
}

main "$@"
