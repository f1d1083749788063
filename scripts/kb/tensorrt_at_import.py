#!/usr/bin/env python3
"""Does `import tensorflow` (and listing the GPUs) try to open TensorRT? Asked of real TF.

For each release given, in a throw-away venv of a Python the release supports:
  pip install tensorflow==X (plus the pins an old release needs to import today), then
  python -c "import tensorflow as tf; tf.config.list_physical_devices('GPU')"
with TF_CPP_MIN_LOG_LEVEL=0, TF_CPP_VMODULE=dso_loader=1, no CUDA library and no driver on the
search path. Prints one line per release: the TensorRT files TF tried ("-" for none) and the
TF-TRT warning it printed, if any. The venv is removed afterwards (pip's cache keeps the wheels).

Usage: scripts/kb/tensorrt_at_import.py VERSION... [--out FILE]   (~0.5 GB download per release)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "real"))
from venvs import RELEASE_PINS as PYTHONS  # noqa: E402  (release prefix, python, pins to import today)

TRIED = re.compile(r"(?:Could not load dynamic library|Successfully opened dynamic library) '?(libnvinfer[\w.]*)")
WARN = re.compile(r"(?:TF-TRT Warning: )?(?:Cannot dlopen some TensorRT libraries|Could not find TensorRT)")


def python_for(minor):
    for v in sorted(os.listdir(os.path.expanduser("~/.pyenv/versions"))):
        if v.startswith(minor + "."):
            return os.path.expanduser("~/.pyenv/versions/%s/bin/python%s" % (v, minor))
    return shutil.which("python" + minor)


def check(version):
    row = next((r for r in PYTHONS if version.startswith(r[0])), None)
    if not row:
        return "%s | no Python known for this release" % version
    py = python_for(row[1])
    if not py:
        return "%s | no python%s here" % (version, row[1])
    tmp = tempfile.mkdtemp(prefix="trt-")
    try:
        subprocess.run([py, "-m", "venv", tmp + "/v"], check=True)
        pip = [tmp + "/v/bin/python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        p = subprocess.run(pip + ["tensorflow==" + version] + row[2], capture_output=True, text=True)
        if p.returncode:
            return "%s | pip failed: %s" % (version, p.stderr.strip().splitlines()[-1:])
        env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "CUDA_HOME")}
        env.update(TF_CPP_MIN_LOG_LEVEL="0", TF_CPP_VMODULE="dso_loader=1")
        p = subprocess.run([tmp + "/v/bin/python", "-c",
                            "import tensorflow as tf; print('TF', tf.__version__); tf.config.list_physical_devices('GPU')"],
                           capture_output=True, text=True, env=env, cwd=tmp, timeout=600)
        if "TF " + version not in p.stdout:
            return "%s | import failed (rc %d): %s" % (version, p.returncode, p.stderr.strip()[-300:].replace("\n", " "))
        tried = sorted(set(TRIED.findall(p.stderr)))
        warn = sorted(set(WARN.findall(p.stderr)))
        return "%s | python %s | tried: %s | %s" % (version, row[1], " ".join(tried) or "-", "; ".join(warn) or "no TensorRT warning")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("versions", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    lines = []
    for v in args.versions:
        lines.append(check(v))
        print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("# made by scripts/kb/tensorrt_at_import.py %s\n" % " ".join(args.versions))
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
