#!/usr/bin/env python3
"""Runs the bad-input table (table.tsv) against the real tfgpu binary.

Each row runs tfgpu once as a subprocess, with a 10 s limit, and checks: it was not
killed by a signal, it did not run over the limit (10 s of CPU time, its own work
whatever else the machine runs; and 60 s of wall time, past which it is killed as
hung: a blocked run uses no CPU), its exit code is the expected one, and
the first line of its stderr holds the expected text (for exit codes 2 and 3 stderr must
be exactly that one line). Peak RSS comes from wait4(2). The inputs are made here, in
--work (a FIFO, a directory, an 18 MB snapshot, UTF-16, bytes that are not UTF-8, the
fuzzers' TOML crash files, ...). Prints one line per failure and a summary; exit 1 if
any row failed.

Table columns (tab-separated; '#' lines are comments):
  command  id  args  exit  stderr  [env]  [stdin]  [stdout]
args: shell words; {in} = the inputs folder, {mocks} = the test build folder (mock
  libraries); \\xNN = that byte (for bytes that are not UTF-8).
stderr: a substring of the first stderr line, or '-' for "stderr is empty"; a leading '+'
  allows more lines after it (fleet names each input it skipped, then sums up).
env: NAME=VALUE;NAME=VALUE (same escapes), or '-'.
stdin: '-' (/dev/null), a path, or 'dir:PATH' (a directory opened as stdin).
stdout: '-' (a file that is then dropped) or a path such as /dev/full.
"""
import argparse
import json
import os
import re
import shlex
import signal
import stat
import sys
import time

LIMIT_S = 10.0  # CPU seconds (user + system) a run may take
HANG_S = 60.0   # wall seconds after which a run is a hang and killed


def unescape(text, subst):
    for k, v in subst.items():
        text = text.replace("{" + k + "}", v)
    raw = text.encode()
    return re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)


def write(path, data, mode="wb"):
    with open(path, mode) as f:
        f.write(data)


