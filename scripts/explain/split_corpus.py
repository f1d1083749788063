#!/usr/bin/env python3
"""Split the explain corpus once, at random, into a development two-thirds and a held-out
third (tests/explain_corpus/split.txt). Cases already in split.txt never move; cases added
later are assigned at random with the same odds. Tune signatures against `dev` only: the
corpus test prints per-case results for `dev` and only the figures for `heldout`."""
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "explain_corpus"
SEED = 20261201  # the day the split was made


def main() -> int:
    ids = sorted(p.stem for p in (ROOT / "cases").glob("*.md"))
    split_file = ROOT / "split.txt"
    known = {}
    if split_file.exists():
        for line in split_file.read_text().splitlines():
            if line and not line.startswith("#"):
                case, part = line.split()
                known[case] = part
    rng = random.Random(SEED + len(known))
    new = [i for i in ids if i not in known]
    rng.shuffle(new)
    if not known:
        cut = round(len(new) * 2 / 3)
        for i, case in enumerate(new):
            known[case] = "dev" if i < cut else "heldout"
    else:
        for case in new:
            known[case] = "dev" if rng.random() < 2 / 3 else "heldout"
    lines = ["# explain corpus split (scripts/explain/split_corpus.py, seed %d): dev = tune against it," % SEED,
             "# heldout = never tuned against; only its figures are printed.",
             "# case part"]
    lines += [f"{c} {known[c]}" for c in sorted(known) if c in ids]
    split_file.write_text("\n".join(lines) + "\n")
    parts = [known[c] for c in ids]
    print(f"{len(ids)} cases: {parts.count('dev')} dev, {parts.count('heldout')} heldout ({len(new)} newly assigned)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
