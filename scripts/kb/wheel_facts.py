#!/usr/bin/env python3
"""Reads the facts the KB needs from the real TensorFlow wheels on PyPI, metadata only.

For every [[release]] row of kb/tensorflow.toml with version >= 2.0 (the exact version of the
row), from PyPI's simple index:
  - the manylinux x86_64 wheel of the newest CPython it has;
  - for version <= 2.10 also the win_amd64 wheel of the newest CPython;
  - the same from `tensorflow-gpu` where the row's notes say the GPU build is that package.
From each wheel, read by HTTP range requests (tests/real/wheelzip.py, never the whole wheel):
  - every Requires-Dist line of *.dist-info/METADATA, verbatim;
  - tensorflow[_core]/python/platform/build_info.py: its `build_info` dict, or (2.0-2.2) its
    module-level constants.
Writes kb/derivations/wheel_facts.json (the raw record) and kb/derivations/wheel_facts.md (a
summary table and every disagreement with kb/tensorflow.toml).

Usage: scripts/kb/wheel_facts.py [--kb kb/tensorflow.toml] [--out kb/derivations]
Cache: see tests/real/wheelzip.py (TFGPU_PYPI_CACHE); a rerun with a warm cache reads nothing.
"""
import argparse
import ast
import datetime
import email.parser
import json
import os
import re
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "real"))
import pypi_meta_proxy  # noqa: E402
import wheelzip  # noqa: E402

WHEEL_RE = re.compile(r"^(?P<name>[^-]+)-(?P<ver>[^-]+)(-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")
BUILD_INFO_RE = re.compile(r"^tensorflow(_core)?/python/platform/build_info\.py$")


def vkey(v):
    return tuple(int(x) for x in re.findall(r"\d+", v))


def py_of(tag):
    m = re.fullmatch(r"cp(\d)(\d+)", tag)
    return (int(m.group(1)), int(m.group(2))) if m else None


def pick(links, project, version, platform):
    """(filename, url, attrs, alternatives) of the wheel for the newest CPython, or None."""
    cands = []
    for fn, url, attrs in links:
        m = WHEEL_RE.match(fn)
        if not m or m.group("ver") != version or pypi_meta_proxy.normalize(m.group("name")) != project:
            continue
        plat = m.group("plat")
        ok = ("manylinux" in plat and plat.endswith("x86_64")) if platform == "linux" else plat == "win_amd64"
        py = py_of(m.group("py"))
        if ok and py:
            cands.append((py, fn, url, attrs))
    if not cands:
        return None
    best_py = max(c[0] for c in cands)
    same = sorted([c for c in cands if c[0] == best_py], key=lambda c: c[1])
    _, fn, url, attrs = same[-1]
    return fn, url, attrs, [c[1] for c in same[:-1]]


def latest_patch(links, version):
    """The newest final X.Y.Z with wheels on the page for the row's X.Y."""
    mm = vkey(version)[:2]
    vs = set()
    for fn, _, _ in links:
        m = WHEEL_RE.match(fn)
        if m and re.fullmatch(r"\d+\.\d+\.\d+", m.group("ver")) and vkey(m.group("ver"))[:2] == mm:
            vs.add(m.group("ver"))
    return max(vs, key=vkey) if vs else None


def literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        pass
    # collections.OrderedDict([(k, v), ...])
    if isinstance(node, ast.Call) and node.args and not node.keywords:
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
        if name == "OrderedDict":
            return dict(ast.literal_eval(node.args[0]))
    raise ValueError("not a literal")


def parse_build_info(text):
    """{'build_info': dict or None, 'constants': {name: value}} of build_info.py."""
    tree = ast.parse(text)
    consts, bi = {}, None
    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            try:
                val = literal(st.value)
            except ValueError:
                continue
            if st.targets[0].id == "build_info" and isinstance(val, dict):
                bi = val
            else:
                consts[st.targets[0].id] = val
    return {"build_info": bi, "constants": consts}


def requirement_name(line):
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return pypi_meta_proxy.normalize(m.group(1)) if m else ""


def wheel_record(release, project, platform, chosen):
    fn, url, attrs, alts = chosen
    meta = wheelzip.read_metadata(url)
    msg = email.parser.BytesParser().parsebytes(meta, headersonly=True)
    names = wheelzip.list_members(url)
    bi_names = [n for n in names if BUILD_INFO_RE.match(n)]
    rec = {
        "release": release, "project": project, "platform": platform,
        "python": "%d.%d" % py_of(WHEEL_RE.match(fn).group("py")),
        "filename": fn, "url": url.split("#")[0],
        "sha256": url.split("#sha256=")[1] if "#sha256=" in url else None,
        "yanked": "data-yanked" in attrs, "requires_python": attrs.get("data-requires-python"),
        "other_wheels_same_python": alts,
        "metadata_version": msg.get("Metadata-Version"),
        "requires_dist": msg.get_all("Requires-Dist") or [],
        "build_info_member": bi_names[0] if bi_names else None,
    }
    if bi_names:
        text = wheelzip.read_member(url, bi_names[0]).decode("utf-8")
        parsed = parse_build_info(text)
        rec["build_info"] = parsed["build_info"]
        rec["build_info_constants"] = parsed["constants"]
    return rec


