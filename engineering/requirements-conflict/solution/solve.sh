#!/usr/bin/env bash
# The oracle: let pip resolve the same package names for this Python from the wheelhouse, then
# rewrite only the pins that must change, each with a comment saying why the old one failed.
set -euo pipefail
venv=$(mktemp -d)/v
python3 -m venv --without-pip "$venv"
names=$(grep -v '^\s*#' requirements.txt | sed 's/[=<>!~ ].*//' | grep -v '^$')
python3 -m pip --python "$venv/bin/python" install --dry-run --quiet --no-index \
  --find-links wheelhouse --report /tmp/resolution.json $names
python3 - <<'PY'
import json
import re
import sys
import zipfile
from pathlib import Path

from pip._vendor.packaging.specifiers import SpecifierSet

report = json.loads(Path("/tmp/resolution.json").read_text())
resolved = {item["metadata"]["name"].lower(): item["metadata"]["version"] for item in report["install"]}
python = ".".join(map(str, sys.version_info[:3]))


def why(name: str, version: str) -> str:
    wheel = next(Path("wheelhouse").glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        meta = archive.read(f"{name.replace('-', '_')}-{version}.dist-info/METADATA").decode()
    needs = re.search(r"^Requires-Python: (.+)$", meta, re.M)
    if needs and python not in SpecifierSet(needs[1]):
        return f"{version} requires Python {needs[1]}, this image has {python}"
    deps = re.findall(r"^Requires-Dist: (.+)$", meta, re.M)
    return f"{version} requires {', '.join(deps)}, which conflicts with the other pins"


lines = []
for line in Path("requirements.txt").read_text().splitlines():
    match = re.match(r"^([A-Za-z0-9._-]+)==(\S+)\s*$", line)
    if match and resolved.get(match[1].lower(), match[2]) != match[2]:
        name, old = match[1], match[2]
        lines.append(f"# {name}: {why(name, old)}")
        line = f"{name}=={resolved[name.lower()]}"
    lines.append(line)
Path("requirements.txt").write_text("\n".join(lines) + "\n")
print(Path("requirements.txt").read_text())
PY
