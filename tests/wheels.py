"""Tiny wheels and agent folders with Dockerfiles for the image tests, made offline.

A wheel is built here with hatchling (a dev dependency) from a one-module project, so the image
mechanism is tested with real wheels, a real lock and a real ``--no-index`` install, without any
package index.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

PYPROJECT = """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "{name}"
version = "{version}"

[tool.hatch.build.targets.wheel]
packages = ["{module}"]
"""

AGENT_DOCKERFILE = """\
ARG BASE_IMAGE=pytest-mlebench-agent:latest
FROM ${BASE_IMAGE}
COPY . /tmp/agent-build
RUN python3 -m pip install --no-index --find-links /tmp/agent-build/wheelhouse \\
        --break-system-packages --require-hashes -r /tmp/agent-build/requirements.lock \\
    && rm -rf /tmp/agent-build
"""

AGENT_START = "python3 -c 'import {module}; print(\"probe says\", {module}.VALUE)'\n"


def build_wheel(workdir: Path, name: str, version: str, value: str) -> Path:
    """A wheel of project ``name`` whose module (``name`` with ``_``) has ``VALUE = value``."""
    module = name.replace("-", "_")
    project = workdir / f"{name}-{version}-src"
    (project / module).mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        PYPROJECT.format(name=name, version=version, module=module)
    )
    (project / module / "__init__.py").write_text(f"VALUE = {value!r}\n")
    out = workdir / "dist"
    code = f"import hatchling.build as b; print(b.build_wheel({str(out)!r}))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, check=True
    )
    return out / done.stdout.strip().splitlines()[-1]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lock_for(*wheels: Path, digests: dict[Path, str] | None = None) -> str:
    """A lock pinning each wheel's name and version to its sha256 (or the one in ``digests``)."""
    lines = []
    for wheel in wheels:
        name, version = wheel.name.split("-")[:2]
        digest = (digests or {}).get(wheel, sha256(wheel))
        lines.append(f"{name}=={version} \\\n    --hash=sha256:{digest}\n")
    return "".join(lines)


def agent_folder(root: Path, lock: str, *, module: str, profile: str = "base") -> Path:
    """An mle-bench agent folder with a Dockerfile per the contract, installing ``lock``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.yaml").write_text(
        textwrap.dedent(f"""\
            probe:
              start: start.sh
              dockerfile: Dockerfile
              image: {profile}
              requirements: requirements.lock
            """)
    )
    (root / "Dockerfile").write_text(AGENT_DOCKERFILE)
    (root / "requirements.lock").write_text(lock)
    (root / "start.sh").write_text(AGENT_START.format(module=module))
    # Images outlive test sessions: a fresh file makes this folder's image tag new every time.
    (root / "build-id.txt").write_text(uuid.uuid4().hex)
    return root
