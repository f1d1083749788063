#!/usr/bin/env python3
"""Runs pip in this interpreter with the environment markers of another machine.

pip evaluates environment markers (`; python_version < "3.8"`, `; platform_system ==
"Windows"`) against the interpreter it runs in, also under `--platform` / `--python-version`,
which change only the wheel tags and the Requires-Python check (pip's req_install.match_markers
calls Marker.evaluate() with the running process's default_environment()). To resolve for a
target pip cannot run in (native Windows, or a CPython older than the newest pip supports),
this wrapper replaces packaging's default marker environment with the target's, then runs
pip's own main() with the remaining arguments, so the resolver and the index are pip's own.

Usage: python pip_as_target.py MARKERS_JSON -- PIP_ARGS...   (MARKERS_JSON: PEP 508 names)
"""
import json
import sys


def main(argv):
    if len(argv) < 3 or argv[2] != "--":
        print("usage: pip_as_target.py MARKERS_JSON -- PIP_ARGS...", file=sys.stderr)
        return 2
    target = json.loads(argv[1])
    from pip._vendor.packaging import markers

    base = dict(markers.default_environment())
    base.update(target)

    def target_environment():
        return dict(base)

    markers.default_environment = target_environment
    if hasattr(markers, "_cached_default_environment"):  # packaging >= 26.3 caches it
        markers._cached_default_environment = target_environment
    from pip._internal.cli.main import main as pip_main

    return pip_main(argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
