#!/usr/bin/env python3
"""Writes the wheel-derived rows of kb/tensorflow.toml from kb/derivations/wheel_facts.json.

Rows written (between the markers `# BEGIN wheel_facts` / `# END wheel_facts`, replacing what
is there): one [[and_cuda]] row per release that has the extra (its Linux wheel's
`Requires-Dist ... extra == "and-cuda"` lines, verbatim as PEP 508 requirements). And in the
[[release]] rows, compute_capabilities / cc_source / cc_verified / cc_note from the Linux
wheel's build_info.py where it lists them.

Usage: python3 scripts/kb/apply_wheel_facts.py [kb/tensorflow.toml] [kb/derivations/wheel_facts.json]
"""
import json
import re
import sys


def requirement(line):
    """'nvidia-cudnn-cu11 (==8.7.0.84) ; extra == 'and-cuda'' -> 'nvidia-cudnn-cu11==8.7.0.84'."""
    spec = line.split(";", 1)[0].strip()
    m = re.match(r"^([A-Za-z0-9_.\-\[\]]+)\s*\(?([^)]*)\)?$", spec)
    if not m:
        raise SystemExit("cannot read requirement: %r" % line)
    return m.group(1) + m.group(2).replace(" ", "")


def main():
    toml_path = sys.argv[1] if len(sys.argv) > 1 else "kb/tensorflow.toml"
    facts_path = sys.argv[2] if len(sys.argv) > 2 else "kb/derivations/wheel_facts.json"
    facts = json.load(open(facts_path))
    text = open(toml_path).read()
    kb_versions = set(re.findall(r'(?m)^\[\[release\]\]\nversion = "([^"]+)"', text))
    # The KB's own release versions only (wheel_facts.json also holds each minor's newest patch).
    linux = {w["release"]: w for w in facts["wheels"]
             if w["platform"] == "linux" and w["project"] == "tensorflow" and w["release"] in kb_versions}

    # --- compute capabilities in the [[release]] rows
    blocks = re.split(r"(?m)^(?=\[\[)", text)
    out = []
    for b in blocks:
        m = re.match(r'\[\[release\]\]\nversion = "([^"]+)"', b)
        w = linux.get(m.group(1)) if m else None
        cc = ((w or {}).get("build_info") or {}).get("cuda_compute_capabilities")
        if m and cc:
            b = re.sub(r"(?m)^(compute_capabilities|cc_source|cc_verified|cc_note) = .*\n", "", b)
            row = ("compute_capabilities = [%s]\ncc_source = [\"tf-wheel-build-info\"]\ncc_verified = true\n"
                   "cc_note = \"build_info.py of %s (sha256 %s...)\"\n") % (
                ", ".join('"%s"' % c for c in cc), w["filename"], w["sha256"][:16])
            b = re.sub(r'(?m)^(library_set = .*\n)', lambda mm: mm.group(1) + row, b, count=1)
        out.append(b)
    text = "".join(out)

    # --- [[and_cuda]] rows
    rows = []
    for version in sorted(linux, key=lambda v: [int(x) for x in v.split(".")]):
        w = linux[version]
        extra = [l for l in w.get("requires_dist", []) if re.search(r"""extra\s*==\s*['"]and-cuda['"]""", l)]
        if not extra:
            continue
        series = ".".join(version.split(".")[:2])
        reqs = [requirement(l) for l in extra]
        rows.append("[[and_cuda]]\ntf = \"%s\"\nplatforms = [\"linux\"]\nwheels = [\n%s\n]\n"
                    "note = \"Requires-Dist of %s, extra == 'and-cuda', verbatim (pip resolves these from TensorFlow's own metadata; a plan does not repeat them).\"\n"
                    "source = [\"tf-wheel-metadata\"]\nverified = true\n" % (
                        series, ",\n".join("  \"%s\"" % r for r in reqs), w["filename"]))
    body = "# BEGIN wheel_facts (scripts/kb/apply_wheel_facts.py; do not edit by hand)\n" + "\n".join(rows) + "# END wheel_facts\n"
    text = re.sub(r"(?ms)^\[\[and_cuda\]\]\n.*?(?=^\[\[(?!and_cuda)|\Z)", "", text)
    if "# BEGIN wheel_facts" in text:
        text = re.sub(r"(?ms)^# BEGIN wheel_facts.*?# END wheel_facts\n", body, text)
    else:
        text = text.rstrip("\n") + "\n\n" + body
    open(toml_path, "w").write(text)


if __name__ == "__main__":
    main()
