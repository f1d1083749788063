#!/usr/bin/env python3
"""Every TensorFlow release as the oracle, not only the real tier's five.

For each release given: a venv from PyPI (the Python and the pins an old release needs to
import today: venvs.RELEASE_PINS), the real tier's mock driver, and two layouts:
  rel<X.Y>/mock-driver         this machine as it is (its only CUDA: the system CUDA 13 in
                               ld.so.cache), the release's own wheel and nothing else;
  rel<X.Y>/cuda-on-path        the CUDA the release's names ask for on LD_LIBRARY_PATH: the
                               nvidia-* wheel folders of the real tier's venvs (CUDA 11.8 +
                               cuDNN 8.6 from tf212-cu11 for 2.4-2.14, CUDA 12.3 + cuDNN 8.9
                               from tf2161-cuda for 2.15-2.17, CUDA 12.5 + cuDNN 9.3 from
                               tf221-cuda for 2.18 on; none exists on PyPI for CUDA 10, 2.1-2.3).
Each layout: doctor against what real TF loaded, library by library, and explain on TF's own log,
as run_real.py does. With --record, each layout also becomes a scenario
(tests/scenarios/real_rel<XY>_*.{json,expect.json,tf.log}, record_scenarios.record), which ctest
then checks without TF, downloads or venvs. The release's venv is removed afterwards.

With --layouts causes (or all), the layouts each of which makes one cause, for 2.5 on: the
release's CUDA as a system toolkit (a folder of links to the wheel files) and a GPU of compute
capability 3.0 (cc30), no cuDNN (no-cudnn; the machine's own cuDNN folders hidden too,
Layout.mask), or no driver (no-driver). explain must put that cause first on TF's own log; with
--record the log is kept in tests/real_logs (ExplainCauseLog). Results: kb/derivations/release_causes.txt.

Not part of CI's real tier (each release is a ~0.5-1 GB download, 2-4 min): run it when the KB's
release rows change. Results of the last run: kb/derivations/release_sweep.txt.

Usage: release_sweep.py --build BUILD --tfgpu TFGPU --mock MOCKDIR [--layouts base|causes|all] [--record]
                        [--out FILE] VERSION...
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import record_scenarios  # noqa: E402
import run_real  # noqa: E402
import venvs  # noqa: E402

REAL_LOGS = os.path.join(os.path.dirname(HERE), "real_logs")

# Which real-tier venv's nvidia-* wheel folders stand for the CUDA a release's names ask for.
CUDA_FROM = [((2, 4), (2, 14), "tf212-cu11", "CUDA 11.8 + cuDNN 8.6"),
             ((2, 15), (2, 17), "tf2161-cuda", "CUDA 12.3 + cuDNN 8.9"),
             ((2, 18), (2, 99), "tf221-cuda", "CUDA 12.5 + cuDNN 9.3")]


def series(version):
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def layouts_for(version, name):
    s = series(version)
    out = [(run_real.Layout("rel%d.%d/mock-driver" % s, name),
            "TF %s with the mock driver and this machine as it is (its only CUDA: the system CUDA 13 in "
            "ld.so.cache)" % version)]
    for first, last, provider, what in CUDA_FROM:
        if first <= s <= last:
            out.append((run_real.Layout("rel%d.%d/cuda-on-path" % s, name, uses=[provider],
                                        ld_path=lambda v, p=provider: run_real.nvidia_lib_dirs(run_real.venv_path(p))),
                        "TF %s with %s (the %s venv's nvidia-* wheel folders) on LD_LIBRARY_PATH" %
                        (version, what, provider)))
    return out


def toolkit_dir(provider, version_label, without=()):
    """A folder standing for a system CUDA toolkit (/usr/local/cuda-X.Y/lib64): links to every
    library file of `provider`'s nvidia-* wheels, less the components in `without`."""
    d = os.path.join(run_real.BUILD, "real", "toolkits", "cuda-%s%s" % (version_label, "".join("-no-" + w for w in without)),
                     "lib64")
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for lib in run_real.nvidia_lib_dirs(run_real.venv_path(provider)):
        if os.path.basename(os.path.dirname(lib)) in without:
            continue
        for f in sorted(os.listdir(lib)):
            if ".so" in f and not os.path.exists(os.path.join(d, f)):
                os.symlink(os.path.join(lib, f), os.path.join(d, f))
    return d


