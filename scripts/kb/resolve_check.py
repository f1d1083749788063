#!/usr/bin/env python3
"""Resolves TensorFlow requirements with pip's real resolver, from metadata only, and prints what
pip would install (numpy, protobuf, keras, ml-dtypes, the nvidia-* wheels, ...).

Each target is REQUIREMENT@PYTHON[@win_amd64], e.g. 'tensorflow==2.14.1@3.11',
'tensorflow[and-cuda]==2.21.0@3.11', 'tensorflow==2.10.1@3.10@win_amd64'. Linux targets run
`pip --python <that CPython> install --dry-run --ignore-installed --only-binary=:all: --report`
(the CPython from ~/.pyenv/versions/X.Y.*, or $TFGPU_PYTHON_X_Y); Windows targets add
`--platform win_amd64 --python-version X.Y --target <tmp>`. The index is a local PEP 658 proxy
(tests/real/pypi_meta_proxy.py): with pip >= 25.3 nothing but metadata is downloaded (older pip
downloads the chosen wheels after resolving, pypa/pip#12603).

Usage: scripts/kb/resolve_check.py [--pip PIP] [--md FILE] TARGET...
Exit: 0 every target resolved, 1 some did not (pip's error is printed), 2 bad usage.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "real"))
import pypi_meta_proxy  # noqa: E402
import wheelzip  # noqa: E402
from plans import find_python  # noqa: E402  (the target CPython, as the plans test finds it)

SHOW = ("tensorflow", "tensorflow-intel", "numpy", "protobuf", "keras", "tf-keras", "ml-dtypes", "h5py",
        "nvidia-nccl-cu12", "nvidia-cudnn-cu12", "nvidia-cudnn-cu11", "tensorrt")


def resolve(pip, index, target):
    parts = target.split("@")
    if len(parts) not in (2, 3) or not re.fullmatch(r"3\.\d+", parts[1]):
        raise SystemExit("resolve_check: bad target %r (want REQ@3.X[@win_amd64])" % target)
    req, py = parts[0], parts[1]
    plat = parts[2] if len(parts) == 3 else "linux"
    with tempfile.TemporaryDirectory(prefix="tfgpu-resolve-") as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = list(pip)
        if plat == "linux":
            python = find_python(py)
            if not python:
                return {"target": target, "error": "no CPython %s found (~/.pyenv or $TFGPU_PYTHON_%s)" % (py, py.replace(".", "_"))}
            cmd += ["--python", python]
        cmd += ["install", "--dry-run", "--ignore-installed", "--only-binary=:all:", "--no-cache-dir",
                "--disable-pip-version-check", "--quiet", "--report", report, "--index-url", index + "/simple"]
        if plat != "linux":
            cmd += ["--platform", plat, "--python-version", py, "--target", os.path.join(tmp, "t")]
        cmd.append(req)
        env = dict(os.environ)
        env.pop("PIP_FIND_LINKS", None)
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        dt = time.monotonic() - t0
        if p.returncode != 0:
            err = [l for l in p.stderr.splitlines() if l.strip()]
            return {"target": target, "seconds": round(dt, 1), "error": " | ".join(err[-3:]) or "pip exit %d" % p.returncode,
                    "command": " ".join(cmd)}
        with open(report) as f:
            r = json.load(f)
    chosen = {pypi_meta_proxy.normalize(i["metadata"]["name"]): i["metadata"]["version"] for i in r["install"]}
    return {"target": target, "seconds": round(dt, 1), "pip": r.get("pip_version"), "chosen": chosen}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pip", default=None, help="pip command (default: this Python's -m pip)")
    ap.add_argument("--md", default=None, help="also write a Markdown table to FILE")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args(argv[1:])
    pip = args.pip.split() if args.pip else [sys.executable, "-m", "pip"]
    results = []
    with pypi_meta_proxy.MetaProxy() as url:
        for t in args.targets:
            res = resolve(pip, url, t)
            results.append(res)
            if "error" in res:
                print("%s: FAILED (%s s): %s" % (t, res.get("seconds"), res["error"]), flush=True)
            else:
                ch = res["chosen"]
                shown = ["%s %s" % (n, ch[n]) for n in SHOW if n in ch]
                print("%s: %s s, pip %s: %s" % (t, res["seconds"], res["pip"], ", ".join(shown)), flush=True)
    print("resolved: %d/%d; range requests %d (%d bytes)" % (
        sum("error" not in r for r in results), len(results), wheelzip.stats["requests"], wheelzip.stats["bytes"]))
    if args.md:
        pipv = next((r["pip"] for r in results if r.get("pip")), "?")
        L = ["# What pip's resolver chooses today for TensorFlow targets (metadata only)", "",
             "Made by `scripts/kb/resolve_check.py %s` on %s with pip %s through the local PEP 658 proxy" % (
                 " ".join("'%s'" % t for t in args.targets), time.strftime("%Y-%m-%d", time.gmtime()), pipv),
             "(tests/real/pypi_meta_proxy.py; no wheel downloaded). Target: REQUIREMENT@PYTHON[@PLATFORM]; Linux",
             "targets resolve for that real CPython (`pip --python`), Windows ones with `--platform win_amd64",
             "--python-version`. Versions are what PyPI offered that day: rerun for today.", "",
             "| target | seconds | numpy | protobuf | keras | ml-dtypes | nvidia-nccl-cu12 | nvidia-cudnn |",
             "|---|---|---|---|---|---|---|---|"]
        for r in results:
            if "error" in r:
                L.append("| `%s` | %s | FAILED: %s | | | | | |" % (r["target"], r.get("seconds"), r["error"]))
                continue
            c = r["chosen"]
            L.append("| `%s` | %s | %s | %s | %s | %s | %s | %s |" % (
                r["target"], r["seconds"], c.get("numpy", "—"), c.get("protobuf", "—"), c.get("keras", "—"),
                c.get("ml-dtypes", "—"), c.get("nvidia-nccl-cu12", "—"),
                c.get("nvidia-cudnn-cu12", c.get("nvidia-cudnn-cu11", "—"))))
        with open(args.md, "w") as f:
            f.write("\n".join(L) + "\n")
    return 0 if all("error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
