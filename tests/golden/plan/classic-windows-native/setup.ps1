<#
.SYNOPSIS
  setup.ps1: written by tfgpu plan (tfgpu 0.1.0) from tfgpu.lock.toml.
  TensorFlow 2.10.0 + CUDA 11.2 + cuDNN 8.1 + Python 3.10 on native Windows (install method: conda)
  GPU: GeForce RTX 3060 (compute 8.6, kernels: ptx_jit)
  Needs: NVIDIA driver (windows numbering) >= 452.39, 460.82 or newer for every feature of CUDA 11.2
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

$TfVersion = '2.10.0'
$PythonVersion = '3.10'
$Method = 'conda'
$CudaVersion = '11.2'
$CudnnVersion = '8.1'
$DriverMin = '452.39'
$EnvName = 'tf-2.10'
$Requirements = @(
  'tensorflow==2.10.0',
  'numpy<2'
)
$CondaChannel = 'conda-forge'
$CondaPackages = @(
  'cudatoolkit=11.2',
  'cudnn=8.1.0'
)
$CudaRoot = ''
$CudnnRoot = ''
$CudaInstaller = ''
$CudaInstallerSha256 = ''
$PathEntries = @()
# DLLs TensorFlow loads from CUDA / cuDNN (checked after PATH is set).
$Libraries = @(
  'cudart64_110.dll',
  'cublas64_11.dll',
  'cublasLt64_11.dll',
  'cufft64_10.dll',
  'curand64_10.dll',
  'cusolver64_11.dll',
  'cusparse64_11.dll',
  'cudnn64_8.dll'
)
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