# Layouts a cause defines, and the finding explain must put first on TF's own log of it:
# (suffix, the cause, toolkit components left out, driver, mock knobs, libraries of the
# machine's own to hide).
CAUSES = [("cc30", "compute_capability_unsupported", (), "full", {"TFGPU_MOCK_CC": "3.0"}, ()),
          ("no-cudnn", "cudnn_missing", ("cudnn",), "full", {}, ("libcudnn",)),
          ("no-driver", "driver_missing", (), "none", {}, ())]


def cause_layouts(version, name):
    s = series(version)
    out = []
    for first, last, provider, what in CUDA_FROM:
        # Not TF 2.4: CUDA 11.8 lacks a name of its CUDA 11.0 (libcusolver.so.10), so every
        # layout would hold that cause as well.
        if not max(first, (2, 5)) <= s <= last:
            continue
        label = what.split()[1]
        for suffix, cause, without, driver, knobs, hide in CAUSES:
            mask = run_real.system_dirs_holding(hide) if hide and run_real.can_mask() else []
            out.append((run_real.Layout("rel%d.%d/%s" % (s + (suffix,)), name, uses=[provider], driver=driver,
                                        env=dict(knobs), mask=mask,
                                        ld_path=lambda v, p=provider, w=without, l=label: [toolkit_dir(p, l, w)]),
                        cause,
                        "TF %s, %s as a system toolkit (links to the %s venv's wheel files) on LD_LIBRARY_PATH%s%s%s%s"
                        % (version, what if not without else what.replace(" + cuDNN", " without cuDNN; cuDNN"),
                           provider, ", no driver" if driver == "none" else "",
                           "".join(", %s=%s" % kv for kv in knobs.items()),
                           "".join(", %s hidden" % d for d in mask), " (cause: %s)" % cause)))
    return out


def doctor_words(rows):
    """run_real.compare's rows in a word: agrees, or where doctor and TF differ."""
    bad = [r for r in rows if not r[1]]
    return "agrees (%d libraries)" % (len(rows) - 1) if not bad else "DIFFERS: " + "; ".join(
        "%s: TF %s / doctor %s" % (r[0], r[2][:90], r[3][:90]) for r in bad)


def check_cause(layout, cause, args):
    """Runs a cause layout; the line for it (explain's first finding must be `cause`) and the run."""
    _, rows, _, tf, _ = run_real.run_layout(layout, args)
    ids = tf["explain_ids"]
    tf_gpu = run_real.tf_used_gpu(tf)
    verdict = "first" if ids[:1] == [cause] else ("top-3" if cause in ids[:3] else "MISSED")
    doctor = doctor_words(rows)
    if tf_gpu:
        # The layout did not make its cause on this machine: TF found what it takes away
        # elsewhere (this machine's ld.so.cache holds cuDNN 9 from /usr/local/cuda-13.0/lib,
        # so TF >= 2.18 finds libcudnn.so.9 there). Not a case of the cause; not recorded.
        where = ", ".join("%s at %s" % (n, path) for n, path in sorted(tf["oracle"].get("names", {}).items())
                          if path and "cudnn" in n)
        return "%s | SKIPPED: TF registered the GPU, so the layout does not hold %s here%s | doctor %s" % (
            layout.name, cause, " (TF found %s)" % where if where else "", doctor), tf
    return "%s | TF %s | doctor %s | explain %s %s: %s" % (
        layout.name, "GPU registered" if tf_gpu else "no GPU", doctor, verdict, cause, " ".join(ids[:3]) or "(nothing)"), tf


