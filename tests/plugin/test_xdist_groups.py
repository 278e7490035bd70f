"""``--dist loadgroup`` keeps an ``xdist_group`` on one worker, as ``scripts/test`` relies on.

The suite's expensive module fixtures (the engineering proof in ``tests/eng/test_core_tasks.py``,
the Ray cluster, the local model server) are shared by their group's tests only when the group
runs on one worker. pytest 9.2 with pytest-xdist 3.8 split every group silently (xdist wrote the
group into an attribute pytest no longer reads), and each of those fixtures ran once per worker:
about 13 minutes more for the engineering proof alone. This test fails the day that happens again.
"""

from __future__ import annotations

import pytest

GROUPED = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("shared")

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


def test_a_group_runs_on_one_worker_with_one_module_fixture(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    setups = pytester.path / "setups.log"
    monkeypatch.setenv("SETUP_LOG", str(setups))
    pytester.makepyfile(test_grouped=GROUPED, test_other=UNGROUPED)
    result = pytester.runpytest_subprocess(
        "-n", "2", "--dist", "loadgroup", "-p", "no:mlebench", "-p", "no:cacheprovider", "-v"
    )  # fmt: skip
    result.assert_outcomes(passed=12)
    grouped = [line for line in result.outlines if "PASSED" in line and "test_grouped" in line]
    workers = {line.split("]", 1)[0] for line in grouped}
    assert len(grouped) == 4 and len(workers) == 1, "\n".join(grouped)
    assert all("@shared" in line for line in grouped), "\n".join(grouped)
    assert len(setups.read_text().split()) == 1, "the group's module fixture ran once per worker"
