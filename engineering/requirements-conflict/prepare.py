"""Per-seed variant of requirements-conflict: a wheelhouse of generated packages and bad pins.

The wheels are tiny pure-Python packages written here with ``zipfile`` (no build tool, no
download). Their names say what they are: ``mlb-core``, ``mlb-io``, ``mlb-plot``, ``mlb-utils``
("mlb" = pytest-mlebench), each with a one-line summary "generated for pytest-mlebench". The
planted conflicts, for Python 3.11 (``A`` = a per-seed minor version):

- ``mlb-core 2.0.0`` needs Python >= 3.12; ``1.A.0`` lacks ``normalize`` (the app needs it), so
  the fix is ``1.(A+1).0``;
- ``mlb-io 1.2.0`` needs ``mlb-core>=2``; ``0.9.0`` needs ``mlb-core<1.(A+1)`` and lacks
  ``read_table``; the fix is ``1.0.0`` (``mlb-core>=1.(A+1),<2``);
- ``mlb-plot 3.1.0`` needs Python < 3.11; the fix is ``3.0.0``;
- ``mlb-utils==0.5.0`` is right (``0.6.0`` needs Python >= 3.12: a trap for "upgrade everything").

The same wheelhouse goes to ``workspace/wheelhouse`` (for the agent) and ``private/wheelhouse``
(the one the verifier installs from, out of the agent's reach). Deterministic: fixed zip dates
and entry order.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import zipfile
from pathlib import Path
from typing import NamedTuple

SUMMARY = "Generated for pytest-mlebench's requirements-conflict task (not a real package)"


class Dist(NamedTuple):
    name: str
    version: str
    requires_python: str
    requires: tuple[str, ...]
    code: str


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
    return f"sha256={digest}"


def write_wheel(folder: Path, dist: Dist) -> Path:
    module = dist.name.replace("-", "_")
    info = f"{module}-{dist.version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {dist.name}",
        f"Version: {dist.version}",
        f"Summary: {SUMMARY}",
        f"Requires-Python: {dist.requires_python}",
        *(f"Requires-Dist: {req}" for req in dist.requires),
    ]
    wheel = (
        "Wheel-Version: 1.0\nGenerator: pytest-mlebench prepare\n"
        "Root-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files = {
        f"{module}/__init__.py": dist.code,
        f"{info}/METADATA": "\n".join(metadata) + "\n",
        f"{info}/WHEEL": wheel,
    }
    record = [
        f"{path},{_record_hash(text.encode())},{len(text.encode())}" for path, text in files.items()
    ]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    target = folder / f"{module}-{dist.version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, text)
    return target


def _code(name: str, version: str, body: str) -> str:
    return f'"""{SUMMARY}."""\n\n__version__ = "{version}"\nNAME = "{name}"\n{body}'


def distributions(minor: int, salt: str) -> tuple[list[Dist], dict[str, str], dict[str, str]]:
    """All wheels, the planted pins and the fixed pins."""
    old, good = f"1.{minor}.0", f"1.{minor + 1}.0"
    scale = "\n\ndef scale(values):\n    return [2 * v for v in values]\n"
    normalize = (
        scale
        + "\n\ndef normalize(values):\n    top = max(values)\n"
        + "    return [round(v / top, 3) for v in values]\n"
    )
    read = "\n\ndef read_table(values):\n    return sorted(values)\n"
    render = "\n\ndef render(values):\n    return '|'.join(str(v) for v in values)\n"
    tag = f"\n\ndef tag():\n    return '{salt}'\n"
    dists = [
        Dist("mlb-core", old, ">=3.8", (), _code("mlb-core", old, scale)),
        Dist("mlb-core", good, ">=3.8", (), _code("mlb-core", good, normalize)),
        Dist("mlb-core", "2.0.0", ">=3.12", (), _code("mlb-core", "2.0.0", normalize)),
        Dist(
            "mlb-io", "0.9.0", ">=3.8", (f"mlb-core<1.{minor + 1}",), _code("mlb-io", "0.9.0", "")
        ),
        Dist(
            "mlb-io",
            "1.0.0",
            ">=3.8",
            (f"mlb-core<2,>=1.{minor + 1}",),
            _code("mlb-io", "1.0.0", read),
        ),
        Dist("mlb-io", "1.2.0", ">=3.8", ("mlb-core>=2.0",), _code("mlb-io", "1.2.0", read)),
        Dist(
            "mlb-plot", "3.0.0", ">=3.8", (f"mlb-core>={old}",), _code("mlb-plot", "3.0.0", render)
        ),
        Dist(
            "mlb-plot",
            "3.1.0",
            "<3.11,>=3.8",
            (f"mlb-core>={old}",),
            _code("mlb-plot", "3.1.0", render),
        ),
        Dist("mlb-utils", "0.5.0", ">=3.8", (), _code("mlb-utils", "0.5.0", tag)),
        Dist("mlb-utils", "0.6.0", ">=3.12", (), _code("mlb-utils", "0.6.0", tag)),
    ]
    planted = {"mlb-core": "2.0.0", "mlb-io": "1.2.0", "mlb-plot": "3.1.0", "mlb-utils": "0.5.0"}
    fixed = {"mlb-core": good, "mlb-io": "1.0.0", "mlb-plot": "3.0.0", "mlb-utils": "0.5.0"}
    return dists, planted, fixed


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = random.Random(5_100 + seed)
    minor = rng.randint(1, 4)
    salt = f"{rng.getrandbits(32):08x}"
    dists, planted, fixed = distributions(minor, salt)
    order = list(planted)
    rng.shuffle(order)
    for folder in (workspace / "wheelhouse", private / "wheelhouse"):
        folder.mkdir(parents=True, exist_ok=True)
        for dist in dists:
            write_wheel(folder, dist)
    lines = ["# Pinned for the reporting job. Every package here is needed; keep exact pins."]
    lines += [f"{name}=={planted[name]}" for name in order]
    (workspace / "requirements.txt").write_text("\n".join(lines) + "\n", "utf-8")
    values = [3, 1, 2, 4]
    normalized = [round(v / max(values), 3) for v in sorted(values)]
    expected = f"{'|'.join(str(v) for v in normalized)} {salt}"
    answer = {"fixed": fixed, "planted": planted, "smoke_stdout": expected}
    (private / "expected.json").write_text(json.dumps(answer, indent=2) + "\n", "utf-8")
    return {}
