#!/usr/bin/env python3
"""A user's project venv is found without activation (issue 15, first run): the real venv
with TensorFlow 2.21.0 (`tf221-plain`, made by the real tier's venvs.py) is linked as
.venv in a temporary project folder; `tfgpu doctor --json`, run from a sub-folder with no
VIRTUAL_ENV / CONDA_PREFIX set, must report that environment with its TensorFlow.
Exit 77 (skip) when the venv does not exist yet (venvs.py creates it; nothing is fetched here)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import venvs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--tfgpu", required=True)
    a = ap.parse_args()
    a.tfgpu = os.path.abspath(a.tfgpu)
    venv = venvs.venv_dir(a.build, "tf221-plain")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(os.path.join(venv, "pyvenv.cfg")) or not os.path.exists(py):
        print(f"SKIP: no real venv at {venv} (run the real tier's venvs.py first)")
        return 77
    want = subprocess.run([py, "-c", "import importlib.metadata as m; print(m.version('tensorflow'))"],
                          capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as proj:
        os.symlink(venv, os.path.join(proj, ".venv"))
        sub = os.path.join(proj, "src", "model")
        os.makedirs(sub)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONHOME")}
        env["PATH"] = "/usr/bin:/bin"
        r = subprocess.run([a.tfgpu, "--json", "doctor"], cwd=sub, env=env, capture_output=True, text=True)
        if r.returncode not in (0, 1):
            print(f"FAIL: tfgpu doctor exited {r.returncode}: {r.stderr.strip()}")
            return 1
        doc = json.loads(r.stdout)
        text = json.dumps(doc)
        if want and want in text and ".venv" in text:
            print(f"OK: doctor found {proj}/.venv (TensorFlow {want}) from {sub} without activation")
            return 0
        print(f"FAIL: doctor did not report the project's .venv with TensorFlow {want}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
