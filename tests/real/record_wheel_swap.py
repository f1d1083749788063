#!/usr/bin/env python3
"""Records what a user pastes when another package's NVIDIA wheel has replaced one that
TensorFlow's [and-cuda] pinned (issue 14: explain's fixtures come from real runs).

In a hard-linked copy of a real-tier venv (`cp -al`; the venv itself is never changed), pip
installs one wheel over the pinned one (default: nvidia-cudnn-cu12 9.1, as a PyTorch next to
TF 2.16.1 brings it). Real TensorFlow then runs twice with the same LD_LIBRARY_PATH (every
nvidia/*/lib, the workaround of tensorflow issue 63362) and the mock driver: in the venv as
installed (it must register the GPU) and in the copy (it must not). What a reporter would
paste, `pip list` (the NVIDIA and TensorFlow rows) and TensorFlow's own log of the copy, is
written to tests/real_logs/<name>.tf.log and the cause to <name>.expect.json, for
ExplainCauseLog (tests/explain_real_logs_test.cc).

Fetches: the one wheel named (nvidia-cudnn-cu12 9.1.0.70 is about 660 MB; pip's cache).
Usage: record_wheel_swap.py --build BUILD --mock MOCKDIR [--venv tf2161-cuda]
       [--wheel nvidia-cudnn-cu12==9.1.0.70] [--name real_wheel_tf2161_cudnn9]
       [--cause cudnn_version_mismatch]
Exit: 0 recorded, 1 TF did not do what the layout means, 77 skipped (reason printed).
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import record_scenarios  # noqa: E402
import run_real  # noqa: E402
import venvs  # noqa: E402

REAL_LOGS = os.path.join(os.path.dirname(HERE), "real_logs")
LIST_GPUS = "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))"


def run_tf(venv, mock):
    env = dict(os.environ, LD_LIBRARY_PATH=":".join(run_real.nvidia_lib_dirs(venv) + [mock]), TF_CPP_MIN_LOG_LEVEL="0")
    p = subprocess.run([os.path.join(venv, "bin", "python"), "-c", LIST_GPUS], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def pip_rows(venv):
    p = subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "list", "--disable-pip-version-check"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    lines = p.stdout.splitlines()
    keep = [l for l in lines[:2]] + [l for l in lines[2:] if l.lower().startswith(("nvidia-", "tensorflow"))]
    return "\n".join(keep)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--mock", required=True, help="folder holding full/libcuda.so.1 (CMake builds it)")
    ap.add_argument("--venv", default="tf2161-cuda")
    ap.add_argument("--wheel", default="nvidia-cudnn-cu12==9.1.0.70")
    ap.add_argument("--name", default="real_wheel_tf2161_cudnn9")
    ap.add_argument("--cause", default="cudnn_version_mismatch")
    a = ap.parse_args()
    rc, why = venvs.ensure(a.build, a.venv, print)
    if rc:
        print("SKIPPED: %s" % why)
        return rc
    venv = venvs.venv_dir(a.build, a.venv)
    mock = os.path.join(os.path.abspath(a.mock), "full")
    work = tempfile.mkdtemp(prefix="tfgpu-swap-")
    try:
        copy = os.path.join(work, a.venv)
        subprocess.check_call(["cp", "-al", venv, copy])
        p = subprocess.run([os.path.join(copy, "bin", "python"), "-m", "pip", "install", "--no-deps", "--progress-bar",
                            "off", a.wheel], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            print("SKIPPED: pip install %s failed:\n%s" % (a.wheel, p.stdout[-2000:]))
            return 77
        _, before, _ = run_tf(venv, mock)
        _, after, log = run_tf(copy, mock)
        if "GPU:0" not in before:
            print("FAIL: TF in %s as installed did not register the mock GPU: %s" % (a.venv, before.strip()))
            return 1
        if "GPU:0" in after:
            print("FAIL: TF still registered the GPU with %s: nothing to record" % a.wheel)
            return 1
        text = "$ pip list\n%s\n\n$ python -c \"%s\"\n%s%s" % (pip_rows(copy), LIST_GPUS, log, after)
        text = record_scenarios.relocate(text.replace(work + "/", "/venvs/"), build=os.path.abspath(a.build))
        with open(os.path.join(REAL_LOGS, a.name + ".tf.log"), "w") as f:
            f.write(text)
        expect = {
            "cause": a.cause,
            "description": "%s (real TF, every nvidia/*/lib on LD_LIBRARY_PATH) with %s installed over the wheel "
                           "its [and-cuda] pins; pip list's NVIDIA/TensorFlow rows, then TF's own log (cause: %s)"
                           % (a.venv, a.wheel, a.cause),
            "provenance": {
                "kind": "real-tf-log",
                "reason": "tests/real/record_wheel_swap.py on %s: in the venv as installed TF registered the mock "
                          "GPU, with %s it did not; the cause is what the layout changes, not tfgpu's output"
                          % (datetime.date.today().isoformat(), a.wheel),
            },
            "tf_verdict": "will_not_use_gpu",
        }
        with open(os.path.join(REAL_LOGS, a.name + ".expect.json"), "w") as f:
            f.write(json.dumps(expect, indent=1, sort_keys=True) + "\n")
        print("recorded %s: as installed %s; with %s %s" % (a.name, before.strip(), a.wheel, after.strip()))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
