#!/usr/bin/env python3
"""NumPy 2 next to a TensorFlow built against NumPy 1.x (issue 15's first-run rule, issue
14's numpy_abi_mismatch), checked against the real thing: a venv with tensorflow-cpu 2.12.0
(Python 3.11) where NumPy 2.0.2 was forced in afterwards (`pip install --no-deps`, as a later
install of another package does). Real TensorFlow is the oracle: `import tensorflow` must
fail there with NumPy's "compiled using NumPy 1.x" message; `tfgpu doctor --python` must
report numpy_abi_mismatch for it. Fetches tensorflow-cpu 2.12.0 and its dependencies
(~250 MB) and numpy 2.0.2 through pip's cache on the first run; the venv is kept in the
real tier's venv folder (numpy2-tf212) and reused. Then the same for TensorFlow 2.10.1, the
last release with a native-Windows GPU build, whose wheel sets no upper bound on NumPy (so a
plain `pip install tensorflow==2.10.1` brings NumPy 2 today): a hard-linked copy of the real
tier's tf210 venv (numpy2-tf210; the original is never changed) with numpy 2.2.6 installed by
the copy's own python (~20 MB), left out (said so) on a machine without Python 3.10. Exit 77
(skip) without Python 3.11 or network."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import venvs  # noqa: E402

SPEC = "tensorflow-cpu==2.12.0 then numpy==2.0.2 --no-deps"
SPEC_210 = "cp -al of the real tier's tf210 venv, then numpy==2.2.6"


def ensure(venv: str) -> bool:
    marker = os.path.join(venv, "tfgpu-spec.txt")
    if os.path.exists(marker) and open(marker).read() == SPEC:
        return True
    py311 = venvs.find_python("3.11")
    if not py311:
        return False
    subprocess.run(["rm", "-rf", venv], check=False)
    pip = os.path.join(venv, "bin", "pip")
    steps = [[py311, "-m", "venv", venv],
             [pip, "install", "-q", "--disable-pip-version-check", "tensorflow-cpu==2.12.0"],
             [pip, "install", "-q", "--disable-pip-version-check", "--no-deps", "numpy==2.0.2"]]
    for cmd in steps:
        if subprocess.run(cmd).returncode != 0:
            return False
    open(marker, "w").write(SPEC)
    return True


def ensure_tf210(build: str, venv: str):
    """numpy2-tf210: the real tier's tf210 venv (TF 2.10.1 + numpy<2), hard-linked, with NumPy 2
    installed into the copy by the copy's own python (bin/pip's shebang names the original).
    Returns (ready, why not)."""
    marker = os.path.join(venv, "tfgpu-spec.txt")
    base = venvs.venv_dir(build, "tf210")
    base_marker = os.path.join(base, ".tfgpu-ready")

    def spec():  # this copy's spec: the recipe and the tf210 venv's own marker
        return SPEC_210 + "\n" + open(base_marker).read()

    if os.path.exists(marker) and os.path.exists(base_marker) and open(marker).read() == spec():
        return True, "ready"
    rc, why = venvs.ensure(build, "tf210", lambda s: print(s, flush=True))
    if rc != 0:
        return False, why
    subprocess.run(["rm", "-rf", venv], check=False)
    if subprocess.run(["cp", "-al", base, venv]).returncode != 0:
        return False, "cp -al failed"
    os.unlink(os.path.join(venv, ".tfgpu-ready"))  # the copy is not the tf210 venv
    py = os.path.join(venv, "bin", "python")
    if subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--only-binary", ":all:",
                       "numpy==2.2.6"]).returncode != 0:
        return False, "pip install numpy==2.2.6 failed"
    open(marker, "w").write(spec())
    return True, "created"


def check(a, py: str, what: str):
    """Real TF (the oracle) must fail to import with NumPy's own words; doctor --python and explain
    (fed only what the import printed, the user's paste) must both say numpy_abi_mismatch.
    Returns the oracle's result, or None on a failure (printed)."""
    oracle = subprocess.run([py, "-c", "import tensorflow"], capture_output=True, text=True)
    if oracle.returncode == 0 or "compiled using NumPy 1.x" not in oracle.stdout + oracle.stderr:
        print(f"FAIL: {what}: the oracle did not fail as expected (rc {oracle.returncode}); the premise is wrong")
        return None
    r = subprocess.run([os.path.abspath(a.tfgpu), "--json", "doctor", "--python", py], capture_output=True, text=True)
    ids = [f.get("id") for f in json.loads(r.stdout).get("findings", [])]
    if "numpy_abi_mismatch" not in ids:
        print(f"FAIL: {what}: real import fails with NumPy 2, doctor's findings: {ids}")
        return None
    e = subprocess.run([os.path.abspath(a.tfgpu), "explain", "--json", "-"], input=oracle.stdout + oracle.stderr,
                       capture_output=True, text=True)
    top = [f.get("id") for f in json.loads(e.stdout).get("findings", [])][:1]
    if top != ["numpy_abi_mismatch"]:
        print(f"FAIL: {what}: on the real import's output explain's first finding is {top}, not numpy_abi_mismatch")
        return None
    print(f"OK: {what}: real TensorFlow does not import; doctor and explain (on its output) say numpy_abi_mismatch")
    return oracle


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--tfgpu", required=True)
    ap.add_argument("--record", action="store_true",
                    help="also write tests/scenarios/real_numpy2_tf212{,.expect}.json from this real probe")
    a = ap.parse_args()
    venv = venvs.venv_dir(a.build, "numpy2-tf212")
    if not ensure(venv):
        print(f"SKIP: could not make {venv} ({SPEC}): no Python 3.11 or no network")
        return 77
    py = os.path.join(venv, "bin", "python")
    oracle = check(a, py, "TensorFlow 2.12.0 with NumPy 2.0.2")
    if oracle is None:
        return 1
    if a.record:
        record(a, venv, py, oracle)
    venv210 = venvs.venv_dir(a.build, "numpy2-tf210")
    ready, why = ensure_tf210(a.build, venv210)
    if not ready and why.startswith("no python"):  # venvs.ensure's words, as run_real.py reads them
        print(f"LEFT OUT: TensorFlow 2.10.1 with NumPy 2 ({why}); 2.12.0 was checked")
        return 0
    if not ready:
        print(f"SKIP: could not make {venv210} ({SPEC_210}): {why}")
        return 77
    what = "TensorFlow 2.10.1 (as `pip install tensorflow==2.10.1` brings it today) with NumPy 2.2.6"
    return 0 if check(a, os.path.join(venv210, "bin", "python"), what) is not None else 1


def record(a, venv, py, oracle):
    """The scenario for the doctor tests: this real probe, and what real TF did (import failed)."""
    import datetime
    import record_scenarios
    env = {"PATH": "/usr/bin:/bin", "HOME": os.path.expanduser("~"), "LANG": "C.UTF-8"}
    p = subprocess.run([os.path.abspath(a.tfgpu), "probe", "--json", "--python", py], env=env, capture_output=True,
                       text=True, check=True)
    snap = json.loads(p.stdout)
    snap["created_at"] = ""
    words = [l for l in (oracle.stdout + oracle.stderr).splitlines() if "compiled using NumPy 1.x" in l]
    expect = {
        "description": "TF 2.12.0 (tensorflow-cpu) with NumPy 2.0.2 forced in afterwards: import tensorflow fails",
        "provenance": {"kind": "real-probe", "reason": (
            "tfgpu probe --json --python of a real venv (%s) on Debian 12 x86-64 without a GPU, recorded by "
            "tests/real/numpy_abi.py --record on %s; the expectation is what real TensorFlow did there: "
            "`import tensorflow` failed with %r" % (SPEC, datetime.date.today().isoformat(), words[0] if words else ""))},
        "env_contains": venv,
        "tf_verdict": "will_not_use_gpu",
        "libraries": {},
        "findings_include": ["numpy_abi_mismatch"],
    }
    for suffix, data in ((".json", snap), (".expect.json", expect)):
        path = os.path.join(record_scenarios.SCENARIOS, "real_numpy2_tf212" + suffix)
        with open(path, "w") as f:
            f.write(record_scenarios.relocate(json.dumps(data, indent=1, sort_keys=True)) + "\n")
    # What the failed import printed, for explain (tests/explain_real_logs_test.cc).
    with open(os.path.join(record_scenarios.SCENARIOS, "real_numpy2_tf212.tf.log"), "w") as f:
        f.write(record_scenarios.relocate(oracle.stdout + oracle.stderr))
    print("recorded real_numpy2_tf212")


if __name__ == "__main__":
    sys.exit(main())
