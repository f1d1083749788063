#!/usr/bin/env python3
"""Every plan tfgpu emits, resolved against the real package index by pip's own resolver.

1. Emits plans with the real tfgpu: every TF release in the KB from 2.0 on (`tfgpu matrix
   --json`) x the Python the plan picks, for native Linux, WSL2, Docker, and native Windows
   for TF <= 2.10; plus the four plans of issue 13. A plan tfgpu refuses (exit 1, status not
   "ok", e.g. no GPU build on native Windows) is "no plan" with tfgpu's reason.
2. Resolves each emitted requirements.txt with pip >= 25.3 (a venv of its own under
   ~/.cache/tfgpu-tests/pip-resolver) through the local PEP 658 proxy (pypi_meta_proxy.py),
   from metadata only: `pip install --dry-run --ignore-installed --only-binary=:all: --report`.
   A requirement PyPI has only as an sdist (gast 0.2.2, termcolor 1.1.0, wrapt 1.12.1, ...) is
   built as a real install would build it (build_sdist) and offered with --find-links.
   Linux/WSL2 targets run in the plan's real CPython (`pip --python`, ~/.pyenv or
   $TFGPU_PYTHON_X_Y); where that CPython is older than the newest pip supports, or the target
   is native Windows, pip runs in the resolver venv with `--python-version X.Y --platform TAG
   --target DIR` and the target's environment markers (pip_as_target.py). Docker plans have no
   pip requirements: their FROM image tag is looked up on Docker Hub when it is reachable.
3. Checks environment.yml: its pip list equals requirements.txt's requirements, its python
   equals the lock's, and pip's choice of TensorFlow is the lock's.
Prints one line per target and `plans resolved: N/M` (M: plans emitted with pip
requirements), written to BUILD/real/plans.txt.

With --install N it also installs N plans for real (one TF >= 2.18 [and-cuda], one TF < 2.18
first) into throwaway venvs from a persistent wheelhouse (~/.cache/tfgpu-tests/wheels:
`pip download -d`, then `pip install --no-index --find-links`), runs `import tensorflow` and
the plan's verify.py, and prints `plans installed and imported: N/M` (BUILD/real/installs.txt).

Usage: plans.py --build BUILD --tfgpu TFGPU [--only SUBSTR] [--jobs 4] [--install N]
Exit: 0 every plan resolved (and installed), 1 not, 2 tfgpu or setup error, 77 PyPI unreachable.
"""
import argparse
import concurrent.futures
import fcntl
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pypi_meta_proxy  # noqa: E402
import wheelzip  # noqa: E402

SKIP = 77
GPU = "RTX 3060"
LINUX_DRIVER = "560.35"
WINDOWS_DRIVER = "560.94"
# The four plans of issue 13 ("the four plans above"), as its acceptance re-emits them.
ISSUE_PLANS = [
    ("issue/linux-rtx4090-550", ["--os", "linux", "--gpu", "4090", "--driver", "550.54"]),
    ("issue/wsl2-rtx3080", ["--os", "windows", "--gpu", "RTX 3080", "--driver", "560.94", "--target", "wsl2"]),
    ("issue/win10-rtx3060-522", ["--os", "windows", "--gpu", "RTX 3060", "--driver", "522.06"]),
    ("issue/linux-gtx1080-470", ["--os", "linux", "--gpu", "GTX 1080", "--driver", "470.82"]),
]
# Oldest Python the resolver's pip runs in (pip 26.3: Requires-Python >=3.10); older targets are
# resolved with --python-version and their markers (pip_as_target.py).
PIP_MIN_PYTHON = (3, 10)
# Linux wheel tags of a glibc 2.17+ x86_64 machine (this machine has glibc 2.36) for targets
# resolved with --platform; pip expands manylinux2014 to manylinux2010 and manylinux1 itself.
LINUX_PLATFORMS = ["manylinux2014_x86_64"] + ["manylinux_2_%d_x86_64" % n for n in range(36, 4, -1)] + ["linux_x86_64"]
SHOW_NVIDIA = ("nvidia-cudnn-cu12", "nvidia-cudnn-cu11", "nvidia-nccl-cu12", "nvidia-nccl-cu11")


def cache_root():
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tfgpu-tests")


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- small parsers

