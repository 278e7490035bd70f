"""What a run is of, as the skeleton sees it: a record's subject with a time limit and resources.

A competition (:class:`~pytest_mlebench.definition.Competition`) and an engineering task
(:class:`~pytest_mlebench.eng.task.EngTask`) both fit: the skeleton applies one time-limit rule
and one resource rule to either.
"""

from __future__ import annotations

from typing import Protocol

from pytest_mlebench.records.build import RunSubject


class Wanted(Protocol):
    """The resources a subject asks for (``None``: no limit of its own)."""

    @property
    def cpus(self) -> float | None: ...

    @property
    def memory(self) -> str | None: ...

    @property
    def shm(self) -> str | None: ...

    @property
    def pids(self) -> int | None: ...


class Subject(RunSubject, Protocol):
    """What a run is of: a record's subject with its own time limit and resources."""

    @property
    def time_limit(self) -> int: ...

    @property
    def resources(self) -> Wanted: ...
