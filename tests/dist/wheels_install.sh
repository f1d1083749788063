#!/usr/bin/env bash
# Builds both wheels with scripts/build-wheels.sh, installs the manylinux one into a fresh
# venv with pip (no index: nothing downloaded), and runs tfgpu from it: on PATH as pip put
# it, `python -m tfgpu`, doctor (which must look at that venv first). The win_amd64 wheel is
# checked for its tag, its files and its RECORD (pip under Wine's Python is not practical
# here: no Windows Python is installed, and nothing may be downloaded).
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
bash "$root/scripts/build-wheels.sh" --out "$out/dist"
version=$(sed -n 's/^project(tfgpu VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
linux_whl="$out/dist/tfgpu-$version-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
win_whl="$out/dist/tfgpu-$version-py3-none-win_amd64.whl"
ls -l "$out/dist"
for w in "$linux_whl" "$win_whl"; do [ -f "$w" ] || { echo "FAIL: $w missing"; exit 1; }; done

python3 -m venv "$out/venv"
"$out/venv/bin/pip" install --no-index --disable-pip-version-check -q "$linux_whl"
echo "--- pip show tfgpu"
show=$("$out/venv/bin/pip" show -f tfgpu)
echo "$show" | head -12
grep -qx "Version: $version" <<<"$show" || { echo "FAIL: pip show: wrong version"; exit 1; }
wheel_tags=$(cat "$out"/venv/lib/python3*/site-packages/tfgpu-"$version".dist-info/WHEEL)
grep -qx "Tag: py3-none-manylinux_2_17_x86_64" <<<"$wheel_tags" || { echo "FAIL: tag"; exit 1; }
for f in bin/tfgpu share/man/man1/tfgpu.1 share/bash-completion/completions/tfgpu \
         share/zsh/site-functions/_tfgpu share/fish/vendor_completions.d/tfgpu.fish; do
  [ -s "$out/venv/$f" ] || { echo "FAIL: $f not installed into the venv"; exit 1; }
done
[ -x "$out/venv/bin/tfgpu" ] || { echo "FAIL: bin/tfgpu not executable"; exit 1; }

echo "--- tfgpu on the venv's PATH"
# shellcheck disable=SC1091
(source "$out/venv/bin/activate" && command -v tfgpu && tfgpu --version) | tee "$out/version.txt"
grep -qx "$out/venv/bin/tfgpu" "$out/version.txt" || { echo "FAIL: not the venv's tfgpu"; exit 1; }
echo "--- python -m tfgpu --version"
v=$("$out/venv/bin/python" -m tfgpu --version)
echo "$v"
[ "$v" = "tfgpu $version" ] || { echo "FAIL: python -m tfgpu --version: '$v'"; exit 1; }

echo "--- tfgpu doctor (not activated: the venv the binary is in comes first)"
set +e
(cd / && env -u VIRTUAL_ENV LANG=C.UTF-8 "$out/venv/bin/tfgpu" doctor) >"$out/doctor.txt" 2>&1
rc=$?
(cd / && env -u VIRTUAL_ENV "$out/venv/bin/tfgpu" probe --json) >"$out/probe.json" 2>/dev/null
set -e
cat "$out/doctor.txt"
echo "doctor exit: $rc"
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || { echo "FAIL: doctor exited $rc"; exit 1; }
python3 - "$out/probe.json" "$out/venv" <<'PY'
import json, os, sys
snap = json.load(open(sys.argv[1]))
venv = os.path.realpath(sys.argv[2])
def find(o):
    if isinstance(o, dict):
        if "executable" in o and "kind" in o:
            yield o
        for v in o.values():
            yield from find(v)
    elif isinstance(o, list):
        for v in o:
            yield from find(v)
envs = list(find(snap))
if not envs:
    sys.exit("FAIL: probe --json lists no Python environment")
first = envs[0]
print("first Python environment:", first.get("executable"), first.get("kind"), first.get("name"))
if not os.path.realpath(first.get("prefix") or os.path.dirname(os.path.dirname(first["executable"]))) == venv:
    sys.exit("FAIL: the venv tfgpu is installed in is not the first environment")
PY

echo "--- win_amd64 wheel: tag, files, RECORD"
python3 - "$win_whl" "$version" <<'PY'
import base64, hashlib, sys, zipfile
whl, version = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(whl)
names = set(z.namelist())
need = {f"tfgpu-{version}.data/scripts/tfgpu.exe", "tfgpu/__init__.py", "tfgpu/__main__.py",
        f"tfgpu-{version}.data/data/share/tfgpu/completions/tfgpu.ps1",
        f"tfgpu-{version}.data/data/share/man/man1/tfgpu.1",
        f"tfgpu-{version}.dist-info/METADATA", f"tfgpu-{version}.dist-info/WHEEL", f"tfgpu-{version}.dist-info/RECORD"}
missing = need - names
if missing:
    sys.exit(f"FAIL: {whl} lacks {sorted(missing)}")
wheel = z.read(f"tfgpu-{version}.dist-info/WHEEL").decode()
if "Tag: py3-none-win_amd64\n" not in wheel or "Root-Is-Purelib: false" not in wheel:
    sys.exit("FAIL: WHEEL: " + wheel)
for line in z.read(f"tfgpu-{version}.dist-info/RECORD").decode().splitlines():
    path, digest, size = line.split(",")
    if not digest:
        continue
    data = z.read(path)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    if digest != want or int(size) != len(data):
        sys.exit(f"FAIL: RECORD mismatch for {path}")
exe = z.read(f"tfgpu-{version}.data/scripts/tfgpu.exe")
if exe[:2] != b"MZ":
    sys.exit("FAIL: tfgpu.exe is not a PE file")
print(f"ok: {whl.rsplit('/', 1)[-1]}: {len(names)} files, RECORD verified, tfgpu.exe {len(exe)} bytes")
PY
python3 -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])" \
  "$win_whl" "tfgpu-$version.data/scripts/tfgpu.exe" "$out/win"
python3 "$root/scripts/wheels.py" check-pe "$out/win/tfgpu-$version.data/scripts/tfgpu.exe"
if command -v wine >/dev/null; then
  # The .exe from the wheel runs under Wine (a throwaway prefix, headless).
  wv=$(WINEPREFIX="$out/wineprefix" WINEDEBUG=-all DISPLAY='' timeout 300 \
       wine "$out/win/tfgpu-$version.data/scripts/tfgpu.exe" --version </dev/null 2>/dev/null | tr -d '\r')
  WINEPREFIX="$out/wineprefix" wineserver -k >/dev/null 2>&1 || true
  echo "under Wine: $wv"
  [ "$wv" = "tfgpu $version" ] || { echo "FAIL: tfgpu.exe --version under Wine: '$wv'"; exit 1; }
fi
echo PASS