def record_log(layout, cause, description, tf_log, tf):
    """tests/real_logs/<name>.tf.log and .expect.json: TF's own log of a cause layout and what
    explain must put first (tests/explain_real_logs_test.cc)."""
    name = "real_" + layout.name.replace("/", "_").replace("-", "_").replace(".", "")
    os.makedirs(REAL_LOGS, exist_ok=True)
    with open(tf_log, errors="replace") as f:
        log = f.read()
    with open(os.path.join(REAL_LOGS, name + ".tf.log"), "w") as f:
        f.write(record_scenarios.relocate(log))
    expect = {"description": description, "cause": cause,
              "tf_verdict": "will_use_gpu" if run_real.tf_used_gpu(tf) else "will_not_use_gpu",
              "provenance": {"kind": "real-tf-log", "reason": (
                  "TensorFlow's own log of tests/real/release_sweep.py layout %s (venv %s: %s), mock driver %s, "
                  "recorded on %s; the cause is what the layout takes away or sets, not tfgpu's output" % (
                      layout.name, layout.venv, " ".join(venvs.VENVS[layout.venv][1]),
                      layout.driver_words(),
                      datetime.date.today().isoformat()))}}
    with open(os.path.join(REAL_LOGS, name + ".expect.json"), "w") as f:
        f.write(record_scenarios.relocate(json.dumps(expect, indent=1, sort_keys=True)) + "\n")


def sweep(version, args, log):
    row = next((r for r in venvs.RELEASE_PINS if version.startswith(r[0])), None)
    if not row:
        return ["%s | no Python known for this release (venvs.RELEASE_PINS)" % version]
    name = "rel-" + version
    venvs.VENVS[name] = (row[1], ["tensorflow==" + version] + row[2],
                         "pip install tensorflow==%s %s" % (version, " ".join('"%s"' % p for p in row[2])))
    # Pins of old releases that PyPI has only as source (gast 0.2.2 for 2.1; termcolor 1.1.0,
    # wrapt 1.12.1 for 2.4-2.6; clang 5.0 for 2.6): pip may build these, nothing else.
    venvs.SDISTS[name] = ["gast", "termcolor", "wrapt", "clang"] if series(version) <= (2, 6) else []
    lines = []
    rc, why = venvs.ensure(run_real.BUILD, name, log)
    if rc:
        return ["%s | venv: %s" % (version, why)]
    try:
        for layout, description in (layouts_for(version, name) if args.layouts in ("base", "all") else []):
            for v in layout.uses:
                rc, why = venvs.ensure(run_real.BUILD, v, log)
                if rc:
                    lines.append("%s | venv %s: %s" % (layout.name, v, why))
                    break
            else:
                _, rows, _, tf, _ = run_real.run_layout(layout, args)
                ok, hard, said = tf["explain"]
                lines.append("%s | TF %s | doctor %s | explain %s: %s" % (
                    layout.name,
                    "GPU registered" if run_real.tf_used_gpu(tf) else
                    ("no GPU (%s)" % tf["oracle"]["import_error"][:80] if "import_error" in tf["oracle"] else "no GPU"),
                    doctor_words(rows), "agrees" if ok else ("WRONG" if hard else "differs"), said))
                if args.record:
                    venv = run_real.prepare(layout)
                    record_scenarios.record(layout, venv, run_real.environment(layout, venv, args.mock), args.tfgpu,
                                            description)
            log(lines[-1])
        for layout, cause, description in (cause_layouts(version, name) if args.layouts in ("causes", "all") else []):
            line, tf = check_cause(layout, cause, args)
            lines.append(line)
            log(line)
            if args.record and "SKIPPED" not in line:
                record_log(layout, cause, description,
                           os.path.join(run_real.BUILD, "real", "out", layout.name.replace("/", "__"), "tf.log"), tf)
    finally:
        shutil.rmtree(venvs.venv_dir(run_real.BUILD, name), ignore_errors=True)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--tfgpu", required=True)
    ap.add_argument("--mock", required=True)
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--layouts", choices=["base", "causes", "all"], default="base",
                    help="base: as the machine is and with CUDA on the path; causes: the layouts a cause defines")
    ap.add_argument("--out")
    ap.add_argument("versions", nargs="+")
    args = ap.parse_args()
    run_real.BUILD = os.path.abspath(args.build)
    args.mock = os.path.abspath(args.mock)
    args.tfgpu = os.path.abspath(args.tfgpu)
    lines = []
    for v in args.versions:
        lines += sweep(v, args, lambda s: print(s, flush=True))
    if args.out:
        with open(args.out, "w") as f:
            f.write("# made by tests/real/release_sweep.py %s on %s (mock driver; doctor vs real TF, explain on TF's "
                    "log)\n" % (" ".join(args.versions), datetime.date.today().isoformat()))
            f.write("\n".join(lines) + "\n")
    return 1 if any("DIFFERS" in l or "WRONG" in l or "MISSED" in l for l in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
