#!/usr/bin/env python3
"""Builds tfgpu's wheels from already-built native binaries, and checks their tags.

A wheel carries the native `tfgpu` the way ruff, cmake and ninja do: the binary in
`tfgpu-X.data/scripts/` (pip puts it in the environment's bin/ or Scripts\\), a small
`tfgpu` package for `python -m tfgpu`, and the man page and shell completions in
`tfgpu-X.data/data/share/` (the environment's share/). Written with the standard library
only (zip + RECORD, PEP 427/491), so nothing is downloaded to build them.

The tag is checked the way auditwheel does: an ELF binary may need only libraries on the
manylinux2014 allow-list and no symbol version above GLIBC_2.17 (nor GLIBCXX/CXXABI/GCC
beyond manylinux2014's); a PE binary may import only Windows system DLLs.

usage: wheels.py build --platform linux|windows --binary FILE --docs DIR --out DIR --version V
       wheels.py check-elf FILE        wheels.py check-pe FILE
"""
import argparse
import base64
import hashlib
import os
import re
import struct
import subprocess
import sys
import zipfile

# PEP 600 / auditwheel's policy for manylinux2014 (manylinux_2_17): libraries a wheel may
# need from the system, and the newest symbol versions it may need from them.
MANYLINUX2014_LIBS = {
    "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libc.so.6",
    "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2", "libX11.so.6",
    "libXext.so.6", "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1",
    "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0", "ld-linux-x86-64.so.2",
}
MANYLINUX2014_MAX = {"GLIBC": (2, 17), "GLIBCXX": (3, 4, 19), "CXXABI": (1, 3, 7), "GCC": (4, 8, 0)}

# DLLs every Windows 10 has in System32 (no redistributable runtime: tfgpu.exe links
# libstdc++, libgcc and winpthreads statically). The api-ms-win-* API sets are Windows' own.
WINDOWS_SYSTEM_DLLS = {
    "kernel32.dll", "advapi32.dll", "shell32.dll", "user32.dll", "ole32.dll", "oleaut32.dll",
    "version.dll", "setupapi.dll", "dxgi.dll", "msvcrt.dll", "ws2_32.dll", "bcrypt.dll",
    "ntdll.dll", "shlwapi.dll", "cfgmgr32.dll", "gdi32.dll", "secur32.dll", "crypt32.dll",
    "userenv.dll", "psapi.dll", "dbghelp.dll", "ucrtbase.dll",
}

TAGS = {
    "linux": ("py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64", "tfgpu"),
    "windows": ("py3-none-win_amd64", "tfgpu.exe"),
}

INIT_PY = '''"""tfgpu: make TensorFlow use your NVIDIA GPU, and prove that it does.

The work is done by the native `tfgpu` program this wheel installed next to the
environment's Python (bin/ or Scripts\\\\); this package only finds and runs it.
"""
import os
import sys
import sysconfig

__version__ = "@VERSION@"


def find_tfgpu_bin() -> str:
    """The path of the native tfgpu program installed with this package."""
    exe = "tfgpu" + (sysconfig.get_config_var("EXE") or (".exe" if os.name == "nt" else ""))
    candidates = [os.path.join(sysconfig.get_path("scripts"), exe)]
    # `pip install --user`: the user scheme's scripts folder.
    user_scheme = {"nt": "nt_user", "posix": "posix_user"}.get(os.name)
    if user_scheme and user_scheme in sysconfig.get_scheme_names():
        candidates.append(os.path.join(sysconfig.get_path("scripts", scheme=user_scheme), exe))
    # `pip install --target DIR`: DIR/bin next to the package.
    candidates.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin", exe))
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise FileNotFoundError("tfgpu: the native program is not installed; looked at " + ", ".join(candidates))
'''

MAIN_PY = '''"""`python -m tfgpu ARGS`: runs the native tfgpu program with ARGS."""
import os
import subprocess
import sys

from tfgpu import find_tfgpu_bin


def main() -> int:
    try:
        exe = find_tfgpu_bin()
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 3
    argv = [exe, *sys.argv[1:]]
    if os.name == "nt":
        return subprocess.call(argv)
    os.execv(exe, argv)  # never returns
    return 3


if __name__ == "__main__":
    sys.exit(main())
'''

# Installed under the environment's prefix (the .data/data/ scheme), where bash-completion,
# zsh, fish and man look when that prefix is /usr/local or a conda environment.
DOC_FILES = {
    "tfgpu.1": "share/man/man1/tfgpu.1",
    "tfgpu.bash": "share/bash-completion/completions/tfgpu",
    "_tfgpu": "share/zsh/site-functions/_tfgpu",
    "tfgpu.fish": "share/fish/vendor_completions.d/tfgpu.fish",
    "tfgpu.ps1": "share/tfgpu/completions/tfgpu.ps1",
}


def fail(msg):
    print("wheels.py: " + msg, file=sys.stderr)
    sys.exit(1)


def version_tuple(v):
    return tuple(int(x) for x in re.findall(r"\d+", v))


