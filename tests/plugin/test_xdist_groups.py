"""The suite's xdist groups (``tests/xdist_groups.py``) keep a group on one worker.

The engineering proof, the Ray cluster and the model server are each set up once only when their
tests share a worker; with pytest 9.2, xdist's own ``--dist loadgroup`` split every group silently
(about 13 more minutes for the engineering proof alone). These tests run the suite's scheduler in
a real ``pytest -n 2`` and check its table against the tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.xdist_groups import GROUPS, GroupScheduling, group_of

ROOT = Path(__file__).resolve().parents[2]

GROUPED = """
import os
import pytest

@pytest.fixture(scope="module")
def expensive():
    with open(os.environ["SETUP_LOG"], "a") as log:
        log.write(f"{os.getpid()}\\n")
    return os.getpid()

@pytest.mark.parametrize("n", range(4))
def test_grouped(expensive, n):
    assert expensive == os.getpid()
"""

UNGROUPED = """
import pytest

@pytest.mark.parametrize("n", range(8))
def test_other(n):
    pass
"""

CONFTEST = """
from tests.xdist_groups import GroupScheduling, make_scheduler

class Shared(GroupScheduling):
    groups = {"test_grouped.py": "shared"}

def pytest_xdist_make_scheduler(config, log):
    return make_scheduler(config, log, Shared)
"""


def test_a_group_runs_on_one_worker_with_one_module_fixture(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    setups = pytester.path / "setups.log"
    monkeypatch.setenv("SETUP_LOG", str(setups))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_grouped=GROUPED, test_other=UNGROUPED)
    result = pytester.runpytest_subprocess(
        "-n", "2", "--dist", "loadgroup", "-p", "no:mlebench", "-p", "no:cacheprovider", "-v"
    )  # fmt: skip
    result.assert_outcomes(passed=12)
    grouped = [line for line in result.outlines if "PASSED" in line and "test_grouped" in line]
    workers = {line.split("]", 1)[0] for line in grouped}
    assert len(grouped) == 4 and len(workers) == 1, "\n".join(grouped)
    assert len(setups.read_text().split()) == 1, "the group's module fixture ran once per worker"


def test_every_other_test_is_a_unit_of_its_own() -> None:
    """Tests outside the groups can go to either worker: each is its own scheduling unit. (Which
    worker runs them is the machine's timing, so the units are checked, not where they ran.)"""
    scheduler = object.__new__(GroupScheduling)  # _split_scope reads no state of the scheduler
    units = {scheduler._split_scope(f"tests/unit/test_a.py::test_{n}") for n in range(3)}
    assert len(units) == 3
    grouped = {scheduler._split_scope(f"tests/ray/test_{n}.py::test_x") for n in range(3)}
    assert grouped == {"group:ray-cluster"}


def test_every_group_names_a_part_of_the_suite() -> None:
    for prefix in GROUPS:
        assert (ROOT / prefix).exists(), f"{prefix} is gone: its group would group nothing"
    assert group_of("tests/ray/test_ray_gateway.py::test_x[a@b]") == "ray-cluster"
    assert group_of("tests/eng/test_core_tasks.py::test_the_oracle_passes_every_task") == (
        "eng-core-tasks"
    )
    assert group_of("tests/eng/test_core_tasks_more.py::test_y") is None
    assert group_of("tests/raylet/test_z.py::test_z") is None