def make_inputs(d, source_dir):
    os.makedirs(d, exist_ok=True)
    scen = os.path.join(source_dir, "tests", "scenarios")
    good = open(os.path.join(scen, "linux_gtx960_tf218.json"), "rb").read()
    write(f"{d}/good.json", good)
    write(f"{d}/utf8bom.json", b"\xef\xbb\xbf" + good)
    write(f"{d}/utf16le.json", b"\xff\xfe" + good.decode().encode("utf-16-le"))
    write(f"{d}/utf16be.json", b"\xfe\xff" + good.decode().encode("utf-16-be"))
    write(f"{d}/deep.json", b'{"schema_version":1,"notes":' + b"[" * 100000 + b"]" * 100000 + b"}")
    write(f"{d}/deep_object.json", b'{"schema_version":1,"x":' + b'{"a":' * 100000 + b"1" + b"}" * 100000 + b"}")
    write(f"{d}/schema_huge.json", b'{"schema_version":4294967297}')
    write(f"{d}/schema_negative.json", b'{"schema_version":-1}')
    write(f"{d}/schema_string.json", b'{"schema_version":"1"}')
    write(f"{d}/schema_float.json", b'{"schema_version":1.0}')
    write(f"{d}/no_schema.json", b'{"gpus":[]}')
    write(f"{d}/array.json", b"[1,2,3]")
    write(f"{d}/empty", b"")
    write(f"{d}/not_json.json", b"this is not json\n")
    write(f"{d}/truncated.json", good[: len(good) // 2])
    write(f"{d}/binary.bin", bytes(range(256)) * 64)
    write(f"{d}/nul.json", b'{"schema_version":1,"notes":["a\x00b"]}')
    write(f"{d}/bad_status.json", good.replace(b'"status": "ok"', b'"status": "great"', 1))
    write(f"{d}/gpus_string.json", b'{"schema_version":1,"gpus":"many"}')
    write(f"{d}/invalid_utf8_in_json.json", b'{"schema_version":1,"notes":["\xff\xfe"]}')
    write(f"{d}/lone_surrogate.json", b'{"schema_version":1,"notes":["\\udc80"]}')
    write(f"{d}/big_number.json", b'{"schema_version":1,"driver":{"device_count":1e400}}')
    # The crafted 18 MB snapshot of the issue: 20,000 GPUs x 5,000 Python environments.
    big = json.loads(good)
    gpu, env = big["gpus"][0], big["pythons"][0]
    big["gpus"] = [dict(gpu, index=i, pci_bus_id=f"0000:{i // 256 % 256:02x}:{i % 256:02x}.0") for i in range(20000)]
    big["pythons"] = [dict(env, executable=f"/opt/envs/e{i}/bin/python3", prefix=f"/opt/envs/e{i}") for i in range(5000)]
    write(f"{d}/big.json", json.dumps(big).encode())
    for name in ("fifo", "fifo.toml"):
        p = f"{d}/{name}"
        if not os.path.exists(p):
            os.mkfifo(p)
    os.makedirs(f"{d}/dir", exist_ok=True)
    os.makedirs(f"{d}/dir.json", exist_ok=True)
    # TOML: the fuzzers' crash inputs for toml++ 3.3.0 (../shared/crashes), byte for byte.
    write(f"{d}/toml_assert.toml", b"[[:a]]\n")
    write(f"{d}/toml_unreachable.toml", b"\xc9\x95")
    write(f"{d}/toml_long_key.toml", b"schema = 1\n" + b".".join([b"k"] * 300000) + b" = 1\n")
    write(f"{d}/toml_deep.toml", b"schema = 1\na = " + b"[" * 100000 + b"]" * 100000 + b"\n")
    write(f"{d}/toml_not.toml", b"this is = = not toml\n")
    lock = open(os.path.join(source_dir, "tests/golden/plan/gtx960-linux/tfgpu.lock.toml"), "rb").read()
    write(f"{d}/lock_utf16.toml", b"\xff\xfe" + lock.decode().encode("utf-16-le"))
    write(f"{d}/lock_utf8bom.toml", b"\xef\xbb\xbf" + lock)
    write(f"{d}/lock_schema9.toml", lock.replace(b"schema = 1", b"schema = 9", 1))
    # --kb DIR variants: a copy of kb/ with one file replaced or missing.
    kb = os.path.join(source_dir, "kb")
    names = sorted(n for n in os.listdir(kb) if n.endswith(".toml"))
    for variant in ("kb_missing_cuda", "kb_missing_signatures", "kb_missing_packaging", "kb_toml_crash",
                    "kb_empty_pattern", "kb_long_key", "kb_utf16"):
        vd = f"{d}/{variant}"
        os.makedirs(vd, exist_ok=True)
        for n in names:
            text = open(os.path.join(kb, n), "rb").read()
            if variant == "kb_missing_cuda" and n == "cuda.toml":
                continue
            if variant == "kb_missing_signatures" and n == "signatures.toml":
                continue
            if variant == "kb_missing_packaging" and n == "packaging.toml":
                continue
            if variant == "kb_toml_crash" and n == "cuda.toml":
                text = b"[[:a]]\n"
            if variant == "kb_empty_pattern" and n == "signatures.toml":
                text = text.replace(b'any = ["', b'any = ["", "', 1)
            if variant == "kb_long_key" and n == "gpus.toml":
                text = b".".join([b"k"] * 300000) + b" = 1\n" + text
            if variant == "kb_utf16" and n == "tensorflow.toml":
                text = b"\xff\xfe" + text.decode().encode("utf-16-le")
            write(os.path.join(vd, n), text)
        for n in names:  # a stale file from an earlier run of another variant
            pass
    os.makedirs(f"{d}/kb_fifo", exist_ok=True)
    for n in names:
        p = f"{d}/kb_fifo/{n}"
        if n == "cuda.toml":
            if not os.path.exists(p):
                os.mkfifo(p)
        else:
            write(p, open(os.path.join(kb, n), "rb").read())
    # explain inputs.
    log = b"E tensorflow/stream_executor/cuda/cuda_blas.cc:225] failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
    write(f"{d}/log.txt", log)
    write(f"{d}/log_utf16.txt", b"\xff\xfe" + log.decode().encode("utf-16-le"))
    write(f"{d}/log_utf8bom.txt", b"\xef\xbb\xbf" + log)
    write(f"{d}/log_binary.txt", bytes(range(256)) * 4096)
    write(f"{d}/log_one_long_line.txt", b"x" * (8 << 20))
    # verify --prediction inputs.
    write(f"{d}/prediction_bad_type.json", b'{"will_use_gpu": "maybe"}')
    write(f"{d}/prediction_utf16.json", b"\xff\xfe" + '{"will_use_gpu": false, "gpus": 0}'.encode("utf-16-le"))
    # fleet: a folder of snapshots, one of them bad.
    os.makedirs(f"{d}/fleet", exist_ok=True)
    write(f"{d}/fleet/a.json", good)
    write(f"{d}/fleet/b.json", b'{"schema_version":4294967297}')
    write(f"{d}/fleet/c.json", b'{"schema_version":1,"notes":' + b"[" * 100000 + b"]" * 100000 + b"}")
    os.makedirs(f"{d}/fleet_empty", exist_ok=True)
    # A venv whose path is not UTF-8 (paths are bytes on Linux), for --python.
    venv = os.fsencode(d) + b"/venv-\xff\xfe"
    os.makedirs(venv + b"/bin", exist_ok=True)
    os.makedirs(venv + b"/lib/python3.11/site-packages/tensorflow-2.15.0.dist-info", exist_ok=True)
    write(venv + b"/pyvenv.cfg", b"home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    write(venv + b"/lib/python3.11/site-packages/tensorflow-2.15.0.dist-info/METADATA",
          b"Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\n\n")
    if not os.path.lexists(venv + b"/bin/python3"):
        os.symlink(b"/usr/bin/python3", venv + b"/bin/python3")
    # plan --out: a folder whose setup.sh is a symlink to a file outside it.
    os.makedirs(f"{d}/plan_out_symlink", exist_ok=True)
    target = f"{d}/symlink_target.txt"
    write(target, b"do not overwrite\n")
    link = f"{d}/plan_out_symlink/setup.sh"
    if not os.path.lexists(link):
        os.symlink(target, link)


def run_row(tfgpu, row, subst, work):
    # \xNN escapes become bytes before the shell-word split (shlex would eat the backslash);
    # latin-1 carries every byte through the split unchanged.
    words = shlex.split(unescape(row["args"], subst).decode("latin-1"))
    argv = [os.path.abspath(tfgpu).encode()] + [w.encode("latin-1") for w in words]
    env = dict(os.environb)
    env.pop(b"LD_LIBRARY_PATH", None)
    env[b"LANG"] = b"C.UTF-8"
    if row["env"] not in ("", "-"):
        for pair in row["env"].split(";"):
            k, _, v = pair.partition("=")
            env[unescape(k, subst)] = unescape(v, subst)
    stdin = row["stdin"]
    if stdin in ("", "-"):
        in_fd = os.open(os.devnull, os.O_RDONLY)
    elif stdin.startswith("dir:"):
        in_fd = os.open(unescape(stdin[4:], subst), os.O_RDONLY | os.O_DIRECTORY)
    else:
        in_fd = os.open(unescape(stdin, subst), os.O_RDONLY)
    out_path = row["stdout"] if row["stdout"] not in ("", "-") else os.path.join(work, "stdout.txt")
    out_fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err_path = os.path.join(work, "stderr.txt")
    err_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            os.dup2(in_fd, 0)
            os.dup2(out_fd, 1)
            os.dup2(err_fd, 2)
            os.chdir(work)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    for fd in (in_fd, out_fd, err_fd):
        os.close(fd)
    timed_out = False
    while True:
        wpid, status, usage = os.wait4(pid, os.WNOHANG)
        if wpid == pid:
            break
        if time.monotonic() - start > HANG_S:
            timed_out = True
            os.killpg(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    try:
        os.killpg(pid, signal.SIGKILL)  # anything it left behind
    except ProcessLookupError:
        pass
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    err = open(err_path, "rb").read()
    return {
        "timed_out": timed_out,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0,
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "stderr": err,
        "wall": wall,
        "cpu": cpu,
        "rss_kib": usage.ru_maxrss,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfgpu", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--mocks", required=True)
    ap.add_argument("--only", help="run only rows whose id contains this")
    a = ap.parse_args()
    work = os.path.abspath(a.work)
    inputs = os.path.join(work, "in")
    make_inputs(inputs, a.source)
    subst = {"in": inputs, "mocks": os.path.abspath(a.mocks)}
    cols = ["command", "id", "args", "exit", "stderr", "env", "stdin", "stdout"]
    rows = []
    for n, line in enumerate(open(a.table, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 5:
            sys.exit(f"{a.table}:{n}: needs at least 5 tab-separated columns")
        parts += ["-"] * (len(cols) - len(parts))
        row = dict(zip(cols, parts))
        row["line"] = n
        rows.append(row)
    if a.only:
        rows = [r for r in rows if a.only in r["id"]]
    per_command = {}
    failures = 0
    signals = 0
    over = 0
    slowest = (0.0, "", 0.0)
    largest = (0, "")
    for row in rows:
        r = run_row(a.tfgpu, row, subst, work)
        first = r["stderr"].split(b"\n", 1)[0].decode("utf-8", "replace")
        lines = [l for l in r["stderr"].split(b"\n") if l.strip()]
        problems = []
        if r["timed_out"]:
            problems.append(f"hung: killed after {HANG_S:.0f} s of wall time")
            over += 1
        elif r["cpu"] > LIMIT_S:
            problems.append(f"took {r['cpu']:.1f} s of CPU time, over {LIMIT_S:.0f} s")
            over += 1
        if r["signal"] and not r["timed_out"]:
            problems.append(f"killed by signal {r['signal']}")
            signals += 1
        if r["exit"] is not None and str(r["exit"]) != row["exit"]:
            problems.append(f"exit {r['exit']}, expected {row['exit']}")
        want = row["stderr"]
        more_lines = want.startswith("+")  # the command lists each input it skipped, then sums up
        want = want.lstrip("+")
        if want == "-":
            if r["stderr"].strip():
                problems.append(f"stderr not empty: {first!r}")
        elif want not in first:
            problems.append(f"first stderr line {first!r} lacks {want!r}")
        if row["exit"] in ("2", "3") and len(lines) != 1 and not more_lines:
            problems.append(f"{len(lines)} stderr lines, expected one")
        c = per_command.setdefault(row["command"], [0, 0])
        c[0] += 1
        if problems:
            failures += 1
            c[1] += 1
            print(f"FAIL {row['command']} {row['id']} (table line {row['line']}): " + "; ".join(problems))
        if r["cpu"] > slowest[0]:
            slowest = (r["cpu"], f"{row['command']} {row['id']}", r["wall"])
        if r["rss_kib"] > largest[0]:
            largest = (r["rss_kib"], f"{row['command']} {row['id']}")
    print("bad-input table: " + ", ".join(f"{k} {v[0]}" for k, v in sorted(per_command.items())) + f" ({len(rows)} inputs)")
    print(f"  exit codes and first stderr lines as expected: {len(rows) - failures}/{len(rows)}")
    print(f"  killed by a signal: {signals}; over {LIMIT_S:.0f} s (CPU) or hung: {over}; "
          f"slowest {slowest[0]:.2f} s CPU, {slowest[2]:.2f} s wall ({slowest[1]})")
    print(f"  peak RSS of the largest: {largest[0] / 1024:.1f} MiB ({largest[1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
