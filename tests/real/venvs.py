#!/usr/bin/env python3
"""Creates the `real` tier's TensorFlow venvs under BUILD/real/venvs, idempotently.

Each venv is pinned (tests/real/constraints/NAME.txt, written from `pip freeze` of a first
install) and created once: a `.tfgpu-ready` marker holding the spec says it is complete, and a
lock file (flock) keeps two concurrent runs from installing the same venv. A rerun with the
marker in place costs nothing. Downloads go through pip's own cache (~/.cache/pip).

Usage: venvs.py BUILD_DIR [NAME ...]     (no NAME: every venv)
Exit 0: ready; 77: skipped (no suitable Python, or PyPI unreachable: the reason is printed).
"""
import fcntl
import glob
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

# name: (python minor, pip requirements, how it is set up)
VENVS = {
    "tf221-cuda": ("3.11", ["tensorflow[and-cuda]==2.21.0"],
                   "pip install \"tensorflow[and-cuda]\" (TF 2.21 docs, pip.md)"),
    "tf221-plain": ("3.11", ["tensorflow==2.21.0"], "pip install tensorflow (no CUDA wheels)"),
    "tf2161-cuda": ("3.11", ["tensorflow[and-cuda]==2.16.1"], "pip install \"tensorflow[and-cuda]\"==2.16.1"),
    # CUDA 11 era: TF 2.12's pip.md said `conda install -c conda-forge cudatoolkit=11.8.0`,
    # `pip install nvidia-cudnn-cu11==8.6.0.163 tensorflow==2.12.*` and
    # `export LD_LIBRARY_PATH=$CONDA_PREFIX/lib/:$CUDNN_PATH/lib:$LD_LIBRARY_PATH`.
    # Without conda, the CUDA 11.8 toolkit libraries come from NVIDIA's -cu11 wheels (the
    # versions TF 2.14.0's [and-cuda] extra pins) and every nvidia/*/lib goes on LD_LIBRARY_PATH.
    "tf212-cu11": ("3.11", ["tensorflow==2.12.0", "nvidia-cudnn-cu11==8.6.0.163",
                            "nvidia-cuda-runtime-cu11==11.8.89", "nvidia-cublas-cu11==11.11.3.6",
                            "nvidia-cufft-cu11==10.9.0.58", "nvidia-curand-cu11==10.3.0.86",
                            "nvidia-cusolver-cu11==11.4.1.48", "nvidia-cusparse-cu11==11.7.5.86"],
                   "TF 2.12 docs: cudatoolkit 11.8 + nvidia-cudnn-cu11==8.6.0.163 on LD_LIBRARY_PATH "
                   "(toolkit from nvidia-*-cu11 wheels)"),
    # The last release with a native-Windows GPU build (its Linux wheel here; CUDA 11.2 /
    # cuDNN 8.1 names, met by tf212-cu11's CUDA 11.8 wheels). Its requirements have no upper
    # bound on NumPy: a plain `pip install tensorflow==2.10.1` today brings NumPy 2, with
    # which the import fails ("_pywrap_bfloat16 ... Unable to convert function return value"),
    # so `numpy<2`, as users must.
    "tf210": ("3.10", ["tensorflow==2.10.1", "numpy<2"], "pip install tensorflow==2.10.1 \"numpy<2\""),
    # TF 1.x: the GPU build is its own package, CUDA 10.0 / cuDNN 7 names (none on PyPI, so
    # only failing layouts). Today's protobuf breaks its import ("Descriptors cannot not be
    # created directly"): protobuf 3.20.3, the fix protobuf's message names. gast 0.2.2, which
    # it pins, exists only as a (pure-Python) sdist.
    "tf115-gpu": ("3.7", ["tensorflow-gpu==1.15.5", "protobuf==3.20.3"],
                  "pip install tensorflow-gpu==1.15.5 protobuf==3.20.3"),
}

# Per TF release: (release prefix, Python, the pins an old release needs to import with today's
# PyPI). Found by installing each (scripts/kb/tensorrt_at_import.py, tests/real/release_sweep.py).
RELEASE_PINS = [
    ("2.1.", "3.7", ["numpy<1.19", "protobuf<3.20", "h5py<3", "gast==0.2.2"]),
    ("2.2.", "3.8", ["numpy<1.19", "protobuf<3.20", "h5py<3"]),
    ("2.3.", "3.8", ["numpy<1.19", "protobuf<3.20", "h5py<3"]),
    ("2.4.", "3.8", ["numpy<1.20", "protobuf<3.20"]),
    ("2.5.", "3.9", ["numpy<1.20", "protobuf<3.20"]),
    ("2.6.", "3.9", ["numpy<1.20", "protobuf<3.20", "keras<2.7"]),
    ("2.7.", "3.9", ["numpy<1.22", "protobuf<3.20", "keras<2.8"]),
    ("2.8.", "3.10", ["numpy<1.24", "protobuf<3.20", "keras<2.9"]),
    ("2.9.", "3.10", ["numpy<1.24", "protobuf<3.20"]),
    ("2.10.", "3.10", ["numpy<2"]),
    ("2.11.", "3.10", ["numpy<2"]),
    ("2.12.", "3.11", ["numpy<2"]),
    ("2.13.", "3.11", ["numpy<2"]),
    ("2.14.", "3.11", ["numpy<2"]),
    ("2.15.", "3.11", ["numpy<2"]),
    ("2.16.", "3.12", ["numpy<2"]),
    ("2.17.", "3.12", ["numpy<2"]),
    ("2.18.", "3.12", []),
    ("2.19.", "3.12", []),
    ("2.20.", "3.13", []),
    ("2.21.", "3.13", []),
]

