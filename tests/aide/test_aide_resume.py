"""A resumed AIDE run goes on from the journal its interrupted attempt saved (real aideml).

The check runs in ``python3`` with AIDE's locked packages (``aide_on_path``): a journal of two
steps is saved as AIDE saves it, under an earlier attempt's log folder, and ``start_journal`` of
``run_aide.py`` loads it when ``MLEBENCH_RESUMED=1``, and starts afresh otherwise.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pytest_mlebench.agents.aide_folder import AIDE_FOLDER

pytestmark = pytest.mark.usefixtures("aide_on_path")

CHECK = """
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, sys.argv[1])
from aide.journal import Journal, Node
from aide.utils.serialize import dump_json
import run_aide

logs = Path(sys.argv[2])
journal = Journal()
first = Node(code="print(1)", plan="draft")
journal.append(first)
journal.append(Node(code="print(2)", plan="improve", parent=first))
(logs / "1-interrupted").mkdir(parents=True)
dump_json(journal, logs / "1-interrupted" / "journal.json")
loaded = run_aide.start_journal(SimpleNamespace(log_dir=logs / "2-resumed"))
print("steps", len(loaded), [node.code for node in loaded.nodes])
"""


@pytest.mark.parametrize(("resumed", "steps"), [("1", 2), ("0", 0)])
def test_a_resumed_aide_loads_the_journal_it_left(tmp_path: Path, resumed: str, steps: int) -> None:
    done = subprocess.run(
        ["python3", "-c", CHECK, str(AIDE_FOLDER), str(tmp_path / "aide")],
        env={**os.environ, "MLEBENCH_RESUMED": resumed},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"steps {steps}" in done.stdout
    if steps:
        assert "['print(1)', 'print(2)']" in done.stdout
