// Emitters: Lock -> file text. The script bodies are fixed templates; every value in
// them comes from the lock (and so from the KB), substituted with the quoting of the
// target language. No version fact is written here.
#include "plan/emit.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "util/strings.h"

namespace tfgpu::plan {
namespace {

std::string subst(std::string text, const std::vector<std::pair<std::string, std::string>>& vars) {
  for (const auto& [key, value] : vars) {
    const std::string pat = "@@" + key + "@@";
    for (size_t pos = 0; (pos = text.find(pat, pos)) != std::string::npos; pos += value.size())
      text.replace(pos, pat.size(), value);
  }
  return text;
}

// Quoting for each language: values are data, never code.
std::string sh_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}
std::string ps_quote(std::string_view s) {
  // PowerShell also ends a single-quoted string at the typographic quotes U+2018..U+201B;
  // every one of them is doubled like the ASCII quote.
  std::string out = "'";
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\'') {
      out += "''";
    } else if (s.substr(i, 2) == "\xe2\x80" && i + 2 < s.size() && s[i + 2] >= '\x98' && s[i + 2] <= '\x9b') {
      out += std::string(s.substr(i, 3)) + std::string(s.substr(i, 3));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out + "'";
}
std::string sh_array(const std::vector<std::string>& v) {
  if (v.empty()) return "()";
  std::string out = "(\n";
  for (const auto& s : v) out += "  " + sh_quote(s) + "\n";
  return out + ")";
}
std::string ps_array(const std::vector<std::string>& v) {
  if (v.empty()) return "@()";
  std::string out = "@(\n";
  for (size_t i = 0; i < v.size(); ++i) out += "  " + ps_quote(v[i]) + (i + 1 < v.size() ? ",\n" : "\n");
  return out + ")";
}
// A comment line: no newlines can escape into code.
std::string comment_safe(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string summary(const Lock& l) {
  std::string s = fmt::format("TensorFlow {} + CUDA {} + cuDNN {}", l.tensorflow, l.cuda, l.cudnn);
  if (!l.python.empty()) s += " + Python " + l.python;
  std::string where = l.target == "native" ? (l.os == "windows" ? "native Windows" : "Linux") : l.target == "wsl2" ? "WSL2" : "Docker";
  return comment_safe(fmt::format("{} on {} (install method: {})", s, where, l.method));
}

std::string gpu_line(const Lock& l) {
  if (l.gpu.empty()) return "GPU: not known when planned";
  return comment_safe(fmt::format("GPU: {} (compute {}, kernels: {})", l.gpu, l.compute_capability.empty() ? "?" : l.compute_capability, l.cc_support));
}

std::string driver_line(const Lock& l) {
  std::string s = fmt::format("NVIDIA driver ({} numbering) >= {}", l.driver_platform, l.driver_min);
  if (!l.driver_recommended.empty()) s += fmt::format(", {} or newer for every feature of CUDA {}", l.driver_recommended, l.cuda);
  return comment_safe(s);
}

std::vector<std::string> toolkit_libraries(const Lock& l) {
  // The driver library comes with the driver (or from the Windows host in WSL2).
  std::vector<std::string> out;
  for (const auto& lib : l.libraries)
    if (!starts_with(lib, "libcuda.so") && !iequals(lib, "nvcuda.dll")) out.push_back(lib);
  return out;
}

constexpr const char* kSetupSh = R"SH(#!/usr/bin/env bash
# setup.sh: written by tfgpu plan (@@GENERATOR@@) from tfgpu.lock.toml.
# @@SUMMARY@@
# @@GPU@@
# Needs: @@DRIVER@@
# Idempotent: a second run changes nothing. It never installs an NVIDIA driver
# (in WSL2 the driver comes from the Windows host and must not be installed inside).
# Options: TFGPU_VENV_DIR=DIR to choose the virtual environment (default below).
set -euo pipefail

TF_VERSION=@@TF@@
PYTHON_VERSION=@@PYTHON@@
METHOD=@@METHOD@@
TARGET=@@TARGET@@
CUDA_VERSION=@@CUDA@@
CUDNN_VERSION=@@CUDNN@@
DRIVER_MIN=@@DRIVER_MIN@@
CUDA_ROOT=@@CUDA_ROOT@@
VENV_DIR="${TFGPU_VENV_DIR:-$HOME/.venvs/@@ENV_NAME@@}"
REQUIREMENTS=@@REQUIREMENTS@@
# Libraries TensorFlow @@TF_PLAIN@@ loads from a system CUDA / cuDNN (method system-cuda).
CUDA_LIBRARIES=@@LIBRARIES@@
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
)SH";

constexpr const char* kSetupPs1 = R"PS(<#
.SYNOPSIS
  setup.ps1: written by tfgpu plan (@@GENERATOR@@) from tfgpu.lock.toml.
  @@SUMMARY@@
  @@GPU@@
  Needs: @@DRIVER@@
.DESCRIPTION
  Idempotent: a second run changes nothing. The user PATH is changed only through the
  registry (HKCU:\Environment, keeping its REG_EXPAND_SZ type and every existing
  entry), never with setx, which truncates PATH at 1024 characters. The PATH before
  the first change is saved to a backup file; -Undo restores it.
  Run it from PowerShell in this folder (the default execution policy blocks scripts
  that are not signed; this allows this one run only):
    powershell -ExecutionPolicy Bypass -File .\setup.ps1
.PARAMETER Undo
  Restore the user PATH saved by the first run and remove the backup.
#>
[CmdletBinding()]
param([switch]$Undo)
Set-StrictMode -Version Latest
$ErrorActionPreference = 'Stop'

$TfVersion = @@TF@@
$PythonVersion = @@PYTHON@@
$Method = @@METHOD@@
$CudaVersion = @@CUDA@@
$CudnnVersion = @@CUDNN@@
$DriverMin = @@DRIVER_MIN@@
$EnvName = @@ENV_NAME@@
$Requirements = @@REQUIREMENTS@@
$CondaChannel = @@CONDA_CHANNEL@@
$CondaPackages = @@CONDA_PACKAGES@@
$CudaRoot = @@CUDA_ROOT@@
$CudnnRoot = @@CUDNN_ROOT@@
$CudaInstaller = @@CUDA_INSTALLER@@
$CudaInstallerSha256 = @@CUDA_INSTALLER_SHA256@@
$PathEntries = @@PATH_ENTRIES@@
# DLLs TensorFlow loads from CUDA / cuDNN (checked after PATH is set).
$Libraries = @@LIBRARIES@@
$StateDir = Join-Path $env:LOCALAPPDATA 'tfgpu'
$PathBackup = Join-Path $StateDir "path-backup-$EnvName.txt"
$VenvDir = Join-Path $HOME ".venvs\$EnvName"

function Write-Step([string]$Message) { Write-Host "tfgpu-setup: $Message" }
function Write-Caution([string]$Message) { Write-Warning "tfgpu-setup: $Message" }

function Get-UserPath {
  $key = Get-Item -Path 'HKCU:\Environment'
  # Raw value: %VARIABLES% stay unexpanded so that writing it back loses nothing.
  return [string]$key.GetValue('Path', '', [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames)
}

function Set-UserPath([string]$Value) {
  Set-ItemProperty -Path 'HKCU:\Environment' -Name 'Path' -Value $Value -Type ExpandString
  # Setting a user variable through .NET broadcasts WM_SETTINGCHANGE, so new shells see the new PATH.
  [Environment]::SetEnvironmentVariable('TFGPU_PATH_UPDATED', $EnvName, 'User')
}

function Test-PathEntry([string[]]$Current, [string]$Entry) {
  $want = $Entry.TrimEnd('\')
  foreach ($c in $Current) { if ($c.TrimEnd('\') -ieq $want) { return $true } }
  return $false
}

function Add-PathEntries {
  if ($PathEntries.Count -eq 0) { return }
  $current = Get-UserPath
  $parts = @($current -split ';' | Where-Object { $_ -ne '' })
  # Each directory once, even when two entries name it (cuDNN copied into the toolkit's
  # folder makes {cudnn_root}\bin the toolkit's bin): checked against what is added too.
  $missing = @()
  foreach ($entry in $PathEntries) {
    if (-not (Test-PathEntry (@($parts) + @($missing)) $entry)) { $missing += $entry }
  }
  if ($missing.Count -eq 0) { Write-Step 'the user PATH has every entry already'; return }
  if (-not (Test-Path -LiteralPath $PathBackup)) {
    New-Item -ItemType Directory -Force -Path $StateDir | Out-Null
    Set-Content -LiteralPath $PathBackup -Value $current -Encoding UTF8 -NoNewline
    Write-Step "saved the user PATH to $PathBackup"
  }
  Set-UserPath ((@($parts) + $missing) -join ';')
  $env:Path = $env:Path + ';' + ($missing -join ';')
  Write-Step ('added to the user PATH: ' + ($missing -join '; '))
}

function Undo-Setup {
  if (Test-Path -LiteralPath $PathBackup) {
    $old = Get-Content -LiteralPath $PathBackup -Raw -Encoding UTF8
    if ($null -eq $old) { $old = '' }
    Set-UserPath $old
    Remove-Item -LiteralPath $PathBackup
    Write-Step 'restored the user PATH from the backup'
  } else {
    Write-Step 'no PATH backup: the user PATH was not changed by this script'
  }
  [Environment]::SetEnvironmentVariable('TFGPU_PATH_UPDATED', $null, 'User')
  Write-Step "the Python environment is kept; remove it with: conda env remove -n $EnvName (conda) or Remove-Item -Recurse $VenvDir (venv)"
}

function Test-Driver {
  $ErrorActionPreference = 'Continue'  # native stderr must not become a terminating error (PowerShell 5.1)
  $smi = Get-Command nvidia-smi -ErrorAction SilentlyContinue
  if (-not $smi) { Write-Caution "nvidia-smi not found: install an NVIDIA driver >= $DriverMin"; return }
  $text = (& $smi.Source --query-gpu=driver_version --format=csv,noheader 2>$null | Select-Object -First 1)
  if (-not $text) { Write-Caution "cannot read the driver version: it must be >= $DriverMin"; return }
  if ([version]$text.Trim() -lt [version]$DriverMin) {
    Write-Caution "driver $($text.Trim()) is older than $DriverMin`: update it first"
  } else {
    Write-Step "driver $($text.Trim()) >= $DriverMin"
  }
}

function Get-PipVersion([string]$Python, [string]$Name) {
  $ErrorActionPreference = 'Continue'
  $out = & $Python -m pip show $Name 2>$null
  foreach ($line in @($out)) { if ($line -match '^Version:\s*(.+)$') { return $Matches[1].Trim() } }
  return ''
}

function Install-Requirements([string]$Python) {
  $ErrorActionPreference = 'Continue'
  $todo = @()
  foreach ($req in $Requirements) {
    $name = ($req -split '==')[0] -replace '\[.*\]', ''
    $want = ($req -split '==')[1]
    if ((Get-PipVersion $Python $name) -ne $want) { $todo += $req }
  }
  if ($todo.Count -eq 0) { Write-Step 'every pinned package is installed at its version'; return }
  Write-Step ('installing: ' + ($todo -join ' '))
  & $Python -m pip install @todo | Out-Host  # keep the function's output to its return value
  if ($LASTEXITCODE -ne 0) { throw "pip install failed ($LASTEXITCODE)" }
}

function Get-CondaPrefix {
  $ErrorActionPreference = 'Continue'
  $envs = (& conda env list --json | Out-String | ConvertFrom-Json).envs
  foreach ($p in @($envs)) { if ((Split-Path -Leaf $p) -ieq $EnvName) { return $p } }
  return ''
}

function Install-CondaEnv {
  $ErrorActionPreference = 'Continue'
  if (-not (Get-Command conda -ErrorAction SilentlyContinue)) {
    throw 'conda not found: install Miniconda or Miniforge, open its prompt, and run this script again'
  }
  $prefix = Get-CondaPrefix
  if ($prefix) {
    Write-Step "conda environment $EnvName exists ($prefix)"
  } else {
    Write-Step "creating the conda environment $EnvName (Python $PythonVersion)"
    & conda create -y -n $EnvName --override-channels -c $CondaChannel "python=$PythonVersion" | Out-Host
    if ($LASTEXITCODE -ne 0) { throw "conda create failed ($LASTEXITCODE)" }
    $prefix = Get-CondaPrefix
  }
  $listed = (& conda list -n $EnvName --json | Out-String | ConvertFrom-Json)
  $todo = @()
  foreach ($pkg in $CondaPackages) {
    $name, $ver = $pkg -split '=', 2
    $hit = @($listed | Where-Object { $_.name -eq $name -and ($_.version -eq $ver -or $_.version.StartsWith("$ver.")) })
    if ($hit.Count -eq 0) { $todo += $pkg }
  }
  if ($todo.Count -gt 0) {
    Write-Step ('conda install: ' + ($todo -join ' '))
    & conda install -y -n $EnvName --override-channels -c $CondaChannel @todo | Out-Host
    if ($LASTEXITCODE -ne 0) { throw "conda install failed ($LASTEXITCODE)" }
  } else {
    Write-Step 'CUDA and cuDNN conda packages are installed'
  }
  Install-Requirements (Join-Path $prefix 'python.exe') | Out-Host
  return (Join-Path $prefix 'python.exe')
}

function Install-Venv {
  $ErrorActionPreference = 'Continue'
  $python = Join-Path $VenvDir 'Scripts\python.exe'
  if (Test-Path -LiteralPath $python) {
    Write-Step "virtual environment $VenvDir exists"
  } else {
    if (-not (Get-Command py -ErrorAction SilentlyContinue)) {
      throw "the Python launcher (py) was not found: install 64-bit Python $PythonVersion from python.org"
    }
    Write-Step "creating the virtual environment $VenvDir (Python $PythonVersion)"
    & py "-$PythonVersion" -m venv $VenvDir | Out-Host
    if ($LASTEXITCODE -ne 0) { throw "py -$PythonVersion -m venv failed: is 64-bit Python $PythonVersion installed?" }
  }
  Install-Requirements $python | Out-Host
  return $python
}

function Test-SystemCuda {
  if (-not (Test-Path -LiteralPath (Join-Path $CudaRoot 'bin'))) {
    $file = if ($CudaInstaller) { $CudaInstaller } else { "the CUDA $CudaVersion installer" }
    Write-Caution "CUDA $CudaVersion is not installed at $CudaRoot`: run $file from NVIDIA (CUDA Toolkit archive)"
    $local = if ($CudaInstaller) { Join-Path $PSScriptRoot $CudaInstaller } else { '' }
    if ($local -and (Test-Path -LiteralPath $local)) {
      if ($CudaInstallerSha256) {
        $hash = (Get-FileHash -Algorithm SHA256 -LiteralPath $local).Hash
        if ($hash -ine $CudaInstallerSha256) { throw "$CudaInstaller`: SHA-256 $hash does not match $CudaInstallerSha256" }
        Write-Step "$CudaInstaller checksum verified"
      } else {
        Write-Caution "no checksum for $CudaInstaller in the knowledge base: compare it with the one NVIDIA publishes"
      }
    }
  }
  if (-not (Test-Path -LiteralPath (Join-Path $CudnnRoot 'bin'))) {
    Write-Caution "cuDNN $CudnnVersion for CUDA $CudaVersion is not at $CudnnRoot`: download it from NVIDIA and unpack it there (bin, include, lib)"
  }
}

function Test-Libraries {
  $dirs = @($env:Path -split ';' | Where-Object { $_ -ne '' })
  $missing = @()
  foreach ($lib in $Libraries) {
    $found = $false
    foreach ($d in $dirs) { if (Test-Path -LiteralPath (Join-Path $d $lib)) { $found = $true; break } }
    if (-not $found) { $missing += $lib }
  }
  if ($missing.Count -gt 0) { Write-Caution ('not found on PATH yet: ' + ($missing -join ', ')) }
  else { Write-Step 'every CUDA / cuDNN DLL TensorFlow loads is on PATH' }
}

if ($Undo) { Undo-Setup; return }
Write-Step "TensorFlow $TfVersion, Python $PythonVersion, CUDA $CudaVersion, cuDNN $CudnnVersion ($Method)"
Test-Driver
if ($Method -eq 'conda') {
  $python = Install-CondaEnv
} else {
  Test-SystemCuda
  Add-PathEntries
  $python = Install-Venv
  Test-Libraries
}
# The closing check runs inside the environment, as the user will run TensorFlow:
# `conda run` activates the conda env (its Library\bin on PATH); a venv needs no more
# than its own python and the PATH set above.
Write-Step 'checking the result with verify.py, inside the environment'
if ($Method -eq 'conda') {
  & conda run -n $EnvName --no-capture-output python "$PSScriptRoot\verify.py"
} else {
  & $python "$PSScriptRoot\verify.py"
}
if ($LASTEXITCODE -ne 0) { Write-Caution "verify.py exited with $LASTEXITCODE (its summary line above says why)" }
Write-Step "done; check it again any time with: & '$python' '$PSScriptRoot\verify.py'"
)PS";

constexpr const char* kVerifyPy = R"PY(#!/usr/bin/env python3
"""verify.py: written by tfgpu plan (@@GENERATOR@@) from tfgpu.lock.toml.

@@SUMMARY@@
The classic TensorFlow GPU checks (version, built with CUDA, devices, memory growth,
a timed matmul on /GPU:0 vs /CPU:0, the mixed-precision policy), compared with the
plan: tfgpu.lock.toml next to this file when it is there (Python 3.11+ reads it), else
the values the plan wrote below. Prints one line for people, then one JSON object;
exit status 0 when TensorFlow uses the GPU as planned.
"""
import json
import os
import sys
import time

EXPECTED = json.loads(@@EXPECTED@@)


def planned():
    """The lock next to this script wins over the copy above (it may have been edited)."""
    want = dict(EXPECTED)
    lock = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tfgpu.lock.toml")
    try:
        import tomllib
        with open(lock, "rb") as f:
            doc = tomllib.load(f)
    except Exception:  # no lock, no tomllib (Python < 3.11), or an unreadable lock
        return want, "the plan's copy in verify.py"
    if doc.get("host", {}).get("target") == "docker":
        doc.get("versions", {}).pop("python", None)  # the image brings its own Python
    for key in ("tensorflow", "python", "cuda", "cudnn", "compute_capability"):
        for table in ("versions", "host", "gpu"):
            value = doc.get(table, {}).get(key)
            if isinstance(value, str) and value:
                want[key] = value
                break
    return want, lock


def same_prefix(found, want):
    """'12.5.1' matches a planned '12.5'; '9' matches '9.3' only by major."""
    f, w = str(found).split("."), str(want).split(".")
    n = min(len(f), len(w))
    return n > 0 and f[:n] == w[:n]


def timed_matmul(tf, device, n, repeats):
    with tf.device(device):
        a = tf.random.normal((n, n))
        b = tf.random.normal((n, n))
        tf.matmul(a, b).numpy()  # warm-up: kernels, autotuning, JIT
        start = time.perf_counter()
        for _ in range(repeats):
            c = tf.matmul(a, b)
        c.numpy()  # waits for the device
        return (time.perf_counter() - start) / repeats


def summary_line(out):
    if out.get("ok"):
        g = out.get("gpu0", {})
        line = "verify: OK - TensorFlow %s uses %d GPU(s)" % (out.get("tensorflow"), len(out.get("gpus", [])))
        if g.get("name"):
            line += " (%s, compute %s)" % (g["name"], g.get("compute_capability", "?"))
        b = out.get("build_info", {})
        if b:
            line += ", built for CUDA %s / cuDNN %s" % (b.get("cuda_version", "?"), b.get("cudnn_version", "?"))
        speedup = out.get("matmul", {}).get("speedup")
        if speedup:
            line += ", matmul %.0fx the CPU" % speedup
        return line + "; as planned"
    return "verify: FAILED - " + "; ".join(out["errors"])


def check(out, tf, want):
    """Fills `out` from the running TensorFlow and compares it with `want`."""
    want_py = want.get("python") or ""
    if want_py and out["python"].rsplit(".", 1)[0] != want_py:
        out["warnings"].append("Python %s, the plan pins %s" % (out["python"], want_py))
    out["tensorflow"] = tf.__version__
    want_tf = want["tensorflow"]
    if tf.__version__.split(".")[:2] != want_tf.split(".")[:2]:
        out["errors"].append("TensorFlow %s, the plan pins %s" % (tf.__version__, want_tf))
    elif tf.__version__ != want_tf:
        out["warnings"].append("TensorFlow %s, the plan pins %s" % (tf.__version__, want_tf))
    out["built_with_cuda"] = bool(tf.test.is_built_with_cuda())
    if not out["built_with_cuda"]:
        out["errors"].append("this TensorFlow build has no CUDA support")
    try:
        info = tf.sysconfig.get_build_info()
        out["build_info"] = {k: str(info[k]) for k in ("cuda_version", "cudnn_version", "cuda_compute_capabilities") if k in info}
    except Exception as e:
        out["warnings"].append("get_build_info failed: %s" % e)
    b = out.get("build_info", {})
    if want.get("cuda") and b.get("cuda_version") and not same_prefix(b["cuda_version"], want["cuda"]):
        out["errors"].append("built for CUDA %s, the plan says %s" % (b["cuda_version"], want["cuda"]))
    if want.get("cudnn") and b.get("cudnn_version") and not same_prefix(b["cudnn_version"], want["cudnn"]):
        out["errors"].append("built for cuDNN %s, the plan says %s" % (b["cudnn_version"], want["cudnn"]))
    gpus = tf.config.list_physical_devices("GPU")
    out["gpus"] = [g.name for g in gpus]
    if not gpus:
        out["errors"].append("TensorFlow lists no GPU: run tfgpu doctor --lock tfgpu.lock.toml")
    try:
        for g in gpus:  # must happen before the GPU is initialised
            tf.config.experimental.set_memory_growth(g, True)
        out["memory_growth"] = bool(gpus)
    except Exception as e:
        out["memory_growth"] = False
        out["warnings"].append("set_memory_growth failed: %s" % e)
    if gpus:
        try:
            details = tf.config.experimental.get_device_details(gpus[0])
            out["gpu0"] = {"name": details.get("device_name", ""),
                           "compute_capability": ".".join(str(x) for x in details.get("compute_capability", ()))}
        except Exception as e:
            out["warnings"].append("get_device_details failed: %s" % e)
        cc = out.get("gpu0", {}).get("compute_capability")
        if want.get("compute_capability") and cc and cc != want["compute_capability"]:
            out["warnings"].append("GPU 0 has compute capability %s, the plan was made for %s" % (cc, want["compute_capability"]))
    n, repeats = 2048, 10
    matmul = {"n": n, "repeats": repeats}
    try:
        matmul["cpu_s"] = timed_matmul(tf, "/CPU:0", n, repeats)
        if gpus:
            matmul["gpu_s"] = timed_matmul(tf, "/GPU:0", n, repeats)
            matmul["speedup"] = matmul["cpu_s"] / matmul["gpu_s"] if matmul["gpu_s"] > 0 else None
    except Exception as e:
        out["errors"].append("matmul failed: %s: %s" % (type(e).__name__, e))
    out["matmul"] = matmul
    try:
        from tensorflow.keras import mixed_precision
        mixed_precision.set_global_policy("mixed_float16")
        out["mixed_precision"] = mixed_precision.global_policy().name
        mixed_precision.set_global_policy("float32")
    except Exception as e:
        out["warnings"].append("mixed precision: %s" % e)


def main():
    want, source = planned()
    out = {"ok": False, "expected": want, "expected_from": source, "errors": [], "warnings": [],
           "python": "%d.%d.%d" % sys.version_info[:3]}
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    try:
        import tensorflow as tf
    except Exception as e:  # the report is the point: never a traceback
        out["errors"].append("import tensorflow failed: %s: %s" % (type(e).__name__, e))
    else:
        try:
            check(out, tf, want)
        except Exception as e:
            out["errors"].append("%s: %s" % (type(e).__name__, e))
    out["ok"] = not out["errors"]
    print(summary_line(out))
    print(json.dumps(out, sort_keys=True))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
)PY";

}  // namespace

std::string emit_setup_sh(const Lock& l) {
  return subst(kSetupSh, {{"GENERATOR", comment_safe(l.generator)},
                          {"SUMMARY", summary(l)},
                          {"GPU", gpu_line(l)},
                          {"DRIVER", driver_line(l)},
                          {"TF_PLAIN", comment_safe(l.tensorflow)},
                          {"TF", sh_quote(l.tensorflow)},
                          {"PYTHON", sh_quote(l.python)},
                          {"METHOD", sh_quote(l.method)},
                          {"TARGET", sh_quote(l.target)},
                          {"CUDA", sh_quote(l.cuda)},
                          {"CUDNN", sh_quote(l.cudnn)},
                          {"DRIVER_MIN", sh_quote(l.driver_min)},
                          {"CUDA_ROOT", sh_quote(l.cuda_root)},
                          {"ENV_NAME", comment_safe(l.env_name)},
                          {"REQUIREMENTS", sh_array(l.pip)},
                          {"LIBRARIES", sh_array(toolkit_libraries(l))}});
}

// The one conda channel of a plan (environment.yml and setup.ps1 alike).
static std::string conda_channel(const Lock& l) { return l.conda_channel.empty() ? "conda-forge" : l.conda_channel; }

std::string emit_setup_ps1(const Lock& l) {
  return subst(kSetupPs1, {{"GENERATOR", comment_safe(l.generator)},
                           {"SUMMARY", summary(l)},
                           {"GPU", gpu_line(l)},
                           {"DRIVER", driver_line(l)},
                           {"TF", ps_quote(l.tensorflow)},
                           {"PYTHON", ps_quote(l.python)},
                           {"METHOD", ps_quote(l.method)},
                           {"CUDA", ps_quote(l.cuda)},
                           {"CUDNN", ps_quote(l.cudnn)},
                           {"DRIVER_MIN", ps_quote(l.driver_min)},
                           {"ENV_NAME", ps_quote(l.env_name)},
                           {"REQUIREMENTS", ps_array(l.pip)},
                           {"CONDA_CHANNEL", ps_quote(conda_channel(l))},
                           {"CONDA_PACKAGES", ps_array(l.conda_packages)},
                           {"CUDA_ROOT", ps_quote(l.cuda_root)},
                           {"CUDNN_ROOT", ps_quote(l.cudnn_root)},
                           {"CUDA_INSTALLER", ps_quote(l.cuda_installer)},
                           {"CUDA_INSTALLER_SHA256", ps_quote(l.cuda_installer_sha256)},
                           {"PATH_ENTRIES", ps_array(l.path_entries)},
                           {"LIBRARIES", ps_array(toolkit_libraries(l))}});
}

std::string emit_requirements(const Lock& l) {
  std::string s = "# requirements.txt: written by tfgpu plan from tfgpu.lock.toml.\n";
  s += "# " + summary(l) + "\n";
  if (!l.pip_hashes_note.empty()) s += "# " + comment_safe(l.pip_hashes_note) + "\n";
  if (l.method == "conda")
    s += fmt::format("# CUDA and cuDNN come from conda ({}: {}); see environment.yml.\n", comment_safe(l.conda_channel),
                     comment_safe(join(l.conda_packages, " ")));
  else if (l.method == "system-cuda")
    s += fmt::format("# CUDA {} and cuDNN {} come from a system install, not from pip.\n", comment_safe(l.cuda), comment_safe(l.cudnn));
  for (const auto& line : l.pip) s += comment_safe(line) + "\n";
  return s;
}

std::string emit_environment_yml(const Lock& l) {
  auto y = [](std::string_view v) { return nlohmann::json(std::string(v)).dump(); };  // JSON strings are YAML strings
  std::string s = "# environment.yml: written by tfgpu plan from tfgpu.lock.toml.\n";
  s += "# " + summary(l) + "\n";
  s += "# conda env create -f environment.yml\n";
  s += "name: " + y(l.env_name) + "\n";
  s += "channels:\n";
  // One channel, as setup.ps1 uses it (--override-channels): nodefaults keeps a
  // .condarc's defaults channel out of the solve.
  s += "  - " + y(conda_channel(l)) + "\n";
  s += "  - nodefaults\n";
  s += "dependencies:\n";
  if (!l.python.empty()) s += "  - " + y("python=" + l.python) + "\n";
  for (const auto& p : l.conda_packages) s += "  - " + y(p) + "\n";
  s += "  - pip\n";
  if (!l.pip.empty()) {
    s += "  - pip:\n";
    for (const auto& p : l.pip) s += "      - " + y(p) + "\n";
  }
  return s;
}

std::string emit_dockerfile(const Lock& l) {
  std::string s = "# Dockerfile: written by tfgpu plan from tfgpu.lock.toml.\n";
  s += fmt::format("# TensorFlow {} on the official GPU image: CUDA and cuDNN are inside the image.\n", comment_safe(l.tensorflow));
  s += "# The host needs only the NVIDIA driver (" + driver_line(l) + ")\n";
  s += "# and the NVIDIA Container Toolkit.\n";
  s += "#   docker build -t tfgpu-plan . && docker run --rm --gpus all tfgpu-plan\n";
  s += "FROM " + comment_safe(l.docker_image) + "\n";
  s += "COPY verify.py /opt/tfgpu/verify.py\n";
  s += "CMD [\"python\", \"/opt/tfgpu/verify.py\"]\n";
  return s;
}

std::string emit_verify_py(const Lock& l) {
  nlohmann::ordered_json expected;
  expected["tensorflow"] = l.tensorflow;
  expected["python"] = l.target == "docker" ? "" : l.python;
  expected["cuda"] = l.cuda;
  expected["cudnn"] = l.cudnn;
  expected["compute_capability"] = l.compute_capability;
  expected["target"] = l.target;
  // A JSON text inside a JSON string literal is a valid Python string literal (ASCII only).
  std::string literal = nlohmann::json(expected.dump()).dump(-1, ' ', true);
  return subst(kVerifyPy, {{"GENERATOR", comment_safe(l.generator)}, {"SUMMARY", summary(l)}, {"EXPECTED", literal}});
}

std::vector<EmittedFile> emit_all(const Lock& l) {
  std::vector<EmittedFile> out;
  out.push_back({"tfgpu.lock.toml", lock_to_toml(l), FileMode::kRegular});
  if (l.target != "docker") {
    if (l.os == "windows" && l.target == "native")
      out.push_back({"setup.ps1", emit_setup_ps1(l), FileMode::kRegular});
    else
      out.push_back({"setup.sh", emit_setup_sh(l), FileMode::kExecutable});
    out.push_back({"requirements.txt", emit_requirements(l), FileMode::kRegular});
    out.push_back({"environment.yml", emit_environment_yml(l), FileMode::kRegular});
  }
  if (!l.docker_image.empty()) out.push_back({"Dockerfile", emit_dockerfile(l), FileMode::kRegular});
  out.push_back({"verify.py", emit_verify_py(l), FileMode::kExecutable});
  return out;
}

}  // namespace tfgpu::plan