# Pure-Python packages a venv's pins exist for only as source distributions (pip builds them;
# everything else must be a wheel).
SDISTS = {"tf115-gpu": ["gast"]}


def find_python(minor):
    """python3.X: $TFGPU_REAL_PYTHON<X.Y without dot>, then PATH, then pyenv's versions."""
    env = os.environ.get("TFGPU_REAL_PYTHON" + minor.replace(".", ""))
    if env:
        return env
    for cand in [shutil.which("python" + minor)] + sorted(
            glob.glob(os.path.expanduser("~/.pyenv/versions/%s.*/bin/python%s" % (minor, minor))), reverse=True):
        if cand and os.path.exists(cand) and "/shims/" not in cand:
            return cand
    return None


def venv_root(build):
    """Where the venvs live: $TFGPU_REAL_VENVS, else ~/.cache/tfgpu-tests/real-venvs, outside
    the clone. Not the build folder: pip's HTTP cache stores nothing here (the package host
    answers without Cache-Control/ETag), so venvs in a fresh clone's build folder would fetch
    about 9 GB again on every CI run. A venv is reused only while its marker matches its spec."""
    if os.environ.get("TFGPU_REAL_VENVS"):
        return os.environ["TFGPU_REAL_VENVS"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "tfgpu-tests", "real-venvs")


def venv_dir(build, name):
    return os.path.join(venv_root(build), name)


def spec_of(name):
    minor, reqs, how = VENVS[name]
    cons = os.path.join(HERE, "constraints", name + ".txt")
    pins = open(cons).read() if os.path.exists(cons) else ""
    return {"python": minor, "requirements": reqs, "how": how, "constraints": pins}


def ensure(build, name, log):
    d = venv_dir(build, name)
    os.makedirs(os.path.dirname(d), exist_ok=True)
    marker = os.path.join(d, ".tfgpu-ready")
    spec = spec_of(name)
    with open(d + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(marker):
            try:
                if json.load(open(marker)) == spec:
                    return 0, "ready"
            except ValueError:
                pass
        python = find_python(spec["python"])
        if not python:
            return SKIP, "no python%s found (set TFGPU_REAL_PYTHON%s)" % (spec["python"], spec["python"].replace(".", ""))
        t0 = time.time()
        log("[real] setting up %s with %s: %s" % (d, python, " ".join(spec["requirements"])))
        if not os.path.exists(os.path.join(d, "bin", "python")):
            # An interrupted install is resumed (pip skips what is there); a new venv otherwise.
            subprocess.check_call([python, "-m", "venv", d])
        # Can pip reach the index at all? (A refused connection surfaces only as "no versions".)
        probe = subprocess.run([os.path.join(d, "bin", "python"), "-m", "pip", "index", "versions", "tensorflow"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if probe.returncode != 0:
            last = (probe.stdout.strip().splitlines() or ["no output"])[-1]
            return SKIP, "pip could not reach the package index (pip index versions tensorflow: %s)" % last
        cmd = [os.path.join(d, "bin", "python"), "-m", "pip", "install", "--progress-bar", "off",
               "--only-binary", ":all:"] + ["--no-binary=" + n for n in SDISTS.get(name, [])] + spec["requirements"]
        cons = os.path.join(HERE, "constraints", name + ".txt")
        if os.path.exists(cons):
            cmd += ["-c", cons]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        for line in p.stdout.splitlines():
            # What is fetched (and from where: pip says "Using cached" for its cache).
            if line.lstrip().startswith(("Downloading", "Using cached", "Collecting")) or "ERROR" in line:
                log("[real]   " + line.strip())
        if p.returncode != 0:
            unreachable = any(w in p.stdout for w in ("NewConnectionError", "Could not fetch URL",
                                                      "Temporary failure in name resolution",
                                                      "No matching distribution found", "ProxyError"))
            if unreachable:
                return SKIP, "pip could not reach PyPI for %s (pip exit %d)" % (name, p.returncode)
            return 1, "pip install failed for %s (exit %d)" % (name, p.returncode)
        json.dump(spec, open(marker, "w"))
        log("[real] %s ready in %.0f s" % (name, time.time() - t0))
        return 0, "created"


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    build, names = argv[1], argv[2:] or list(VENVS)
    worst = 0
    for n in names:
        if n not in VENVS:
            print("venvs.py: unknown venv %s (known: %s)" % (n, ", ".join(VENVS)))
            return 2
        rc, why = ensure(build, n, lambda s: print(s, flush=True))
        print("[real] %s: %s" % (n, why), flush=True)
        if rc == SKIP:
            return SKIP
        worst = max(worst, rc)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv))