def summary_fields(rec):
    bi = rec.get("build_info") or {}
    c = rec.get("build_info_constants") or {}
    return {
        "cuda_raw": bi.get("cuda_version", c.get("cuda_version_number")),
        "cudnn_raw": bi.get("cudnn_version", c.get("cudnn_version_number")),
        "cuda": win_version(bi.get("cuda_version", c.get("cuda_version_number"))),
        "cudnn": win_version(bi.get("cudnn_version", c.get("cudnn_version_number"))),
        "cc": bi.get("cuda_compute_capabilities"),
        "is_cuda_build": bi.get("is_cuda_build", c.get("is_cuda_build")),
    }


def reqs(rec, name):
    return [r for r in rec["requires_dist"] if requirement_name(r) == name]


def and_cuda(rec):
    return [r for r in rec["requires_dist"] if re.search(r"""extra\s*==\s*["']and[-_]cuda["']""", r)]


def md_cell(lines):
    return "<br>".join("`%s`" % l for l in lines) if lines else "—"


def kb_and_cuda_for(kb, version):
    mm = vkey(version)[:2]
    for row in kb.get("and_cuda", []):
        lo, _, hi = row["tf"].partition("-")
        if vkey(lo)[:2] <= mm <= vkey(hi or lo)[:2]:
            return row
    return None


def compare(kb, rel, recs):
    """Disagreements between a [[release]] row (and its [[and_cuda]] row) and the wheels."""
    out = []
    if not recs:
        return out
    v = recs[0]["release"]
    for rec in recs:
        f = summary_fields(rec)
        tag = "%s %s %s (%s)" % (v, rec["project"], rec["platform"], rec["filename"])
        gpu_expected = rec["platform"] in rel.get("gpu_platforms", []) and (rec["project"] != "tensorflow" or
                                                                             not _separate_gpu(rel))
        if f["is_cuda_build"] is not None and bool(f["is_cuda_build"]) != gpu_expected:
            out.append("%s: build_info is_cuda_build=%s, KB gpu_platforms=%s" % (
                tag, f["is_cuda_build"], rel.get("gpu_platforms")))
        if not f["is_cuda_build"]:
            continue
        kc, kd = rel.get("cuda"), rel.get("cudnn")
        if f["cuda"] is not None and not (str(f["cuda"]) == kc or str(f["cuda"]).startswith(kc + ".")
                                          or kc.startswith(str(f["cuda"]) + ".")):
            out.append("%s: build_info cuda_version=%r, KB cuda=%r" % (tag, f["cuda_raw"], kc))
        if f["cudnn"] is not None and not (str(f["cudnn"]) == kd or kd.startswith(str(f["cudnn"]) + ".")
                                           or str(f["cudnn"]).startswith(kd + ".")):
            out.append("%s: build_info cudnn_version=%r, KB cudnn=%r" % (tag, f["cudnn_raw"], kd))
        kcc = rel.get("compute_capabilities")
        if f["cc"] is not None and kcc != f["cc"]:
            if kcc:
                out.append("%s: build_info cuda_compute_capabilities=%s, KB compute_capabilities=%s" % (tag, f["cc"], kcc))
            else:
                out.append("GAP %s: KB has no compute_capabilities; build_info cuda_compute_capabilities=%s" % (tag, f["cc"]))
        if f["cc"] is None and kcc:
            out.append("UNVERIFIED %s: build_info has no cuda_compute_capabilities (constants only), KB says %s from %s" % (
                tag, kcc, rel.get("cc_source")))
    for rec in recs:
        key = "python_linux" if rec["platform"] == "linux" else "python_windows"
        kp = rel.get(key)
        if kp and max(kp, key=vkey) != rec["python"]:
            out.append("%s %s %s: newest wheel Python %s, KB %s newest %s" % (
                v, rec["project"], rec["platform"], rec["python"], key, max(kp, key=vkey)))
    lin = [r for r in recs if r["platform"] == "linux" and r["project"] == "tensorflow"]
    row = kb_and_cuda_for(kb, v)
    wheel_ac = and_cuda(lin[0]) if lin else []
    if row is None and wheel_ac:
        out.append("GAP %s: the wheel has an and-cuda extra (%d lines), the KB has no [[and_cuda]] row for it" % (v, len(wheel_ac)))
    if row is not None:
        wmap = {requirement_name(r): r.split(";")[0].strip() for r in wheel_ac}
        kmap = {requirement_name(p): p for p in row["wheels"]}
        lower_bound_only = []
        for n in sorted(set(wmap) | set(kmap)):
            w, k = wmap.get(n), kmap.get(n)
            wspec = w[len(n):].strip() if w else None
            kspec = k[len(n):].strip() if k else None
            if w is None:
                out.append("%s: KB [[and_cuda]] tf=%s pins %s, the wheel's and-cuda extra has no %s" % (v, row["tf"], k, n))
            elif k is None:
                out.append("%s: the wheel's and-cuda extra has `%s`, KB [[and_cuda]] tf=%s lacks %s" % (v, w, row["tf"], n))
            elif _spec_norm(wspec) != _spec_norm(kspec):
                if kspec.startswith("==") and (">=" + kspec[2:]) in _spec_norm(wspec).split(","):
                    lower_bound_only.append("`%s`" % w)
                else:
                    out.append("%s: %s: wheel `%s`, KB [[and_cuda]] tf=%s `%s`" % (v, n, w, row["tf"], k))
        if lower_bound_only:
            out.append("%s: KB [[and_cuda]] tf=%s writes `==` pins where the wheel has ranges (the KB pin is the lower bound): %s" % (
                v, row["tf"], ", ".join(lower_bound_only)))
    return out


