"""The suite's xdist groups: tests that share an expensive fixture run on one worker.

Three parts of the suite share one costly set-up among their tests: the engineering proof
(``tests/eng/test_core_tasks.py``, one pytest session over every shipped task, about 8 minutes),
the local Ray cluster (``tests/ray/``) and the local model server (``tests/real_model/``). Spread
over two workers, each would be set up twice, at the same time, on a 2-core machine.

pytest-xdist's own ``--dist loadgroup`` carries an ``xdist_group`` mark from the worker to the
scheduler by appending ``@group`` to the test's node id, which pytest 9.2 no longer lets a plugin
do (pytest-xdist issue 1386): every group was split silently, and CI took 46 minutes instead of
20. So the groups are named here, by path, and read by the scheduler itself (xdist's public
``pytest_xdist_make_scheduler`` hook, wired in ``tests/conftest.py``): no node id is rewritten,
and the grouping does not depend on the pytest version.
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdist.scheduler import LoadGroupScheduling

GROUPS: dict[str, str] = {
    "tests/eng/test_core_tasks.py": "eng-core-tasks",
    "tests/ray/": "ray-cluster",
    "tests/real_model/": "real-model",
}


def group_of(nodeid: str, groups: dict[str, str] = GROUPS) -> str | None:
    """The group of the test ``nodeid`` (rootdir-relative), or ``None`` for a test of its own."""
    path = nodeid.partition("::")[0]
    for prefix, group in groups.items():
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return group
    return None


class GroupScheduling(LoadGroupScheduling):  # type: ignore[misc]
    """``--dist loadgroup`` whose groups come from :attr:`groups` (paths), then from xdist's own
    ``@group`` suffix where a pytest version still carries it; every other test is its own unit."""

    groups: ClassVar[dict[str, str]] = GROUPS

    def _split_scope(self, nodeid: str) -> str:
        group = group_of(nodeid, self.groups)
        return f"group:{group}" if group is not None else str(super()._split_scope(nodeid))


def make_scheduler(config: Any, log: Any, scheduling: type[GroupScheduling]) -> Any:
    """``scheduling`` for ``--dist loadgroup``; ``None`` (xdist's own choice) otherwise."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return scheduling(config, log)
