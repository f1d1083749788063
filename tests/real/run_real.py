#!/usr/bin/env python3
"""The `real` test tier: doctor's prediction against real TensorFlow, library by library.

For each layout (a real TF venv from PyPI, a driver or none, an LD_LIBRARY_PATH, maybe one
CUDA library hidden in a hard-linked copy of the venv) it
  1. runs `tfgpu doctor --json` in the environment `activate` would give (VIRTUAL_ENV, PATH,
     the same LD_LIBRARY_PATH; the mock driver is found by name through LD_LIBRARY_PATH as
     TF finds it) and reads verdicts[].libraries for that venv;
  2. runs real TensorFlow there (oracle.py; TF_CPP_MIN_LOG_LEVEL=0,
     TF_CPP_VMODULE=dso_loader=1) and reads from TF's own log which libraries it opened and
     which it could not (with TF's words), and from the loader inside the process the file
     each loaded name maps to;
  3. compares them library by library and the verdict (GPU registered or not);
  4. runs `tfgpu explain --json` on TF's log alone (explain_findings, explain_check).
It prints `real-TF agreement: N/M layouts, K/L libraries` and every disagreement, and fails
on a disagreement that is not in EXPLAINED below; then `explain on real TF logs: N/M`, and
fails where explain names a problem although TF registered the GPU, or nothing (or only
harmless messages) although it did not.

Usage: run_real.py --build BUILD --tfgpu TFGPU --mock MOCKDIR [--layout SUBSTR] [--jobs N]
MOCKDIR holds full/{libcuda.so.1,libnvidia-ml.so.1} and cuda_only/libcuda.so.1 (CMake builds them).
Exit: 0 agreement (or only explained disagreements), 1 disagreement, 77 skipped (reason printed).
"""
import argparse
import concurrent.futures
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import venvs  # noqa: E402

SKIP = 77
SYSTEM_CUDA = "/usr/local/cuda/lib64"

# Disagreements that stay, each explained with TF's own words. (layout glob, library file or
# "verdict", TF's words (a substring of what TF logged), why doctor may answer otherwise.)
# Keep it short and true: an entry here is a claim that doctor cannot or need not match TF.
EXPLAINED = [
]

# Disagreements where doctor is known to be WRONG and the fix is still open (issue 12). Same
# form as EXPLAINED. They count as disagreements in the agreement line and are printed as
# such, but do not fail the test, so that the tier guards everything else; a new
# disagreement fails it. Remove an entry as soon as doctor agrees.
KNOWN_WRONG = [
]


def site_packages(venv):
    sp = glob.glob(os.path.join(venv, "lib", "python3.*", "site-packages"))
    return sp[0] if sp else os.path.join(venv, "lib", "site-packages")


def nvidia_lib_dirs(venv):
    return sorted(glob.glob(os.path.join(site_packages(venv), "nvidia", "*", "lib")))


class Layout:
    def __init__(self, name, venv, driver="full", ld_path=None, hide=None, note="", env=None, uses=(), mask=()):
        self.name, self.venv, self.driver = name, venv, driver
        # System folders hidden from doctor and TF alike (an empty folder bind-mounted over each
        # in a mount namespace of their own): a machine that lacks what this one has there.
        self.mask = tuple(mask)
        self.uses = tuple(uses)  # other venvs whose folders ld_path names (set up first)
        self.ld_path = ld_path or (lambda venv_dir: [])  # entries before the mock driver's dir
        self.hide = hide  # path relative to the venv, removed in a hard-linked copy
        self.note = note
        self.env = env or {}  # the mock driver's knobs (mock_driver/*.c), for doctor and TF alike

    def driver_words(self):
        """The mock driver, its knobs and the hidden folders, as provenance says them."""
        return (self.driver + "".join(", %s=%s" % kv for kv in sorted(self.env.items()))
                + "".join(", %s hidden (an empty folder bind-mounted over it)" % d for d in self.mask))

    def venvs(self):
        """Every venv this layout needs: its own and those its ld_path names."""
        return {self.venv, *self.uses}


def no_system_cudnn():
    """A layout without cuDNN means a machine without it: the folders of this machine's
    ld.so.cache that hold one (here /usr/local/cuda-13.0/lib: cuDNN 9) are hidden, where the
    machine allows it, so that neither TF nor doctor meets a cuDNN the layout did not put there."""
    return system_dirs_holding(("libcudnn",)) if can_mask() else []