def check_elf(path):
    """auditwheel-style: NEEDED libraries on the allow-list, symbol versions within policy."""
    dyn = subprocess.run(["objdump", "-p", path], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", dyn, re.M)
    bad = [n for n in needed if n not in MANYLINUX2014_LIBS]
    if bad:
        fail(f"{path}: needs {', '.join(bad)}, not on the manylinux2014 allow-list")
    syms = subprocess.run(["objdump", "-T", path], capture_output=True, text=True, check=True).stdout
    newest = {}
    for family, ver in re.findall(r"\b(GLIBCXX|GLIBC|CXXABI|GCC)_([0-9][0-9.]*)\b", syms):
        v = version_tuple(ver)
        if v > newest.get(family, ()):
            newest[family] = v
        if v > MANYLINUX2014_MAX[family]:
            fail(f"{path}: needs {family}_{ver}, newer than manylinux2014's {family}_"
                 + ".".join(map(str, MANYLINUX2014_MAX[family])))
    shown = ", ".join(f"{k}_{'.'.join(map(str, v))}" for k, v in sorted(newest.items()))
    print(f"check-elf: {path}: NEEDED {' '.join(needed)}; newest symbol versions {shown}: manylinux_2_17 ok")


def pe_imports(path):
    """Names of the DLLs a PE32+ file imports (its import directory), read directly."""
    data = open(path, "rb").read()
    if data[:2] != b"MZ":
        fail(f"{path}: not a PE file")
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        fail(f"{path}: no PE signature")
    machine, nsections = struct.unpack_from("<HH", data, pe + 4)
    opt_size = struct.unpack_from("<H", data, pe + 20)[0]
    opt = pe + 24
    if struct.unpack_from("<H", data, opt)[0] != 0x20B or machine != 0x8664:
        fail(f"{path}: not an x86-64 PE32+ image")
    import_rva = struct.unpack_from("<I", data, opt + 112 + 8)[0]  # data directory 1
    sections = []
    for i in range(nsections):
        s = opt + opt_size + 40 * i
        vsize, va, rawsize, rawptr = struct.unpack_from("<IIII", data, s + 8)
        sections.append((va, max(vsize, rawsize), rawptr))

    def off(rva):
        for va, size, raw in sections:
            if va <= rva < va + size:
                return raw + rva - va
        fail(f"{path}: RVA {rva:#x} outside every section")

    names = []
    if import_rva == 0:
        return names
    d = off(import_rva)
    while True:
        name_rva = struct.unpack_from("<I", data, d + 12)[0]
        if name_rva == 0:
            break
        n = off(name_rva)
        names.append(data[n:data.index(b"\0", n)].decode("ascii"))
        d += 20
    return names


def check_pe(path):
    dlls = pe_imports(path)
    bad = [d for d in dlls if d.lower() not in WINDOWS_SYSTEM_DLLS and not d.lower().startswith("api-ms-win-")]
    if bad:
        fail(f"{path}: imports {', '.join(bad)}, not Windows system DLLs (would need a runtime next to it)")
    print(f"check-pe: {path}: imports {' '.join(dlls)}: win_amd64 ok")


def record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build(args):
    tag, exe = TAGS[args.platform]
    if args.platform == "linux":
        check_elf(args.binary)
    else:
        check_pe(args.binary)
    v = args.version
    dist_info = f"tfgpu-{v}.dist-info"
    data_dir = f"tfgpu-{v}.data"
    readme = open(args.readme, encoding="utf-8").read() if args.readme else ""
    metadata = (
        "Metadata-Version: 2.1\n"
        "Name: tfgpu\n"
        f"Version: {v}\n"
        "Summary: Make TensorFlow use your NVIDIA GPU, and prove that it does\n"
        "Keywords: tensorflow,cuda,cudnn,gpu,nvidia,diagnostics\n"
        "Classifier: Environment :: Console\n"
        "Classifier: Environment :: GPU :: NVIDIA CUDA\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Operating System :: Microsoft :: Windows\n"
        "Classifier: Programming Language :: C++\n"
        "Requires-Python: >=3.7\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme)
    wheel_meta = ("Wheel-Version: 1.0\n"
                  "Generator: tfgpu scripts/wheels.py\n"
                  "Root-Is-Purelib: false\n"
                  + "".join(f"Tag: {t}\n" for t in expand_tags(tag)))
    files = []  # (arcname, bytes, unix mode)
    files.append(("tfgpu/__init__.py", INIT_PY.replace("@VERSION@", v).encode(), 0o644))
    files.append(("tfgpu/__main__.py", MAIN_PY.encode(), 0o644))
    files.append((f"{data_dir}/scripts/{exe}", open(args.binary, "rb").read(), 0o755))
    for src, dest in DOC_FILES.items():
        p = os.path.join(args.docs, src)
        if not os.path.isfile(p):
            fail(f"missing {p} (generated by `tfgpu __man` / `tfgpu __completions SHELL`)")
        files.append((f"{data_dir}/data/{dest}", open(p, "rb").read(), 0o644))
    files.append((f"{dist_info}/METADATA", metadata.encode(), 0o644))
    files.append((f"{dist_info}/WHEEL", wheel_meta.encode(), 0o644))
    record = "".join(record_line(a, d) + "\n" for a, d, _ in files) + f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

    os.makedirs(args.out, exist_ok=True)
    out = os.path.join(args.out, f"tfgpu-{v}-{tag}.whl")
    tmp = out + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data, mode in files:
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, out)
    print(out)


def expand_tags(compressed):
    py, abi, plats = compressed.split("-")
    return [f"{p}-{a}-{pl}" for p in py.split(".") for a in abi.split(".") for pl in plats.split(".")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--platform", choices=sorted(TAGS), required=True)
    b.add_argument("--binary", required=True)
    b.add_argument("--docs", required=True, help="folder with tfgpu.1 and the completion scripts")
    b.add_argument("--out", required=True)
    b.add_argument("--version", required=True)
    b.add_argument("--readme")
    sub.add_parser("check-elf").add_argument("file")
    sub.add_parser("check-pe").add_argument("file")
    args = ap.parse_args()
    if args.cmd == "build":
        build(args)
    elif args.cmd == "check-elf":
        check_elf(args.file)
    else:
        check_pe(args.file)


if __name__ == "__main__":
    main()