def read_requirements(path):
    """The requirement lines of requirements.txt (comments and blanks dropped)."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def _yaml_scalar(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        return s[1:-1]
    return s


def parse_environment_yml(path):
    """The subset tfgpu writes: name, channels, dependencies (scalars and one `pip:` list).
    Returns {"name", "channels": [...], "dependencies": [...], "pip": [...]}; raises ValueError
    on a line outside that subset."""
    res = {"name": None, "channels": [], "dependencies": [], "pip": None}
    section = None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            indent = len(line) - len(line.lstrip(" "))
            text = line.strip()
            if indent == 0:
                key, sep, val = text.partition(":")
                if not sep:
                    raise ValueError("%s:%d: not `key: value`: %r" % (path, n, text))
                if key == "name":
                    res["name"] = _yaml_scalar(val)
                elif key in ("channels", "dependencies") and not val.strip():
                    section = key
                else:
                    raise ValueError("%s:%d: unexpected top-level key %r" % (path, n, key))
                continue
            if not text.startswith("- "):
                raise ValueError("%s:%d: not a list item: %r" % (path, n, text))
            item = text[2:].strip()
            if section == "channels" and indent == 2:
                res["channels"].append(_yaml_scalar(item))
            elif section == "dependencies" and indent == 2:
                if item.rstrip() == "pip:":
                    res["pip"] = []
                else:
                    res["dependencies"].append(_yaml_scalar(item))
            elif section == "dependencies" and indent > 2 and res["pip"] is not None:
                res["pip"].append(_yaml_scalar(item))
            else:
                raise ValueError("%s:%d: unexpected item %r" % (path, n, text))
    return res


def lock_value(path, section, key):
    """A string value from tfgpu.lock.toml (tomllib where Python has it, else the flat subset)."""
    try:
        import tomllib
        with open(path, "rb") as f:
            return str(tomllib.load(f).get(section, {}).get(key, ""))
    except ImportError:
        pass
    cur = None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*\[([^\]]+)\]\s*$", line)
            if m:
                cur = m.group(1)
                continue
            m = re.match(r'\s*%s\s*=\s*"([^"]*)"' % re.escape(key), line)
            if m and cur == section:
                return m.group(1)
    return ""


# ---------------------------------------------------------------- plans

class Target:
    def __init__(self, name, args, platform):
        self.name, self.args, self.platform = name, args, platform  # platform: linux|windows|docker
        self.status = None  # "plan" | "no plan" | "tfgpu error"
        self.reason = ""
        self.tf = self.python = self.method = ""
        self.out = None
        self.requirements = []
        self.env_problems = []
        self.result = None  # resolution dict
        self.tf_problems = []
        self.docker_image = ""
        self.docker = None  # (ok|None, text)


def kb_releases(tfgpu):
    p = subprocess.run([tfgpu, "matrix", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
    if p.returncode != 0:
        raise SystemExit("plans: tfgpu matrix --json failed (exit %d): %s" % (p.returncode, p.stderr.strip()))
    rels = []
    for r in json.loads(p.stdout)["tensorflow"]:
        major, minor = (int(x) for x in r["series"].split(".")[:2])
        if (major, minor) >= (2, 0):
            rels.append(((major, minor), r["series"]))
    return [s for _, s in sorted(set(rels))]


def targets_for(series_list):
    out = []
    for s in series_list:
        out.append(Target("linux/" + s, ["--os", "linux", "--gpu", GPU, "--driver", LINUX_DRIVER, "--tf", s], "linux"))
        out.append(Target("wsl2/" + s, ["--os", "windows", "--gpu", GPU, "--driver", WINDOWS_DRIVER,
                                        "--target", "wsl2", "--tf", s], "linux"))
        out.append(Target("docker/" + s, ["--os", "linux", "--gpu", GPU, "--driver", LINUX_DRIVER,
                                          "--target", "docker", "--tf", s], "docker"))
        if tuple(int(x) for x in s.split(".")) <= (2, 10):
            out.append(Target("windows/" + s, ["--os", "windows", "--gpu", GPU, "--driver", WINDOWS_DRIVER,
                                               "--target", "native", "--tf", s], "windows"))
    for name, args in ISSUE_PLANS:
        plat = "windows" if "windows" in args and "wsl2" not in args and "docker" not in args else "linux"
        out.append(Target(name, args, plat))
    return out


def emit(tfgpu, t, root):
    t.out = os.path.join(root, t.name.replace("/", "__"))
    shutil.rmtree(t.out, ignore_errors=True)
    p = subprocess.run([tfgpu, "plan"] + t.args + ["--out", t.out, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        j = None
    if j is None or p.returncode not in (0, 1):
        t.status, t.reason = "tfgpu error", "exit %d: %s" % (p.returncode, (p.stderr.strip() or p.stdout.strip())[-300:])
        return
    c = j.get("chosen") or {}
    if p.returncode != 0 or j.get("status") != "ok":
        t.status = "no plan"
        t.reason = "; ".join(j.get("explanation") or []) or "status %s, exit %d" % (j.get("status"), p.returncode)
        return
    t.status = "plan"
    t.tf, t.python, t.method = c.get("tensorflow", ""), c.get("python", ""), c.get("method", "")
    req = os.path.join(t.out, "requirements.txt")
    if os.path.exists(req):
        t.requirements = read_requirements(req)
    check_environment_yml(t)


def check_environment_yml(t):
    lock = os.path.join(t.out, "tfgpu.lock.toml")
    yml = os.path.join(t.out, "environment.yml")
    lock_py = lock_value(lock, "versions", "python")
    if lock_py != t.python:
        t.env_problems.append("lock python %r, plan JSON %r" % (lock_py, t.python))
    if not os.path.exists(yml):
        if t.requirements:
            t.env_problems.append("requirements.txt but no environment.yml")
        return
    try:
        env = parse_environment_yml(yml)
    except ValueError as e:
        t.env_problems.append("environment.yml: %s" % e)
        return
    pys = [d for d in env["dependencies"] if re.match(r"python(\s*[=<>!~]|$)", d)]
    if pys != ["python=" + lock_py]:
        t.env_problems.append("environment.yml python %s, lock python %s" % (pys, lock_py))
    if (env["pip"] or []) != t.requirements:
        t.env_problems.append("environment.yml pip %s != requirements.txt %s" % (env["pip"], t.requirements))
    if env["pip"] is not None and "pip" not in env["dependencies"]:
        t.env_problems.append("environment.yml has a pip: list without the pip package")


# ---------------------------------------------------------------- resolution

def find_python(ver):
    env = os.environ.get("TFGPU_PYTHON_" + ver.replace(".", "_"))
    if env:
        return env
    cands = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/%s.*/bin/python3" % ver)),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", p.split("/versions/")[1].split("/")[0])])
    return cands[-1] if cands else None


def full_version(ver):
    py = find_python(ver)
    m = re.search(r"/versions/(\d+\.\d+\.\d+)/", py or "")
    return m.group(1) if m else ver + ".0"


def target_markers(platform, ver):
    """PEP 508 marker values of a CPython `ver` on x86_64 Linux or 64-bit Windows 10."""
    full = full_version(ver)
    m = {"python_version": ver, "python_full_version": full, "implementation_name": "cpython",
         "implementation_version": full, "platform_python_implementation": "CPython"}
    if platform == "windows":
        m.update({"os_name": "nt", "sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64",
                  "platform_release": "10", "platform_version": "10.0.19045"})
    else:
        m.update({"os_name": "posix", "sys_platform": "linux", "platform_system": "Linux",
                  "platform_machine": "x86_64"})
    return m


def ensure_resolver():
    """pip >= 25.3 (metadata-only --dry-run, pypa/pip#13482) in its own venv, created once."""
    d = os.path.join(cache_root(), "pip-resolver")
    py = os.path.join(d, "bin", "python")
    os.makedirs(cache_root(), exist_ok=True)
    with open(d + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(d, ".tfgpu-ready")):
            return py
        base = None
        for cand in [sys.executable, shutil.which("python3")] + sorted(
                glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[0-9].*/bin/python3")), reverse=True):
            if not cand:
                continue
            v = subprocess.run([cand, "-c", "import sys; print(sys.version_info[:2] >= (3, 10))"],
                               stdout=subprocess.PIPE, universal_newlines=True)
            if v.stdout.strip() == "True":
                base = cand
                break
        if not base:
            raise RuntimeError("no Python >= 3.10 for the resolver venv (pip 26 needs it)")
        log("[plans] creating the resolver venv %s with %s: python -m venv, pip install -U 'pip>=25.3'" % (d, base))
        subprocess.check_call([base, "-m", "venv", "--clear", d])
        p = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off",
                            "-U", "pip>=25.3"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        for line in p.stdout.splitlines():
            if line.lstrip().startswith(("Downloading", "Using cached", "Successfully installed")) or "ERROR" in line:
                log("[plans]   " + line.strip())
        if p.returncode != 0:
            raise RuntimeError("pip install -U 'pip>=25.3' failed in %s (exit %d)" % (d, p.returncode))
        open(os.path.join(d, ".tfgpu-ready"), "w").close()
    return py


def pip_error(stderr):
    """pip's words, on one line: the ERROR lines (less the 'Ignored versions' preamble) and
    a conflict's explanation."""
    keep, in_conflict = [], False
    for line in stderr.splitlines():
        s = line.strip()
        if not s:
            in_conflict = False
            continue
        if s.startswith("ERROR:") and "Ignored the following" not in s:
            keep.append(s[len("ERROR:"):].strip())
        elif s.startswith("The conflict is caused by"):
            in_conflict = True
        elif in_conflict:
            keep.append(s)
    if not keep:
        lines = [l.strip() for l in stderr.splitlines() if l.strip()]
        keep = lines[-2:]
    m = re.search(r"No matching distribution found for ([A-Za-z0-9._-]+)(==|~=)([^\s;,()]+)", stderr)
    if m:
        keep.append(sdist_note(m.group(1), m.group(2), m.group(3)))
    return " | ".join(k for k in keep if k) or "no message"


def _matches(op, want, v):
    """v satisfies `op want` for op == or ~= (PEP 440 compatible release, release segments only)."""
    if op == "==":
        return v.lower() == want.lower()
    w = want.split(".")
    parts = re.match(r"[\d.]+", v)
    if not parts:
        return False
    got = parts.group(0).rstrip(".").split(".")
    try:
        return got[:len(w) - 1] == w[:-1] and [int(x) for x in got] >= [int(x) for x in w]
    except ValueError:
        return False


def pypi_files(name, op, version):
    """[(version, file name)] of PyPI's files for name OP version (the proxy's cached page)."""
    links = pypi_meta_proxy.parse_links(pypi_meta_proxy.fetch_simple_page(name))
    files = []
    for f, _, _ in links:
        if f.endswith(".whl"):
            n, v = f.split("-")[:2]
        else:
            base = re.sub(r"\.(tar\.gz|tar\.bz2|zip|tgz)$", "", f)
            n, _, v = base.rpartition("-")
        if pypi_meta_proxy.normalize(n) == pypi_meta_proxy.normalize(name) and _matches(op, version, v):
            files.append((v, f))
    return files


def sdist_note(name, op, version):
    """What PyPI has for name OP version: '' or e.g. '[PyPI has gast 0.2.2 as an sdist only: ...]'."""
    try:
        files = [f for _, f in pypi_files(name, op, version)]
    except pypi_meta_proxy.IndexError_ as e:
        return "(%s)" % e
    wheels = [f for f in files if f.endswith(".whl")]
    if files and not wheels:
        return "[PyPI has %s%s%s as an sdist only: %s]" % (name, op, version, ", ".join(files))
    if wheels:
        return "[PyPI's %s%s%s wheels: %s]" % (name, op, version, ", ".join(sorted(
            "-".join(w[:-4].split("-")[-3:]) for w in wheels)) + "".join(
            "; sdist " + f for f in files if not f.endswith(".whl")))
    return ""


NO_MATCH = re.compile(r"No matching distribution found for ([A-Za-z0-9._-]+)(==|~=)([^\s;,()]+)")
_build_lock = threading.Lock()
BUILD_FAILURE_TTL = 86400


def _vkey(v):
    return [int(x) if x.isdigit() else -1 for x in re.split(r"[.+-]", v)]


def build_sdist(index, name, op, version, ver, no_compiler=False):
    """What a real `pip install` does with a requirement PyPI has no usable wheel for: builds the
    newest matching sdist (PEP 517, with the target's CPython) into a wheel, kept in
    ~/.cache/tfgpu-tests/sdist-wheels (a failure is remembered for a day). Returns (wheel path or
    None, text). no_compiler: as on a Windows machine without MSVC (CC/CXX fail), where a
    setup.py with an optional C extension falls back to pure Python (wrapt 1.12.1 does: checked
    with CC=/bin/false, it builds wrapt-1.12.1-py3-none-any.whl)."""
    sdists = [(v, f) for v, f in pypi_files(name, op, version) if not f.endswith(".whl")]
    if not sdists:
        return None, "no sdist of %s%s%s on PyPI" % (name, op, version)
    v, _ = max(sdists, key=lambda x: _vkey(x[0]))
    out = os.path.join(cache_root(), "sdist-wheels")
    os.makedirs(out, exist_ok=True)
    norm = pypi_meta_proxy.normalize(name)
    cp = "cp" + ver.replace(".", "")
    failed = os.path.join(out, ".failed-%s-%s-%s%s" % (norm, v, cp, "-nocc" if no_compiler else ""))
    with _build_lock:
        for w in os.listdir(out):
            # A pure-Python wheel serves every target; a CPython extension only its own Python.
            if w.endswith(".whl") and pypi_meta_proxy.normalize(w.split("-")[0]) == norm and w.split("-")[1] == v \
                    and (w.endswith("-none-any.whl") or (w.split("-")[-3] == cp and not no_compiler)):
                return os.path.join(out, w), "built earlier"
        try:
            if time.time() - os.path.getmtime(failed) < BUILD_FAILURE_TTL:
                return None, open(failed).read().strip()
        except OSError:
            pass
        python = find_python(ver) or sys.executable
        with tempfile.TemporaryDirectory(prefix="tfgpu-sdist-") as tmp:
            p = subprocess.run([python, "-m", "pip", "wheel", "--disable-pip-version-check", "--use-pep517",
                                "--no-deps", "--no-binary", name, "--no-cache-dir", "-w", tmp, "--index-url",
                                index + "/simple", "%s==%s" % (name, v)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True, timeout=900,
                               env=dict(os.environ, CC="/bin/false", CXX="/bin/false") if no_compiler else None)
            wheels = [w for w in os.listdir(tmp) if w.endswith(".whl")]
            if p.returncode != 0 or not wheels:
                lines = [l.strip() for l in p.stdout.splitlines() if l.strip()]
                cause = [l for l in lines if re.search(r"No matching distribution|Could not find a version|"
                                                       r"Failed to establish|Could not fetch", l)]
                errs = [l for l in lines if re.search(r"error|Error|ERROR", l)]
                text = "building %s %s from its sdist failed (pip wheel exit %d): %s" % (
                    name, v, p.returncode, " | ".join(re.sub(r"<[^>]*>|Retry\([^)]*\)", "", l) for l in cause[:1] + (errs or lines)[-1:])[:500])
                with open(failed, "w") as f:
                    f.write(text + "\n")
                return None, text
            w = wheels[0]
            shutil.move(os.path.join(tmp, w), os.path.join(out, w))
            return os.path.join(out, w), "built now"


def resolve(resolver_py, index, platform, ver, requirements):
    """pip's choice for requirements on (platform, CPython ver): {"chosen": {...}, "mode",
    "built": [...]} or {"error": pip's words}. Binary wheels only, as --platform/--python-version
    require; a requirement PyPI has only as an sdist is built as a real install would build it
    (build_sdist) and offered to pip with --find-links."""
    built = []
    with tempfile.TemporaryDirectory(prefix="tfgpu-plans-") as tmp:
        links = os.path.join(tmp, "built")
        os.makedirs(links)
        for _ in range(6):
            res = _resolve_once(resolver_py, index, platform, ver, requirements, tmp, links)
            res["built"] = built
            m = NO_MATCH.search(res.get("stderr", ""))
            if "error" not in res or not m:
                break
            try:
                wheel, text = build_sdist(index, m.group(1), m.group(2), m.group(3), ver,
                                          no_compiler=platform == "windows")
            except pypi_meta_proxy.IndexError_ as e:
                wheel, text = None, str(e)
            if wheel and platform == "windows" and not wheel.endswith(("-py3-none-any.whl", "-py2.py3-none-any.whl")):
                wheel, text = None, ("%s's sdist builds a CPython extension here (%s), no pure-Python wheel: on "
                                     "Windows pip builds it on the user's machine (a C compiler, MSVC), which this "
                                     "Linux check cannot do" % (m.group(1), os.path.basename(wheel)))
            if not wheel or os.path.basename(wheel) in os.listdir(links):
                res["error"] += " | " + (text if wheel is None else "the wheel built from %s's sdist (%s) does not "
                                         "fit this target" % (m.group(1), os.path.basename(wheel)))
                break
            os.symlink(wheel, os.path.join(links, os.path.basename(wheel)))
            built.append("%s %s" % (m.group(1), os.path.basename(wheel).split("-")[1]))
    res.pop("stderr", None)
    return res


def _resolve_once(resolver_py, index, platform, ver, requirements, tmp, links):
    req = os.path.join(tmp, "requirements.txt")
    with open(req, "w") as f:
        f.write("\n".join(requirements) + "\n")
    report = os.path.join(tmp, "report.json")
    if os.path.exists(report):
        os.unlink(report)
    common = ["install", "--dry-run", "--ignore-installed", "--only-binary=:all:", "--no-cache-dir",
              "--disable-pip-version-check", "--quiet", "--report", report, "--index-url", index + "/simple",
              "--find-links", links, "-r", req]
    vt = tuple(int(x) for x in ver.split("."))
    python = find_python(ver) if platform == "linux" else None
    if platform == "linux" and python and vt >= PIP_MIN_PYTHON:
        cmd = [resolver_py, "-m", "pip", "--python", python] + common
        mode = "CPython %s" % full_version(ver)
    else:
        plats = ["win_amd64"] if platform == "windows" else LINUX_PLATFORMS
        cmd = [resolver_py, os.path.join(HERE, "pip_as_target.py"), json.dumps(target_markers(platform, ver)),
               "--"] + common + ["--python-version", ver, "--target", os.path.join(tmp, "t")]
        for p in plats:
            cmd += ["--platform", p]
        mode = "%s --python-version %s" % ("win_amd64" if platform == "windows" else "manylinux", ver)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=env,
                       timeout=1200)
    dt = time.monotonic() - t0
    if p.returncode != 0:
        return {"error": pip_error(p.stderr), "stderr": p.stderr, "seconds": dt, "mode": mode, "command": cmd}
    with open(report) as f:
        r = json.load(f)
    chosen = {pypi_meta_proxy.normalize(i["metadata"]["name"]): i["metadata"]["version"] for i in r["install"]}
    return {"chosen": chosen, "seconds": dt, "mode": mode, "pip": r.get("pip_version")}


def docker_tag(image):
    """(True|False|None, text): does Docker Hub list the image's tag (None: not reachable)."""
    repo, _, tag = image.partition(":")
    url = "https://hub.docker.com/v2/repositories/%s/tags/%s" % (repo, tag or "latest")
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"User-Agent": "tfgpu-tests"}), timeout=10):
            return True, "tag found"
    except urllib.error.HTTPError as e:
        return (False, "Docker Hub: HTTP 404, no such tag") if e.code == 404 else (None, "Docker Hub: HTTP %d" % e.code)
    except (urllib.error.URLError, OSError) as e:
        return None, "Docker Hub unreachable (%s)" % getattr(e, "reason", e)