def _spec_norm(s):
    s = (s or "").replace("(", "").replace(")", "").replace(" ", "")
    return ",".join(sorted(x for x in s.split(",") if x))


def win_version(v):
    """Windows build_info names the DLL suffix (cudart64_112.dll: '64_112' = 11.2; cudnn64_8: '64_8')."""
    m = re.fullmatch(r"64_(\d+)", str(v)) if v is not None else None
    if not m:
        return v
    d = m.group(1)
    return d if len(d) == 1 else "%s.%s" % (d[:-1], d[-1])


def _separate_gpu(rel):
    return any("separate tensorflow-gpu" in n for n in rel.get("notes", []))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kb", default=os.path.join(ROOT, "kb", "tensorflow.toml"))
    ap.add_argument("--out", default=os.path.join(ROOT, "kb", "derivations"))
    args = ap.parse_args(argv[1:])
    try:
        with open(args.kb, "rb") as f:
            kb = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        print("wheel_facts: cannot read %s: %s" % (args.kb, e), file=sys.stderr)
        return 2
    releases = [r for r in kb.get("release", []) if vkey(r["version"]) >= (2, 0)]
    pages = {}
    records, missing, per_release = [], [], []
    try:
        for rel in releases:
            row_v = rel["version"]
            projects = ["tensorflow"] + (["tensorflow-gpu"] if _separate_gpu(rel) else [])
            platforms = ["linux"] + (["windows"] if vkey(row_v) <= (2, 10, 99) else [])
            for proj in projects:
                if proj not in pages:
                    pages[proj] = pypi_meta_proxy.parse_links(pypi_meta_proxy.fetch_simple_page(proj))
            versions = [row_v]
            latest = latest_patch(pages["tensorflow"], row_v)
            if latest and latest != row_v:
                versions.append(latest)
            for v in versions:
                recs = []
                for proj in projects:
                    for plat in platforms:
                        chosen = pick(pages[proj], proj, v, plat)
                        if chosen is None:
                            missing.append("%s==%s: no %s wheel on PyPI" % (proj, v, plat))
                            continue
                        print("wheel_facts: %s" % chosen[0], file=sys.stderr, flush=True)
                        rec = wheel_record(v, proj, plat, chosen)
                        rec["kb_row"] = row_v
                        rec["kind"] = "kb-row" if v == row_v else "latest-patch"
                        recs.append(rec)
                records += recs
                per_release.append((rel, recs))
        yanked_rows = []
        for y in kb.get("yanked", []):
            files = [fn for fn, _, _ in pages["tensorflow"] if WHEEL_RE.match(fn) and WHEEL_RE.match(fn).group("ver") == y["version"]]
            yk = [fn for fn, _, a in pages["tensorflow"] if fn in files and "data-yanked" in a]
            yanked_rows.append("tensorflow==%s (KB [[yanked]]): %d wheel files on PyPI's simple page, %d marked yanked" % (
                y["version"], len(files), len(yk)))
    except (wheelzip.WheelZipError, pypi_meta_proxy.IndexError_) as e:
        print("wheel_facts: %s" % e, file=sys.stderr)
        return 1

    cmd = "python3 scripts/kb/wheel_facts.py"
    os.makedirs(args.out, exist_ok=True)
    doc = {
        "generated_by": cmd, "retrieved": datetime.date.today().isoformat(),
        "index": pypi_meta_proxy.PYPI_SIMPLE, "method": "HTTP range reads of each wheel's zip (tests/real/wheelzip.py)",
        "notes": missing + yanked_rows, "wheels": records,
    }
    with open(os.path.join(args.out, "wheel_facts.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")

    L = []
    L.append("# Facts read from the real TensorFlow wheels (`wheel_facts.json`)")
    L.append("")
    L.append("Made by `%s` (stdlib only; run from the repository root) on %s from %s: for each" % (cmd, doc["retrieved"], doc["index"]))
    L.append("`[[release]]` row >= 2.0 of `kb/tensorflow.toml` (its exact version), the manylinux x86_64 wheel of the")
    L.append("newest CPython, for <= 2.10 also the win_amd64 one, and `tensorflow-gpu` where the row says the GPU build")
    L.append("is that package. Each wheel was read with HTTP range requests (`tests/real/wheelzip.py`: end record,")
    L.append("central directory, one member): `*.dist-info/METADATA` (every `Requires-Dist`, verbatim, in the JSON) and")
    L.append("`tensorflow[_core]/python/platform/build_info.py` (the `build_info` dict, or the module constants")
    L.append("`cuda_version_number` / `cudnn_version_number` / `is_cuda_build` before 2.3). No whole wheel was downloaded.")
    L.append("Each row's minor is also read at its newest patch on PyPI (\"newest patch\"): requirements change")
    L.append("between patches (2.14.0 has `numpy>=1.23.5`, 2.14.1 `numpy<2.0.0,>=1.23.5`).")
    L.append("")
    for n in doc["notes"]:
        L.append("- %s" % n)
    L.append("")
    L.append("## Summary")
    L.append("")
    L.append("CUDA / cuDNN: build_info as written; Windows wheels write the DLL suffix (`64_112` = cudart64_112.dll =")
    L.append("CUDA 11.2), shown with its reading. build_info gives only cuDNN's major. and-cuda: the extra's lines,")
    L.append("verbatim in the next section.")
    L.append("")
    L.append("| TF | wheel | py | and-cuda | numpy | protobuf | keras | ml-dtypes | CUDA | cuDNN | compute capabilities |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for rec in records:
        f = summary_fields(rec)
        if rec["kind"] == "latest-patch":
            rec_label = "%s (newest patch)" % rec["release"]
        else:
            rec_label = rec["release"]
        shown = lambda raw, val: "—" if raw is None else (str(raw) if raw == val else "%s (%s)" % (raw, val))
        cuda = shown(f["cuda_raw"], f["cuda"]) if f["is_cuda_build"] else "(CPU build)"
        ac = and_cuda(rec)
        ac_cell = "—" if not ac else "%d lines, %s" % (len(ac), "all `==`" if all("==" in a.split(";")[0] for a in ac)
                                                        else "ranges `>=x,<y`")
        L.append("| %s | %s %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            rec_label, rec["project"], rec["platform"], rec["python"], ac_cell,
            md_cell(reqs(rec, "numpy")), md_cell(reqs(rec, "protobuf")), md_cell(reqs(rec, "keras")),
            md_cell(reqs(rec, "ml-dtypes")), cuda, shown(f["cudnn_raw"], f["cudnn"]) if f["is_cuda_build"] else "—",
            " ".join(f["cc"]) if f["cc"] else "—"))
    L.append("")
    L.append("## The and-cuda extra (Linux wheels), `Requires-Dist` lines verbatim")
    L.append("")
    prev = None
    for rec in records:
        if rec["platform"] != "linux" or rec["project"] != "tensorflow":
            continue
        ac = and_cuda(rec)
        if not ac:
            continue
        if ac == prev:
            L.append("- **%s**: the same lines as above." % rec["release"])
            continue
        prev = ac
        L.append("- **%s** (`%s`):" % (rec["release"], rec["filename"]))
        L.append("  ```")
        L += ["  " + a for a in ac]
        L.append("  ```")
    L.append("")
    L.append("## Disagreements with kb/tensorflow.toml (computed by the script)")
    L.append("")
    L.append("Plain lines contradict the KB; GAP: the KB lacks what the wheel states; UNVERIFIED: the wheel cannot")
    L.append("confirm what the KB says. CUDA/cuDNN agree when one is a prefix of the other (build_info '12.5.1' vs")
    L.append("KB '12.5'; cuDNN '8' vs '8.6').")
    L.append("")
    n_dis = 0
    for rel, recs in per_release:
        for d in compare(kb, rel, recs):
            L.append("- %s" % d)
            n_dis += 1
    if not n_dis:
        L.append("- none")
    L.append("")
    with open(os.path.join(args.out, "wheel_facts.md"), "w") as f:
        f.write("\n".join(L))
    print("wheel_facts: %d wheels, %d disagreements; %d range requests, %d bytes" % (
        len(records), n_dis, wheelzip.stats["requests"], wheelzip.stats["bytes"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