def base_layouts():
    cu11_path = lambda v: nvidia_lib_dirs(v)  # noqa: E731  the TF 2.12 docs' LD_LIBRARY_PATH
    return [
        Layout("tf221-cuda/as-installed", "tf221-cuda"),
        Layout("tf221-cuda/no-driver", "tf221-cuda", driver="none"),
        Layout("tf221-cuda/no-nvml", "tf221-cuda", driver="cuda_only"),
        Layout("tf221-cuda/system-cuda13-first", "tf221-cuda", ld_path=lambda v: [SYSTEM_CUDA]),
        Layout("tf221-cuda/cusolver-dir-added", "tf221-cuda",
               ld_path=lambda v: [os.path.join(site_packages(v), "nvidia", "cusolver", "lib")]),
        # Every library found, a GPU of compute capability 3.0 (TF 2.21: "Ignoring visible gpu
        # device ... The minimum required Cuda capability is 3.5").
        Layout("tf221-cuda/gpu-cc30", "tf221-cuda", env={"TFGPU_MOCK_CC": "3.0"},
               ld_path=lambda v: [os.path.join(site_packages(v), "nvidia", "cusolver", "lib")]),
        Layout("tf221-plain/mock-driver", "tf221-plain"),
        Layout("tf2161-cuda/as-installed", "tf2161-cuda"),
        # The workaround users were given for 2.16.1 (tensorflow issue 63362): nvidia/*/lib on the path.
        Layout("tf2161-cuda/nvidia-dirs-on-ld-library-path", "tf2161-cuda", ld_path=lambda v: nvidia_lib_dirs(v)),
        Layout("tf212-cu11/docs-ld-library-path", "tf212-cu11", ld_path=cu11_path),
        Layout("tf212-cu11/no-ld-library-path", "tf212-cu11"),
        # TF 2.10 (CUDA 11.2 / cuDNN 8.1 names) with a CUDA 11.8 + cuDNN 8.6 on the path:
        # tf212-cu11's nvidia-*-cu11 wheels stand for a system toolkit of that version.
        Layout("tf210/no-cuda", "tf210"),
        Layout("tf210/cuda118-on-ld-library-path", "tf210", uses=["tf212-cu11"],
               ld_path=lambda v: nvidia_lib_dirs(venv_path("tf212-cu11"))),
        Layout("tf210/cuda118-without-cudnn", "tf210", uses=["tf212-cu11"],
               ld_path=lambda v: [d for d in nvidia_lib_dirs(venv_path("tf212-cu11"))
                                  if os.path.basename(os.path.dirname(d)) != "cudnn"], mask=no_system_cudnn()),
        # TF 1.15's GPU package: CUDA 10.0 and cuDNN 7 names, none of them on this machine.
        Layout("tf115-gpu/mock-driver", "tf115-gpu"),
        # The GPU registered, then TF's profiler started (oracle.py): what CUPTI loads and logs.
        # TF 2.10 asks for libcupti.so.11.2 (CUDA 11.8's wheels have none), then any libcupti.so;
        # TF 2.21 opens the [and-cuda] wheel's libcupti.so.12.
        Layout("tf210/cuda118-profiler", "tf210", uses=["tf212-cu11"],
               ld_path=lambda v: nvidia_lib_dirs(venv_path("tf212-cu11")), env={"TFGPU_ORACLE_PROFILE": "1"}),
        Layout("tf221-cuda/profiler", "tf221-cuda", env={"TFGPU_ORACLE_PROFILE": "1"},
               ld_path=lambda v: [os.path.join(site_packages(v), "nvidia", "cusolver", "lib")]),
    ]


# Which library files are hidden in turn, per base layout: every one for TF 2.21 [and-cuda];
# one for the others (the tier's wall time grows by one TF start per layout): cuDNN for
# TF 2.12, cudart for TF 2.16.1 (the only wheel library its RUNPATHs reach, see README).
HIDE_BASES = {"tf221-cuda/as-installed": "lib*", "tf2161-cuda/as-installed": "libcudart.so*",
              "tf212-cu11/docs-ld-library-path": "libcudnn.so*"}


