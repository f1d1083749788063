#!/usr/bin/env python3
"""Records doctor scenarios from real probes of real layouts (issue 12: scenarios hold only
what the real probe produces).

For each layout of the real tier (run_real.py: a real TF venv from PyPI, the mock driver or
none, an LD_LIBRARY_PATH) it writes tests/scenarios/real_<layout>.json: `tfgpu probe --json`
run in that environment, unchanged but for created_at; real_<layout>.tf.log: TensorFlow's own
log of the run below; and real_<layout>.expect.json: what
REAL TensorFlow did there (oracle.py): the verdict (GPU registered or not) and, per CUDA
library, whether TF loaded it and from which file. Nothing of the expectation comes from
tfgpu. The scenario test (tests/doctor_scenarios_test.cc) then checks doctor on the recorded
snapshot against TF's answers, without TF, downloads or the venvs.

Usage: record_scenarios.py --build BUILD --tfgpu TFGPU --mock MOCKDIR [--layout SUBSTR]
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_real  # noqa: E402
import venvs  # noqa: E402

SCENARIOS = os.path.join(os.path.dirname(HERE), "scenarios")

# The layouts worth keeping as scenarios (one per kind of answer TF gives).
RECORDED = {
    "tf221-cuda/as-installed": "TF 2.21.0 [and-cuda] as pip installs it",
    "tf221-cuda/cusolver-dir-added": "TF 2.21.0 [and-cuda] with the wheel's nvidia/cusolver/lib on LD_LIBRARY_PATH",
    "tf221-cuda/system-cuda13-first": "TF 2.21.0 [and-cuda] with the system CUDA 13 first on LD_LIBRARY_PATH",
    "tf221-cuda/no-nvml": "TF 2.21.0 [and-cuda], a driver without libnvidia-ml.so.1",
    "tf221-cuda/gpu-cc30": "TF 2.21.0 [and-cuda] with every library found and a GPU of compute capability 3.0",
    "tf221-plain/mock-driver": "TF 2.21.0 without [and-cuda] (no CUDA libraries)",
    "tf2161-cuda/as-installed": "TF 2.16.1 [and-cuda] as pip installs it",
    "tf212-cu11/docs-ld-library-path": "TF 2.12.0 + nvidia-*-cu11 wheels on LD_LIBRARY_PATH (TF 2.12 docs)",
    "tf210/cuda118-on-ld-library-path": "TF 2.10.1 (built for CUDA 11.2 / cuDNN 8.1) with CUDA 11.8 + cuDNN 8.6 on "
                                        "LD_LIBRARY_PATH",
    "tf210/no-cuda": "TF 2.10.1 with no CUDA 11 anywhere",
    "tf210/cuda118-without-cudnn": "TF 2.10.1 with CUDA 11.8's wheel folders on LD_LIBRARY_PATH but no cuDNN (TF's "
                                   "dlerror lists the nvidia/*/lib folders it searched)",
    "tf115-gpu/mock-driver": "tensorflow-gpu 1.15.5 with no CUDA 10.0 / cuDNN 7 anywhere",
    "tf210/cuda118-profiler": "TF 2.10.1 with CUDA 11.8 + cuDNN 8.6 on LD_LIBRARY_PATH, then one op under TF's profiler "
                              "(CUPTI: libcupti.so.11.2 not found, any libcupti.so opened)",
    "tf221-cuda/profiler": "TF 2.21.0 [and-cuda] with every library found, then one op under TF's profiler (CUPTI: the "
                           "wheel's libcupti.so.12)",
}

# Finding ids a layout is defined by (what was taken away), where real TF's answer agrees:
# no libnvidia-ml.so.1 and TF 2.21 lists no GPU; a compute capability 3.0 GPU that TF 2.21
# ignores.
FINDINGS_INCLUDE = {"tf221-cuda/no-nvml": ["nvml_missing"], "tf221-cuda/gpu-cc30": ["compute_capability_unsupported"]}


def findings_from_tf(layout_name, tf):
    """Findings doctor must include, from what real TF did: the layout's own, and
    tensorrt_not_found wherever TF failed to open a TensorRT library (its TF-TRT warning)."""
    out = list(FINDINGS_INCLUDE.get(layout_name, []))
    if any(f.startswith("libnvinfer") for f in tf["failed"]):
        out.append("tensorrt_not_found")
    return out


# Recorded files name no path of the recording machine: its home directory (where the venvs
# and pyenv live) becomes HOME_AS, the build folder (the mock driver's) BUILD_AS; the snapshot
# and its expectation move together, and doctor reads only the snapshot, so the scenario
# means the same.
HOME_AS = "/home/user"
BUILD_AS = "/build"


def relocate(text, home=None, build=None):
    build = (build or run_real.BUILD or "").rstrip("/")
    if build:
        text = text.replace(build + "/", BUILD_AS + "/")
    home = (home or os.path.expanduser("~")).rstrip("/")
    if not home or home == HOME_AS:
        return text
    return text.replace(home + "/", HOME_AS + "/").replace('"%s"' % home, '"%s"' % HOME_AS)


def record(l, venv, env, tfgpu, description):
    """Records layout `l` (its venv `venv`, environment `env`) as tests/scenarios/real_<name>.*;
    returns the scenario name, or None when tfgpu probe fails."""
    today = datetime.date.today().isoformat()
    # The layout's hidden folders (Layout.mask) are hidden from the probe, doctor and TF alike.
    p = subprocess.run(run_real.masked(l, [tfgpu, "probe", "--json"]), env=env, stdout=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        print("record_scenarios: tfgpu probe failed in %s (exit %d)" % (l.name, p.returncode))
        return None
    snap = json.loads(p.stdout)
    snap["created_at"] = ""
    doc, err = run_real.run_doctor(tfgpu, env, venv, l)
    names = sorted({x["file"] for x in (doc or {}).get("libraries", [])})
    tf_log = os.path.join(run_real.BUILD, "real", "record-%s.log" % l.name.replace("/", "__"))
    tf = run_real.run_tf(env, venv, names, tf_log, l)
    libs = {}
    for f, words in sorted(tf["opened"].items()):
        libs[f] = {"tf": "loaded", "path": tf["oracle"].get("names", {}).get(f) or "", "words": words}
    for f, words in sorted(tf["failed"].items()):
        libs[f] = {"tf": "failed", "words": words}
    gpu = run_real.tf_used_gpu(tf)
    spec = " ".join(venvs.VENVS[l.venv][1])
    expect = {
        "description": description,
        "provenance": {"kind": "real-probe", "reason": (
            "tfgpu probe --json of tests/real layout %s (venv %s: %s) on Debian 12 x86-64 without a GPU, driver = "
            "the real tier's mock (%s), recorded by tests/real/record_scenarios.py on %s; expectations are what "
            "real TensorFlow logged and mapped in the same environment (oracle.py), not tfgpu's output"
            % (l.name, l.venv, spec, l.driver_words(), today))},
        "env_contains": venv,
        "tf_verdict": "will_use_gpu" if gpu else "will_not_use_gpu",
        "libraries": libs,
    }
    if tf["profiler_opened"] or tf["profiler_failed"]:
        # What the profiler opened once started: not what TF needs for the GPU (doctor is
        # not asked about it); explain must call its messages harmless.
        expect["profiler_libraries"] = dict(
            [(f, {"tf": "loaded", "words": w}) for f, w in sorted(tf["profiler_opened"].items())] +
            [(f, {"tf": "failed", "words": w}) for f, w in sorted(tf["profiler_failed"].items())])
    include = findings_from_tf(l.name, tf)
    if include:
        expect["findings_include"] = include
    name = "real_" + l.name.replace("/", "_").replace("-", "_").replace(".", "")
    for suffix, data in ((".json", snap), (".expect.json", expect)):
        with open(os.path.join(SCENARIOS, name + suffix), "w") as f:
            f.write(relocate(json.dumps(data, indent=1, sort_keys=True)) + "\n")
    # TensorFlow's own log of that run, for explain (tests/explain_real_logs_test.cc).
    with open(tf_log, errors="replace") as f:
        log = f.read()
    with open(os.path.join(SCENARIOS, name + ".tf.log"), "w") as f:
        f.write(relocate(log))
    print("recorded %s: TF %s, %d libraries" % (name, expect["tf_verdict"], len(libs)))
    return name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--tfgpu", required=True)
    ap.add_argument("--mock", required=True)
    ap.add_argument("--layout", default="")
    args = ap.parse_args()
    run_real.BUILD = os.path.abspath(args.build)
    args.mock = os.path.abspath(args.mock)  # as run_real.py: tfgpu's children drop relative LD_LIBRARY_PATH elements
    layouts = [l for l in run_real.base_layouts() if l.name in RECORDED and args.layout in l.name]
    for l in layouts:
        rc, why = venvs.ensure(run_real.BUILD, l.venv, lambda s: print(s, flush=True))
        if rc:
            print("record_scenarios: venv %s: %s" % (l.venv, why))
            return rc
    for l in layouts:
        venv = run_real.prepare(l)
        if record(l, venv, run_real.environment(l, venv, args.mock), args.tfgpu, RECORDED[l.name]) is None:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