def pypi_reachable():
    try:
        with urllib.request.urlopen(urllib.request.Request("https://pypi.org/simple/pip/",
                                                           headers={"User-Agent": "tfgpu-tests"}), timeout=20) as r:
            r.read(1)
        return ""
    except (urllib.error.URLError, OSError) as e:
        return str(getattr(e, "reason", e))


# ---------------------------------------------------------------- report

def tf_chosen(t):
    c = t.result.get("chosen", {})
    for n in ("tensorflow", "tensorflow-gpu", "tensorflow-intel", "tensorflow-cpu"):
        if n in c:
            return "%s %s" % (n, c[n])
    return "no tensorflow"


def line_for(t):
    head = "%-28s TF %-7s py %-5s" % (t.name, t.tf or "-", t.python or "-")
    if t.status != "plan":
        return "%s %s: %s" % (head, t.status.upper() if t.status == "tfgpu error" else "no plan", t.reason)
    if t.platform == "docker":
        return "%s docker image %s: %s" % (head, t.docker_image, (t.docker or (None, "not checked"))[1])
    if not t.requirements:
        return "%s no requirements.txt (method %s): nothing to resolve" % (head, t.method)
    r = t.result
    if "error" in r:
        return "%s FAILED (%s, %.0f s): %s" % (head, r["mode"], r["seconds"], r["error"])
    c = r["chosen"]
    nv = ", ".join("%s %s" % (n, c[n]) for n in SHOW_NVIDIA if n in c) or "no nvidia wheels"
    problems = t.env_problems + t.tf_problems
    built = ("; sdist built: " + ", ".join(r["built"])) if r.get("built") else ""
    return "%s %s: numpy %s, %s (%s, %.0f s%s)%s" % (
        head, "ok" if not problems else "FAILED", c.get("numpy", "-"), nv, r["mode"], r["seconds"], built,
        (": " + "; ".join(problems)) if problems else "")


