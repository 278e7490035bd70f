"""Prepare a batch of competitions (``mlebench prepare``) without losing any to another's failure.

Every competition is tried in turn; one line says when each starts and how it ended, with the time
it took. A competition whose data cannot be made here (a data source that is not installed, Kaggle
data not downloaded) is *skipped* with the command that fixes it; one whose preparation broke is
*failed*. The closing summary lists the three groups.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pytest_mlebench.data import prepare_competition
from pytest_mlebench.errors import DataNotPrepared, MLEBenchError
from pytest_mlebench.registry import Competition

Status = Literal["prepared", "skipped", "failed"]
Say = Callable[[str], None]


@dataclass(frozen=True)
class PrepareOutcome:
    """How the preparation of one competition ended.

    Attributes:
        competition_id: The competition.
        status: ``prepared``, ``skipped`` (cannot be made here; ``detail`` says how to fix it) or
            ``failed`` (the preparation itself broke).
        seconds: Wall time spent on it.
        detail: The prepared folder, or why it was not prepared.
    """

    competition_id: str
    status: Status
    seconds: float
    detail: str


def prepare_batch(
    competitions: Sequence[Competition],
    data_dir: Path,
    *,
    force: bool = False,
    say: Say = print,
) -> list[PrepareOutcome]:
    """Prepare each competition (downloads allowed), reporting progress through ``say``."""
    outcomes = []
    for index, competition in enumerate(competitions, start=1):
        counter = f"[{index}/{len(competitions)}] {competition.id}"
        say(f"{counter}: started")
        outcome = _prepare_one(competition, data_dir, force, say)
        say(f"{counter}: {outcome.status} in {outcome.seconds:.1f} s: {outcome.detail}")
        outcomes.append(outcome)
    return outcomes


def _prepare_one(competition: Competition, data_dir: Path, force: bool, say: Say) -> PrepareOutcome:
    started = time.monotonic()

    def ended(status: Status, detail: str) -> PrepareOutcome:
        detail = detail.removeprefix(f"{competition.id}: ")  # the line names it already
        return PrepareOutcome(competition.id, status, time.monotonic() - started, detail)

    try:
        paths = prepare_competition(
            competition,
            data_dir,
            force=force,
            allow_download=True,
            progress=lambda message: say(f"  {message}"),
        )
    except DataNotPrepared as exc:
        return ended("skipped", str(exc))
    except (MLEBenchError, OSError) as exc:
        # OSError: a full disk or an unwritable data folder; the next competition may still fit.
        return ended("failed", str(exc) or type(exc).__name__)
    return ended("prepared", str(paths.public.parent))


def summary_lines(outcomes: Sequence[PrepareOutcome], data_dir: Path) -> list[str]:
    """The closing report: counts, then what was prepared, skipped and failed, and why."""
    by_status = {
        status: [o for o in outcomes if o.status == status]
        for status in ("prepared", "skipped", "failed")
    }
    prepared = by_status["prepared"]
    lines = [f"{len(prepared)} of {len(outcomes)} prepared in {data_dir}"]
    if prepared:
        lines.append(f"prepared ({len(prepared)}): {', '.join(o.competition_id for o in prepared)}")
    for status in ("skipped", "failed"):
        group = by_status[status]
        if group:
            lines.append(f"{status} ({len(group)}):")
            lines.extend(f"  {o.competition_id}: {o.detail}" for o in group)
    return lines


def all_prepared(outcomes: Sequence[PrepareOutcome]) -> bool:
    return all(o.status == "prepared" for o in outcomes)