def hide_layouts(base, tf_opened):
    """One layout per CUDA library file TF opened from the venv in `base` (and nvJitLink,
    which cuSOLVER and cuSPARSE need): the file removed in a hard-linked copy."""
    out = []
    wanted = set()
    for d in nvidia_lib_dirs(venv_path(base.venv)):
        for f in sorted(os.listdir(d)):
            if not fnmatch.fnmatch(f, HIDE_BASES[base.name]):
                continue
            if f in tf_opened or f.startswith("libnvJitLink.so"):
                wanted.add(os.path.relpath(os.path.join(d, f), venv_path(base.venv)))
    for rel in sorted(wanted):
        cudnn = os.path.basename(rel).startswith("libcudnn")
        out.append(Layout("%s/hide-%s" % (base.venv, os.path.basename(rel)), base.venv, driver=base.driver,
                          ld_path=base.ld_path, hide=rel, mask=no_system_cudnn() if cudnn else ()))
    return out


BUILD = None


def venv_path(name):
    return venvs.venv_dir(BUILD, name)


def prepare(layout):
    """The venv dir this layout runs in: the original, or a hard-linked copy minus one file."""
    src = venv_path(layout.venv)
    if not layout.hide:
        return src
    # Beside the venvs: `cp -al` needs the same file system.
    dst = os.path.join(os.path.dirname(venvs.venv_root(BUILD)), "real-layouts", layout.name.replace("/", "__"), layout.venv)
    if os.path.exists(os.path.dirname(dst)):
        shutil.rmtree(os.path.dirname(dst))
    os.makedirs(os.path.dirname(dst))
    subprocess.check_call(["cp", "-al", src, dst])
    os.unlink(os.path.join(dst, layout.hide))  # removes the copy's link only; the original stays
    return dst


def environment(layout, venv, mock):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "LD_", "CUDA_", "VIRTUAL_ENV", "CONDA"))}
    env["VIRTUAL_ENV"] = venv
    env["PATH"] = os.path.join(venv, "bin") + ":/usr/local/bin:/usr/bin:/bin"
    env.pop("PYTHONHOME", None)
    env.pop("PYENV_VERSION", None)
    ld = list(layout.ld_path(venv))
    if layout.driver != "none":
        ld.append(os.path.join(mock, layout.driver))
    if ld:
        env["LD_LIBRARY_PATH"] = ":".join(ld)
    env.update(layout.env)
    return env


def masked(layout, cmd):
    """`cmd` run with layout.mask's folders empty: unshare(1) gives it a user and mount
    namespace of its own, where an empty folder is bind-mounted over each (the machine's files
    stay as they are)."""
    if layout is None or not layout.mask:
        return cmd
    empty = os.path.join(BUILD, "real", "empty")
    os.makedirs(empty, exist_ok=True)
    script = 'e=$1; n=$2; shift 2; while [ "$n" -gt 0 ]; do mount --bind "$e" "$1" || exit 97; shift; n=$((n-1)); done; exec "$@"'
    return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", empty,
            str(len(layout.mask))] + list(layout.mask) + cmd


def system_dirs_holding(prefixes):
    """The folders of this machine's ld.so.cache that hold a library named with one of
    `prefixes` (this machine: cuDNN 9 in /usr/local/cuda-13.0/lib)."""
    try:
        out = subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE, universal_newlines=True).stdout
    except OSError:
        return []
    dirs = set()
    for line in out.splitlines():
        name, _, path = line.strip().partition(" => ")
        if name.startswith(prefixes) and path:
            dirs.add(os.path.dirname(os.path.realpath(path)))
            dirs.add(os.path.dirname(path))
    return sorted(d for d in dirs if os.path.isdir(d))


def can_mask():
    """Whether this machine lets an unprivileged process hide a folder (unshare, user namespaces)."""
    try:
        return subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def run_doctor(tfgpu, env, venv, layout=None):
    p = subprocess.run(masked(layout, [tfgpu, "doctor", "--json"]), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=300)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return None, "doctor printed no JSON (exit %d): %s" % (p.returncode, p.stderr.strip()[-300:])
    for v in j.get("verdicts", []):
        if venv in v.get("env", ""):
            return v, ""
    return None, "no verdict for %s (verdicts: %s)" % (venv, [v.get("env") for v in j.get("verdicts", [])])


OPENED = re.compile(r"dso_loader\.cc:\d+\] Successfully opened dynamic library (\S+)")
PROFILER_STARTED = "Profiler session started"  # profiler_session.cc, TF 2.x
FAILED = re.compile(r"dso_loader\.cc:\d+\] Could not load dynamic library '([^']+)'; dlerror: (.*?)(?:; LD_LIBRARY_PATH: .*)?$")