def check_tf_choice(t):
    """pip's TensorFlow is the lock's version."""
    t.tf_problems = []
    if "chosen" not in t.result:
        return
    pkg = lock_value(os.path.join(t.out, "tfgpu.lock.toml"), "versions", "package") or "tensorflow"
    got = t.result["chosen"].get(pypi_meta_proxy.normalize(pkg))
    if got != t.tf:
        t.tf_problems.append("pip chose %s %s, the lock says %s" % (pkg, got, t.tf))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--tfgpu", required=True)
    ap.add_argument("--only", default="", help="only targets whose name contains this")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--install", type=int, default=0, help="also install N plans for real (0: none)")
    args = ap.parse_args(argv[1:])
    t_start = time.time()
    build = os.path.abspath(args.build)
    tfgpu = os.path.abspath(args.tfgpu)
    real = os.path.join(build, "real")
    os.makedirs(real, exist_ok=True)
    summary = os.path.join(real, "plans.txt")
    # scripts/real-summary.sh must not print an earlier run's line.
    for stale, ours in ((summary, not args.only), (os.path.join(real, "installs.txt"), args.install > 0)):
        if ours and os.path.exists(stale):
            os.unlink(stale)
    why = pypi_reachable()
    if why:
        log("[plans] SKIPPED: PyPI unreachable (https://pypi.org/simple/pip/: %s)" % why)
        return SKIP

    targets = [t for t in targets_for(kb_releases(tfgpu)) if args.only in t.name]
    root = os.path.join(real, "plans")
    os.makedirs(root, exist_ok=True)
    for t in targets:
        emit(tfgpu, t, root)
        if t.status == "plan" and os.path.exists(os.path.join(t.out, "Dockerfile")) and t.platform == "docker":
            m = re.search(r"^FROM\s+(\S+)", open(os.path.join(t.out, "Dockerfile")).read(), re.M)
            t.docker_image = m.group(1) if m else "(no FROM line)"
    errors = [t for t in targets if t.status == "tfgpu error"]
    to_resolve = [t for t in targets if t.status == "plan" and t.requirements and t.platform != "docker"]
    dockers = [t for t in targets if t.status == "plan" and t.platform == "docker"]
    log("[plans] %d targets: %d plans with pip requirements, %d Docker plans, %d no plan, %d tfgpu errors" % (
        len(targets), len(to_resolve), len(dockers), sum(t.status == "no plan" for t in targets), len(errors)))

    try:
        resolver = ensure_resolver()
    except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
        log("[plans] resolver venv: %s" % e)
        return 2
    t_setup = time.time() - t_start
    # Identical (platform, python, requirements) are resolved once.
    keyed = {}
    with pypi_meta_proxy.MetaProxy() as index, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {}
        for t in to_resolve:
            key = (t.platform, t.python, tuple(t.requirements))
            if key not in keyed:
                keyed[key] = pool.submit(resolve, resolver, index, t.platform, t.python, t.requirements)
            futs[keyed[key]] = futs.get(keyed[key], []) + [t]
        hub_down = None
        for t in dockers:
            if hub_down:
                t.docker = (None, hub_down)
                continue
            t.docker = docker_tag(t.docker_image)
            if t.docker[0] is None:
                hub_down = t.docker[1] + ": not checked"
                t.docker = (None, hub_down)
        for fut in concurrent.futures.as_completed(futs):
            for t in futs[fut]:
                t.result = fut.result()
                check_tf_choice(t)
                log("[plans] " + line_for(t))
    t_resolve = time.time() - t_start - t_setup

    log("\nPer target (sorted):")
    order = {n: i for i, n in enumerate(("linux", "wsl2", "windows", "docker", "issue"))}
    def sort_key(t):
        kind, _, rest = t.name.partition("/")
        ver = tuple(int(x) for x in rest.split(".")) if re.fullmatch(r"\d+\.\d+", rest) else (0,)
        return (order.get(kind, 9), ver, rest)
    for t in sorted(targets, key=sort_key):
        log("  " + line_for(t))
    ok = [t for t in to_resolve if "chosen" in t.result and not t.env_problems and not t.tf_problems]
    line = "plans resolved: %d/%d" % (len(ok), len(to_resolve))
    log("")
    if dockers:
        found = sum(1 for t in dockers if t.docker and t.docker[0])
        unchecked = sum(1 for t in dockers if not t.docker or t.docker[0] is None)
        log("docker images found: %d/%d%s" % (found, len(dockers), " (%d not checked: %s)" % (
            unchecked, next(t.docker[1] for t in dockers if t.docker[0] is None)) if unchecked else ""))
    log("[plans] range requests %d (%d bytes); wall time %.0f s (setup %.0f s, resolving %.0f s, %d jobs, %d distinct resolutions)" % (
        wheelzip.stats["requests"], wheelzip.stats["bytes"], time.time() - t_start, t_setup, t_resolve, args.jobs, len(keyed)))
    log(line)
    if not args.only:
        with open(summary, "w") as f:
            f.write(line + "\n")
    rc = 0 if len(ok) == len(to_resolve) else 1
    if any(t.docker and t.docker[0] is False for t in dockers):
        rc = 1
    if errors:
        rc = 2
    if args.install:
        t0 = time.time()
        iline, irc = install_plans(resolver, targets, args.install)
        log("[plans] install wall time %.0f s" % (time.time() - t0))
        with open(os.path.join(real, "installs.txt"), "w") as f:
            f.write(iline + "\n")
        rc = rc or irc
    return rc


