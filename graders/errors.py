"""Exceptions of the graders library.

Two audiences, two exceptions: :class:`GraderError` is the competition's fault (a broken answers
file, an impossible spec) and is raised to the caller; :class:`SubmissionRejected` is the
submission's fault and never leaves the library — :mod:`graders.scoring` turns it into an
invalid :class:`~graders.spec.ScoreResult`.
"""

from __future__ import annotations

from collections.abc import Iterable


class GraderError(Exception):
    """The competition's answers or spec cannot be graded against (not the submission's fault)."""


class UnknownMetricError(GraderError, ValueError):
    """A metric name that is not in :data:`graders.metrics.METRICS`."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        names = ", ".join(sorted(known))
        super().__init__(f"unknown metric {name!r}; known metrics: {names}")
        self.name = name


class SubmissionRejected(Exception):
    """Internal: the submission is invalid; ``reason`` is one line a person can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
