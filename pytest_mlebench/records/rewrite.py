"""Replace run records in a results file after the fact (a clearance, a failure summary).

The results file is append-only while a session runs; a later change to a finished run (a person
clearing its withheld medal, the session end adding a failure summary) rewrites the file whole,
under the writers' lock and in one rename, as dropping a session does: the changed runs' lines
are replaced in place, every other line (torn ones included) is kept as it is. The run folder's
``record.json`` is rewritten too (:func:`write_run_record`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from filelock import FileLock

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.records.run_record import RunRecord


def results_lock(path: Path) -> FileLock:
    """The writers' lock of the results file ``path`` (the one :func:`append_record` takes)."""
    return FileLock(str(path) + ".lock", timeout=60)


def replace_lines(lines: list[str], changed: Mapping[str, RunRecord]) -> list[str]:
    """``lines`` with the line of each run id in ``changed`` replaced by its record."""
    out = []
    for line in lines:
        try:
            run_id = json.loads(line).get("run_id")
        except (ValueError, AttributeError):
            run_id = None
        record = changed.get(run_id) if isinstance(run_id, str) else None
        out.append(line if record is None else record.to_json() + "\n")
    return out


def replace_records(path: Path, changed: Mapping[str, RunRecord]) -> None:
    """Rewrite ``path`` with the records of ``changed`` (by run id) in place of their lines."""
    if not changed or not path.is_file():
        return
    with results_lock(path):
        lines = path.read_text("utf-8").splitlines(keepends=True)
        write_atomically(path, "".join(replace_lines(lines, changed)))


def write_run_record(record: RunRecord) -> None:
    """Rewrite ``record.json`` in the run's folder (where the folder is on this machine), so the
    run's page and ``mlebench show`` read the changed record."""
    folder = Path(record.run_dir) if record.run_dir else None
    if folder is not None and folder.is_dir():
        write_atomically(folder / "record.json", record.to_json())