def run_tf(env, venv, names, log_path, layout=None):
    env = dict(env)
    env.update({"TF_CPP_MIN_LOG_LEVEL": "0", "TF_CPP_VMODULE": "dso_loader=1,cuda_dso_loader=1",
                "TFGPU_MOCK_LOG": log_path + ".mock"})
    if os.path.exists(log_path + ".mock"):
        os.unlink(log_path + ".mock")
    cmd = [os.path.join(venv, "bin", "python"), os.path.join(HERE, "oracle.py")] + names
    p = subprocess.run(masked(layout, cmd), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=900)
    with open(log_path, "w") as f:
        f.write(p.stderr)
    res = {"opened": {}, "failed": {}, "skipped_gpu": "Cannot dlopen some GPU libraries" in p.stderr, "rc": p.returncode,
           "profiler_opened": {}, "profiler_failed": {}}
    # What TF opens to use the GPU, and apart, what its profiler opened once started (CUPTI):
    # doctor predicts the first; the second is for explain to call harmless where the GPU works.
    startup, started, profiling = p.stderr.partition(PROFILER_STARTED)
    for part, opened, failed in ((startup, "opened", "failed"), (profiling if started else "", "profiler_opened",
                                                                  "profiler_failed")):
        for line in part.splitlines():
            m = OPENED.search(line)
            if m:
                res[opened][m.group(1)] = line[line.index("Successfully"):]
                res[failed].pop(m.group(1), None)
            m = FAILED.search(line)
            if m:
                res[failed][m.group(1)] = "Could not load dynamic library '%s'; dlerror: %s" % (m.group(1), m.group(2))
    out = [l for l in p.stdout.splitlines() if l.startswith("@@ORACLE@@")]
    res["oracle"] = json.loads(out[0][len("@@ORACLE@@"):]) if out else {"crash": p.stderr.strip()[-400:]}
    return res


def tf_used_gpu(tf):
    """Whether real TF registered the GPU in a run_tf result."""
    return bool(tf["oracle"].get("physical_gpus")) and not tf["skipped_gpu"]


def same_file(a, b):
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except OSError:
        return a == b


def compare(layout, doc, tf):
    """Rows (file, agree, TF's answer, doctor's answer) and whether the verdicts agree."""
    rows = []
    names = tf["oracle"].get("names", {})
    attempted = set(tf["opened"]) | set(tf["failed"])
    # Did TF get to its CUDA library loading (DsoLoader::TryDlopenCUDALibraries, after the
    # driver initialised)? Only a library of that step says so: libcuda / libnvidia-ml are the
    # driver; TensorRT, and cudart in older releases, are opened at import (TF 2.4.4 with no
    # driver opens libcudart.so.11.0 and nothing more).
    reached_libraries = any(not n.startswith(("libcudart", "libcuda.", "libnvidia-ml", "libnvinfer")) for n in attempted)
    listed = {l["file"]: l for l in doc.get("libraries", [])} if doc else {}
    for f in sorted(attempted | set(listed)):
        d = listed.get(f)
        if f in tf["opened"]:
            path = names.get(f) or ""
            tf_answer = "loaded %s" % (path or "(path not in link map)")
        elif f in tf["failed"]:
            tf_answer = tf["failed"][f]
        else:
            if not reached_libraries:
                continue  # TF stopped before its library loading: nothing to compare
            tf_answer = "TF did not try to load it"
        doc_answer = "not listed" if d is None else "%s %s (%s)" % (d["outcome"], d["path"], d["why"])
        if f in tf["opened"]:
            ok = d is not None and d["outcome"] == "found" and (not names.get(f) or same_file(d["path"], names[f]))
        elif f in tf["failed"]:
            ok = d is not None and d["outcome"] == "not_found"
        else:
            ok = False
        rows.append((f, ok, tf_answer, doc_answer))
    tf_gpu = tf_used_gpu(tf)
    doc_kind = doc["kind"] if doc else "no verdict"
    verdict_ok = (doc_kind == "will_use_gpu") == tf_gpu and doc_kind in ("will_use_gpu", "will_not_use_gpu")
    tf_verdict = "GPU registered" if tf_gpu else ("Cannot dlopen some GPU libraries ... Skipping registering GPU devices"
                                                 if tf["skipped_gpu"] else "no GPU listed")
    rows.append(("verdict", verdict_ok, tf_verdict, doc_kind + (": " + doc["sentence"] if doc else "")))
    return rows


