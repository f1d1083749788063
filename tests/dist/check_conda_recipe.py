#!/usr/bin/env python3
"""conda-recipe/recipe.yaml: valid YAML, the keys rattler-build requires, the version of
CMakeLists.txt, and a build that installs with the same CMake preset as the README."""
import re
import sys

try:
    import yaml  # python3-yaml (scripts/setup.sh)
except ImportError:
    print("SKIP: no PyYAML (python3-yaml)")
    sys.exit(77)

root = sys.argv[1]
recipe = yaml.safe_load(open(f"{root}/conda-recipe/recipe.yaml", encoding="utf-8"))
errors = []
def need(path):
    cur = recipe
    for key in path.split("."):
        if not isinstance(cur, dict) or key not in cur:
            errors.append(f"missing {path}")
            return None
        cur = cur[key]
    return cur

for key in ("context.version", "package.name", "package.version", "source.path", "build.number",
            "build.script", "requirements.build", "requirements.host", "tests", "about.summary"):
    need(key)
cmake_version = re.search(r"project\(tfgpu VERSION ([0-9.]+)", open(f"{root}/CMakeLists.txt").read()).group(1)
if recipe.get("context", {}).get("version") != cmake_version:
    errors.append(f"context.version {recipe.get('context', {}).get('version')!r} != CMakeLists.txt {cmake_version}")
script = " ".join(recipe.get("build", {}).get("script", []))
for want in ("cmake --preset tool", "cmake --install"):
    if want not in script:
        errors.append(f"build.script does not run `{want}`")
presets = open(f"{root}/CMakePresets.json", encoding="utf-8").read()
if '"name": "tool"' not in presets:
    errors.append("CMakePresets.json has no `tool` preset")
if errors:
    print("FAIL: " + "; ".join(errors))
    sys.exit(1)
print(f"ok: recipe.yaml parses; tfgpu {cmake_version}; build: {script}")
