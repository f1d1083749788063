#!/usr/bin/env python3
"""Which TensorRT library each TensorFlow release tries to open, read from the real wheels.

TensorFlow opens TensorRT (libnvinfer, libnvinfer_plugin) only through
DsoLoader::GetNvInferDsoHandle / GetNvInferPluginDsoHandle, whose name and version
(TF_TENSORRT_VERSION, baked in at build time) are short std::string literals: newer compilers
build them on the stack with immediate stores, older ones pass the address of a C string. For every Linux row of kb/derivations/wheel_facts.json
of kind "kb-row" (the exact release the KB row names) this script:
  - reads the wheel's libtensorflow_framework.so.2 by HTTP range requests (tests/real/wheelzip.py,
    cached; never the whole wheel);
  - disassembles the two functions (objdump -d) and rebuilds the strings they store;
  - takes is_tensorrt_build from the wheel's build_info (wheel_facts.json): where it is False,
    TF never calls them (py_utils.cc IsGoogleTensorRTEnabled), whatever the literal says.
Writes kb/derivations/tensorrt.txt: one line per release,
  <release> | is_tensorrt_build: <True|False|None> | nvinfer: <soname or -> | plugin: <soname or ->

Usage: scripts/kb/tensorrt_facts.py [--facts kb/derivations/wheel_facts.json] [--out kb/derivations/tensorrt.txt]
Needs objdump and nm (binutils). Cache: tests/real/wheelzip.py (TFGPU_PYPI_CACHE).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "real"))
import wheelzip  # noqa: E402

WIDTH = {"b": 1, "w": 2, "l": 4, "q": 8}
LOW8 = {"al": "rax", "cl": "rcx", "dl": "rdx", "bl": "rbx", "sil": "rsi", "dil": "rdi"}


def reg_base(r):
    """The 64-bit register a (sub)register name belongs to."""
    if r in LOW8:
        return LOW8[r]
    m = re.fullmatch(r"r(\d+)[dwb]?", r)
    if m:
        return "r" + m.group(1)
    m = re.fullmatch(r"[er]?([abcd])x", r)
    if m:
        return "r" + m.group(1) + "x"
    m = re.fullmatch(r"[er]?(si|di)", r)
    return "r" + m.group(1) if m else r


def reg_width(r):
    if r in LOW8 or re.fullmatch(r"r\d+b", r):
        return 1
    if re.fullmatch(r"[abcd]x|si|di|r\d+w", r):
        return 2
    if r.startswith("e") or re.fullmatch(r"r\d+d", r):
        return 4
    return 8


def stack_strings(disassembly):
    """Printable runs of the bytes a function stores on its stack as immediates."""
    regs, mem = {}, {}
    for line in disassembly.splitlines():
        m = re.search(r"\tmov([bwlq]?)\s+\$0x([0-9a-f]+),%(\w+)$", line)
        if m:
            regs[reg_base(m.group(3))] = int(m.group(2), 16)
            continue
        m = re.search(r"\tmov([bwlq]?)\s+(\$0x[0-9a-f]+|%\w+),(-?0x[0-9a-f]+)?\(%(rbp|rsp)\)", line)
        if not m:
            continue
        src = m.group(2)
        if src.startswith("$"):
            value, width = int(src[3:], 16), WIDTH.get(m.group(1), 4)
        elif reg_base(src[1:]) in regs:
            value, width = regs[reg_base(src[1:])], WIDTH.get(m.group(1)) or reg_width(src[1:])
        else:
            continue
        off = int(m.group(3) or "0", 16)
        for i in range(width):
            mem[(m.group(4), off + i)] = (value >> (8 * i)) & 0xFF
    runs = []
    for frame in ("rbp", "rsp"):
        cur, prev = b"", None
        for off in sorted(o for f, o in mem if f == frame):
            byte = mem[(frame, off)]
            if prev is not None and off != prev + 1 and cur:
                runs.append(cur.decode())
                cur = b""
            if 32 <= byte < 127:
                cur += bytes([byte])
            elif cur:
                runs.append(cur.decode())
                cur = b""
            prev = off
        if cur:
            runs.append(cur.decode())
    return runs


def rodata_reader(path):
    """A function reading the NUL-terminated string at a virtual address of the file."""
    heads = subprocess.run(["objdump", "-h", path], capture_output=True, text=True, check=True).stdout
    sections = [(int(m.group(2), 16), int(m.group(1), 16), int(m.group(3), 16))
                for m in re.finditer(r"^\s*\d+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", heads, re.M)]
    data = open(path, "rb").read()

    def read(address):
        for vma, size, offset in sections:
            if vma <= address < vma + size:
                start = offset + address - vma
                end = data.find(b"\0", start, start + 64)
                text = data[start:end] if end >= 0 else b""
                return text.decode() if text and all(32 <= b < 127 for b in text) else None
        return None
    return read


def literal_strings(disassembly, read):
    """The short C strings a function takes the address of (lea X(%rip)): older compilers pass
    the name and version to std::string's constructor that way."""
    out = []
    for m in re.finditer(r"\tlea\s+-?0x[0-9a-f]+\(%rip\),%\w+\s+#\s+([0-9a-f]+)", disassembly):
        s = read(int(m.group(1), 16))
        if s is not None:
            out.append(s)
    return out