def explained(layout_name, row, table=None):
    f, _, tf_answer, _ = row
    for pat, lib, words, why in (EXPLAINED if table is None else table):
        if fnmatch.fnmatch(layout_name, pat) and fnmatch.fnmatch(f, lib) and words in tf_answer:
            return why
    return None


def explain_findings(tfgpu, log_path):
    """`tfgpu explain --json` fed only TF's own log: ([(id, score)...], "") or (None, why not)."""
    p = subprocess.run([tfgpu, "explain", "--json", log_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
    try:
        return [(f["id"], f["score"]) for f in json.loads(p.stdout).get("findings", [])], ""
    except ValueError:
        return None, "explain printed no JSON (exit %d): %s" % (p.returncode, p.stderr.strip()[-200:])


def explain_check(findings, error, doc, tf):
    """explain_findings' answer against what TF did: (agrees, hard_error, what explain said).
    Agrees: nothing to fix (no finding but harmless_warning_only at likelihood >= 0.5) where TF
    registered the GPU; doctor's first blocker among explain's first three where it did not.
    A hard error: a problem named where TF registered the GPU, "only harmless messages" (or
    nothing) where it did not."""
    if findings is None:
        return False, True, error
    said = " ".join("%s=%.2f" % f for f in findings[:3]) or "(nothing)"
    tf_gpu = tf_used_gpu(tf)
    if tf_gpu:
        ok = all(i == "harmless_warning_only" or s < 0.5 for i, s in findings)
        return ok, not ok, said
    if not findings or findings[0][0] == "harmless_warning_only":
        return False, True, said
    first = ((doc or {}).get("blocker_ids") or [None])[0]
    return first in [i for i, _ in findings[:3]], False, "%s (doctor: %s)" % (said, first)


def run_layout(layout, args, tf_names_hint=None):
    t0 = time.time()
    venv = prepare(layout)
    env = environment(layout, venv, args.mock)
    outdir = os.path.join(BUILD, "real", "out", layout.name.replace("/", "__"))
    os.makedirs(outdir, exist_ok=True)
    doc, err = run_doctor(args.tfgpu, env, venv, layout)
    with open(os.path.join(outdir, "doctor-verdict.json"), "w") as f:
        json.dump(doc or {"error": err}, f, indent=1)
    names = sorted({l["file"] for l in (doc or {}).get("libraries", [])} | set(tf_names_hint or []))
    tf = run_tf(env, venv, names, os.path.join(outdir, "tf.log"), layout)
    # A name TF opened that was not asked about: ld.so names an object found by a path search
    # dir + "/" + the name searched for, so its link-map entry ends with that name.
    for n in set(tf["opened"]) - set(names):
        hits = [p for p in tf["oracle"].get("link_map", []) if os.path.basename(p) == n]
        tf["oracle"].setdefault("names", {})[n] = hits[0] if len(hits) == 1 else None
    with open(os.path.join(outdir, "tf-oracle.json"), "w") as f:
        json.dump(tf, f, indent=1)
    rows = compare(layout, doc, tf)
    if layout.env.get("TFGPU_ORACLE_PROFILE") == "1":
        # A profiler layout whose profiler opened nothing tests nothing: a disagreement.
        seen = ["opened " + f for f in sorted(tf["profiler_opened"])] + [w for _, w in sorted(tf["profiler_failed"].items())]
        rows.insert(0, ("profiler", bool(seen), "; ".join(seen) or "the profiler opened no library (did it start?)",
                        "lists no profiler library (TF needs none to use the GPU)"))
    findings, error = explain_findings(args.tfgpu, os.path.join(outdir, "tf.log"))
    tf["explain_ids"] = [i for i, _ in findings or []]
    tf["explain"] = explain_check(findings, error, doc, tf)
    if layout.hide:
        shutil.rmtree(os.path.dirname(venv), ignore_errors=True)
    return layout, rows, err, tf, time.time() - t0


def main():
    global BUILD
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--tfgpu", required=True)
    ap.add_argument("--mock", required=True)
    ap.add_argument("--layout", default="", help="run only layouts whose name contains this")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    BUILD = os.path.abspath(args.build)
    stale = os.path.join(BUILD, "real", "agreement.txt")
    if not args.layout and os.path.exists(stale):
        os.unlink(stale)  # scripts/real-summary.sh must not print an earlier run's line
    args.mock = os.path.abspath(args.mock)
    args.tfgpu = os.path.abspath(args.tfgpu)
    t_start = time.time()
    base = [l for l in base_layouts()]
    needed = sorted({v for l in base if args.layout in l.name or l.venv in args.layout for v in l.venvs()})
    no_python = set()
    for n in needed:
        rc, why = venvs.ensure(BUILD, n, lambda s: print(s, flush=True))
        print("[real] venv %s: %s" % (n, why), flush=True)
        if rc == SKIP and why.startswith("no python"):
            # This machine lacks that venv's Python (tf210 wants 3.10, tf115-gpu 3.7): its
            # layouts are left out, visibly; the others still run.
            no_python.add(n)
            continue
        if rc == SKIP:
            print("[real] SKIPPED: " + why, flush=True)
            return SKIP
        if rc:
            return rc
    if no_python:
        left_out = [l.name for l in base if l.venvs() & no_python]
        print("[real] LEFT OUT (no Python for %s): %s" % (", ".join(sorted(no_python)), ", ".join(left_out)),
              flush=True)
        base = [l for l in base if not l.venvs() & no_python]
        if not [l for l in base if args.layout in l.name]:
            print("[real] SKIPPED: no layout left", flush=True)
            return SKIP
    t_venvs = time.time() - t_start
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        todo = [l for l in base if args.layout in l.name]
        futures = [pool.submit(run_layout, l, args) for l in todo]
        # The hide-one-library layouts follow from what TF opened as installed.
        extra = []
        for fut in concurrent.futures.as_completed(futures):
            layout, rows, err, tf, secs = fut.result()
            results.append((layout, rows, err, secs, tf["explain"]))
            print("[real] %-40s %5.0f s  %s" % (layout.name, secs, err or ""), flush=True)
            if layout.name in HIDE_BASES:
                for h in hide_layouts(layout, set(tf["opened"])):
                    if args.layout in h.name:
                        extra.append(pool.submit(run_layout, h, args))
        for fut in concurrent.futures.as_completed(extra):
            layout, rows, err, tf, secs = fut.result()
            results.append((layout, rows, err, secs, tf["explain"]))
            print("[real] %-40s %5.0f s  %s" % (layout.name, secs, err or ""), flush=True)
    results.sort(key=lambda r: r[0].name)
    layouts_ok = libs_ok = libs_total = 0
    unexplained = []
    print("\nDisagreements (library | real TF, in TF's words | tfgpu doctor):")
    for layout, rows, err, _, _ in results:
        lib_rows = [r for r in rows if r[0] not in ("verdict", "profiler")]
        libs_total += len(lib_rows)
        libs_ok += sum(1 for r in lib_rows if r[1])
        if all(r[1] for r in rows):
            layouts_ok += 1
        for r in rows:
            if r[1]:
                continue
            why = explained(layout.name, r)
            known = None if why else explained(layout.name, r, KNOWN_WRONG)
            print("  [%s] %s\n      TF:     %s\n      doctor: %s%s%s" % (
                layout.name, r[0], r[2], r[3], "\n      explained: " + why if why else "",
                "\n      KNOWN WRONG (open): " + known if known else ""))
            if not why and not known:
                unexplained.append((layout.name, r[0]))
    line = "real-TF agreement: %d/%d layouts, %d/%d libraries" % (layouts_ok, len(results), libs_ok, libs_total)
    print("\n" + line)
    # explain on the same runs, fed only TF's log (explain_check): a problem named where TF used
    # the GPU, or "nothing to fix" where it did not, fails the tier.
    print("\nexplain on TF's own log (first three findings; doctor's first blocker where TF did not use the GPU):")
    explain_ok = 0
    for layout, _, _, _, (ok, hard, said) in results:
        explain_ok += ok
        print("  [%s] %s %s" % (layout.name, "agrees  " if ok else ("WRONG   " if hard else "differs "), said))
        if hard:
            unexplained.append((layout.name, "explain"))
    explain_line = "explain on real TF logs: %d/%d layouts name doctor's cause in the first three (or nothing to fix " \
                   "where TF used the GPU)" % (explain_ok, len(results))
    print(explain_line)
    if not args.layout:  # the whole tier: keep the lines for CI's summary
        with open(os.path.join(BUILD, "real", "agreement.txt"), "w") as f:
            f.write(line + "\n" + explain_line + "\n")
    print("[real] wall time: %.0f s (venvs %.0f s, layouts %.0f s, %d jobs)" % (
        time.time() - t_start, t_venvs, time.time() - t_start - t_venvs, args.jobs))
    print("[real] logs: %s" % os.path.join(BUILD, "real", "out"))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
