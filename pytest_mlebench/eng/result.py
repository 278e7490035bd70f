"""An engineering run's result as one value: the task, its score, the verdict and what backs it.

The engineering kind of run (:mod:`pytest_mlebench.run.engineering`) hands this to the record
layer, which keeps its JSON form (:meth:`EngineeringResult.to_record`, the record's
``engineering`` block, byte for byte what the readers in ``report/`` have always read).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.eng.scoring import TaskScore, engineering_block
from pytest_mlebench.eng.task import EngTask


@dataclass(frozen=True)
class BuildsEntry:
    """The image builds of a run whose task declares ``builder:``.

    Attributes:
        agent_calls: The agent's calls of ``build_image.sh`` (time, fingerprint, ok, wall).
        agent_refused: How many of its calls were refused (rate, size, allow-list).
        verify: The verify-side recipe's facts (``None``: it did not run).
    """

    agent_calls: tuple[Mapping[str, Any], ...] = ()
    agent_refused: int = 0
    verify: Mapping[str, Any] | None = None

    def to_record(self) -> dict[str, Any]:
        """The ``builds`` entry of the record's ``engineering`` block."""
        return {
            "agent_calls": [dict(call) for call in self.agent_calls],
            "agent_refused": self.agent_refused,
            "verify": None if self.verify is None else dict(self.verify),
        }


@dataclass(frozen=True)
class EngineeringResult:
    """The scored run of an engineering task.

    Attributes:
        task: The task that was run.
        score: Its score, dimensions and every check (verifier's and harness's).
        passed: Whether the run passed: accepted verifier results, no failed gate, a score at
            least ``--mle-require-score``.
        verifier: The verifier's facts (wall time, exit status, image, accepted or why not).
        builds: The image builds of the run (``None``: the task declares no builder).
    """

    task: EngTask
    score: TaskScore
    passed: bool
    verifier: Mapping[str, Any]
    builds: BuildsEntry | None = None

    def to_record(self) -> dict[str, Any]:
        """The record's ``engineering`` block."""
        block = engineering_block(self.task, self.score, self.passed, self.verifier)
        block["builds"] = None if self.builds is None else self.builds.to_record()
        return block