def loader_strings(path):
    """{"nvinfer": [...], "plugin": [...]}: the strings the two TensorRT loaders build or take."""
    read = rodata_reader(path)
    syms = subprocess.run(["nm", "-D", "--defined-only", "-S", path], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    out = {}
    for line in syms:
        p = line.split()
        m = re.search(r"DsoLoader\d+GetNvInfer(Plugin)?DsoHandleEv$", p[-1]) if len(p) >= 4 else None
        if not m:
            continue
        start, size = int(p[0], 16), int(p[1], 16)
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=%d" % start,
                              "--stop-address=%d" % (start + size), path], capture_output=True, text=True,
                             check=True).stdout
        out["plugin" if m.group(1) else "nvinfer"] = stack_strings(dis) + literal_strings(dis, read)
    return out


def version_of(strings):
    """The TF_TENSORRT_VERSION literal among a loader's strings: digits and dots, or ''."""
    vs = [s for s in strings if re.fullmatch(r"\d+(\.\d+)*", s)]
    return max(vs, key=len) if vs else ""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", default=os.path.join(ROOT, "kb", "derivations", "wheel_facts.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "kb", "derivations", "tensorrt.txt"))
    args = ap.parse_args(argv)
    facts = json.load(open(args.facts))
    lines = ["# made by scripts/kb/tensorrt_facts.py from %s (the kb-row Linux wheels)" % os.path.basename(args.facts),
             "# release | wheel | is_tensorrt_build (build_info) | nvinfer | plugin"]
    for w in facts["wheels"]:
        if w["platform"] != "linux" or w.get("kind") != "kb-row":
            continue
        members = [n for n in wheelzip.list_members(w["url"]) if re.fullmatch(r"tensorflow(_core)?/libtensorflow_framework\.so\.\d+", n)]
        if not members:
            lines.append("%s | %s | no libtensorflow_framework.so in the wheel" % (w["release"], w["filename"]))
            continue
        with tempfile.NamedTemporaryFile(suffix=".so") as tmp:
            tmp.write(wheelzip.read_member(w["url"], members[0]))
            tmp.flush()
            found = loader_strings(tmp.name)
        trt = (w.get("build_info") or {}).get("is_tensorrt_build")
        cells = []
        for key, name in (("nvinfer", "libnvinfer.so"), ("plugin", "libnvinfer_plugin.so")):
            if key not in found:
                cells.append("no loader")
                continue
            v = version_of(found[key])
            cells.append("%s.%s" % (name, v) if v else "%s (no version)" % name)
        lines.append("%s | %s | is_tensorrt_build: %s | %s | %s" % (w["release"], w["filename"], trt, cells[0], cells[1]))
        print(lines[-1], flush=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