def pick_installs(targets, n):
    """N resolved Linux plans to install: issue 13's first, one TF >= 2.18 [and-cuda] and one
    TF < 2.18 among the first two; a plan with the same (python, requirements) as one picked
    is skipped (it would install the same venv)."""
    ok = [t for t in targets if t.status == "plan" and t.platform == "linux" and t.result
          and "chosen" in t.result and not t.env_problems and not t.tf_problems]
    ok.sort(key=lambda t: (not t.name.startswith("issue/"), t.name))
    def ver(t):
        return tuple(int(x) for x in t.tf.split(".")[:2])
    new_cuda = [t for t in ok if ver(t) >= (2, 18) and any("[and-cuda]" in r for r in t.requirements)]
    old = [t for t in ok if ver(t) < (2, 18)]
    picked, seen = [], set()
    for t in new_cuda[:1] + old[:1] + ok:
        key = (t.python, tuple(t.requirements))
        if len(picked) < n and key not in seen:
            picked.append(t)
            seen.add(key)
    return picked


def run_logged(cmd, env, timeout, prefix):
    """Runs pip; logs its errors and one line counting what it fetched or found in the wheelhouse."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=env,
                       timeout=timeout)
    fetched = [l for l in p.stdout.splitlines() if l.strip().startswith("Downloading") and ".metadata" not in l]
    mb = 0.0
    for l in fetched:
        m = re.search(r"\(([\d.]+) (kB|MB|GB)\)", l)
        if m:
            mb += float(m.group(1)) * {"kB": 1e-3, "MB": 1.0, "GB": 1e3}[m.group(2)]
    had = sum(1 for l in p.stdout.splitlines() if "File was already downloaded" in l)
    done = [l.strip() for l in p.stdout.splitlines() if l.strip().startswith("Successfully installed")]
    if fetched or had:
        log("%s %d files downloaded (%.0f MB), %d already in the wheelhouse" % (prefix, len(fetched), mb, had))
    for l in done:
        log("%s %s" % (prefix, l if len(l) < 300 else l[:300] + "..."))
    for l in p.stdout.splitlines():
        if "ERROR" in l:
            log("%s %s" % (prefix, l.strip()))
    return p


def install_one(resolver, index, t, wheelhouse):
    """Installs t's requirements.txt into a throwaway venv from the wheelhouse; imports TF and runs
    the plan's verify.py. Returns (imported: bool, text)."""
    py = find_python(t.python)
    if not py:
        return False, "no CPython %s" % t.python
    prefix = "[install %s]" % t.name
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "LD_", "CUDA", "TF_", "VIRTUAL_ENV",
                                                                    "CONDA", "PYTHON"))}
    env["PIP_CONFIG_FILE"] = os.devnull
    req = os.path.join(t.out, "requirements.txt")
    os.makedirs(wheelhouse, exist_ok=True)
    built = os.path.join(cache_root(), "sdist-wheels")  # what resolve() built from sdists
    os.makedirs(built, exist_ok=True)
    t0 = time.time()
    # Into the wheelhouse: what pip's resolver picks now (files already there are not fetched again).
    p = run_logged([resolver, "-m", "pip", "--python", py, "download", "--disable-pip-version-check",
                    "--progress-bar", "off", "--only-binary=:all:", "-d", wheelhouse, "--index-url", index + "/simple",
                    "--find-links", built, "-r", req], env, 3600, prefix)
    if p.returncode != 0:
        return False, "pip download failed (exit %d): %s" % (p.returncode, pip_error(p.stdout))
    t_dl = time.time() - t0
    # Throwaway, beside the wheelhouse (same file system, not /tmp's size).
    os.makedirs(os.path.join(cache_root(), "install-venvs"), exist_ok=True)
    venv = tempfile.mkdtemp(prefix="venv-", dir=os.path.join(cache_root(), "install-venvs"))
    try:
        subprocess.check_call([py, "-m", "venv", venv])
        vpy = os.path.join(venv, "bin", "python")
        p = run_logged([resolver, "-m", "pip", "--python", vpy, "install", "--disable-pip-version-check",
                        "--progress-bar", "off", "--no-index", "--find-links", wheelhouse, "--find-links", built, "-r", req],
                       env, 3600, prefix)
        if p.returncode != 0:
            return False, "pip install --no-index failed (exit %d): %s" % (p.returncode, pip_error(p.stdout))
        t_inst = time.time() - t0 - t_dl
        venv_env = dict(env, VIRTUAL_ENV=venv, PATH=os.path.join(venv, "bin") + ":/usr/local/bin:/usr/bin:/bin")
        p = subprocess.run([vpy, "-c", "import tensorflow as tf; print(tf.__version__)"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, env=venv_env, timeout=900)
        if p.returncode != 0:
            return False, "import tensorflow failed (exit %d): %s" % (
                p.returncode, " | ".join(p.stderr.strip().splitlines()[-2:]))
        got = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "?"
        p = subprocess.run([vpy, os.path.join(t.out, "verify.py")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=venv_env, timeout=900)
        lines = p.stdout.splitlines()
        summary = next((l for l in lines if l.startswith("verify: ")), None)
        obj = None
        for l in lines:
            if l.startswith("{"):
                try:
                    obj = json.loads(l)
                except ValueError:
                    pass
        if summary is None or not isinstance(obj, dict):
            return False, "verify.py (exit %d) printed no summary line and JSON: %s" % (
                p.returncode, " | ".join((p.stdout + p.stderr).strip().splitlines()[-3:]))
        return True, "import tensorflow: %s; verify.py exit %d: %s (download %.0f s, install %.0f s, total %.0f s)" % (
            got, p.returncode, summary, t_dl, t_inst, time.time() - t0)
    finally:
        shutil.rmtree(venv, ignore_errors=True)


def install_plans(resolver, targets, n):
    wheelhouse = os.path.join(cache_root(), "wheels")
    picked = pick_installs(targets, n)
    results = []
    with pypi_meta_proxy.MetaProxy() as index:
        for t in picked:
            log("[plans] installing %s (TF %s, Python %s): %s" % (t.name, t.tf, t.python, " ".join(t.requirements)))
            ok, text = install_one(resolver, index, t, wheelhouse)
            results.append((t, ok, text))
            log("[plans] %s: %s: %s" % (t.name, "imported" if ok else "FAILED", text))
    line = "plans installed and imported: %d/%d" % (sum(ok for _, ok, _ in results), len(results))
    log("\nInstalled:")
    for t, ok, text in results:
        log("  %-28s TF %-7s py %-5s %s: %s" % (t.name, t.tf, t.python, "imported" if ok else "FAILED", text))
    log(line)
    return line, (0 if results and all(ok for _, ok, _ in results) else 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
