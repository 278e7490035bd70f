"""What one parametrisation of a benchmark test names: a subject, its kind, a seed, an agent."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_mlebench.records.run_record import Kind


@dataclass(frozen=True)
class RunCase:
    """One parametrisation of a benchmark test: a subject (a competition or an engineering task,
    told apart by ``kind``) and a seed.

    ``agent`` names the run's own agent where one session runs several: ``--mle-agent 'cheat:*'``
    gives each known cheat of an engineering task its own case (``docs/engineering.md``).
    """

    subject: str
    seed: int
    agent: str | None = None
    kind: Kind = "competition"

    @property
    def competition_id(self) -> str:
        """The subject's id under its older name (readers of cases from before kinds)."""
        return self.subject

    def test_id(self, seeds: int) -> str:
        base = self.subject if seeds == 1 else f"{self.subject}-s{self.seed}"
        return base if self.agent is None else f"{base}-{self.agent}"
