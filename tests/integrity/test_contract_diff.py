"""Which file-system changes are outside the contract, for a competition and an engineering run.

One filter serves both: a competition may write anywhere under ``/home``, an engineering run only
in ``WORK_DIR``, ``LOGS_DIR``, the scratch folders and what the harness writes itself.
"""

from __future__ import annotations

from pytest_mlebench.integrity.inventory import contract_paths, outside_contract
from pytest_mlebench.sandbox.docker.sandbox import PATHS

ADDED, CHANGED = 1, 0


def diff(*entries: tuple[str, int]) -> list[dict[str, object]]:
    return [{"Path": path, "Kind": kind} for path, kind in entries]


HARNESS = diff(
    ("/home", CHANGED),
    ("/home/work", ADDED),
    ("/home/code", ADDED),
    ("/home/instructions.md", ADDED),
    ("/home/agent/solution/solve.sh", ADDED),
    ("/tmp/mle-bench-start.time", ADDED),
    ("/usr/sbin/docker-init", ADDED),
    ("/run", CHANGED),
    ("/run/mlebench-lease.pid", ADDED),
    ("/run/mlebench-lease.taken", ADDED),
)


def test_an_engineering_run_may_write_its_workspace_logs_and_scratch() -> None:
    changes = HARNESS + diff(
        ("/home/work/app.py", CHANGED),
        ("/home/logs/run.log", ADDED),
        ("/var/tmp/x", ADDED),
        ("/home/nonroot/.cache/pip/wheel", ADDED),
        ("/etc/passwd", 2),  # deleted: not a write
    )
    assert outside_contract(changes, contract_paths(PATHS, workspace=True)) == {
        "count": 0,
        "paths": [],
    }


def test_an_engineering_run_writing_elsewhere_is_outside() -> None:
    changes = HARNESS + diff(
        ("/home/code/copy.py", ADDED),
        ("/home/nonroot/.bashrc", CHANGED),
        ("/etc", CHANGED),
        ("/etc/hosts.bak", ADDED),
        ("/home/workshop/x", ADDED),  # a neighbour of WORK_DIR, not inside it
    )
    found = outside_contract(changes, contract_paths(PATHS, workspace=True))
    assert found["paths"] == [
        "/etc/hosts.bak",
        "/home/code/copy.py",
        "/home/nonroot/.bashrc",
        "/home/workshop/x",
    ]


def test_a_competition_run_keeps_all_of_home() -> None:
    changes = HARNESS + diff(("/home/code/train.py", ADDED), ("/opt/model.bin", ADDED))
    assert outside_contract(changes, contract_paths(PATHS, workspace=False)) == {
        "count": 1,
        "paths": ["/opt/model.bin"],
    }
