"""Prepare a batch of competitions (``mlebench prepare``) without losing any to another's failure.

Every competition is tried in turn; one line says when each starts and how it ended, with the time
it took. A competition whose data cannot be made here (a data source that is not installed, Kaggle
data not downloaded) is *skipped* with the command that fixes it; one whose preparation broke is
*failed*. A skipped competition's reason leaves out the ``mlebench prepare`` command that
:class:`~pytest_mlebench.errors.DataNotPrepared` carries: that is the command being run. The
closing summary lists the three groups, then, in one list, the rules page of every
competition for which Kaggle answered 403 (rules not accepted), so that one pass over the
pages fixes them all.

With ``drop_raw`` (``mlebench prepare --drop-raw``) a Kaggle competition's ``raw/`` folder is
deleted once its prepared data has been verified against its manifest (every file re-hashed), so
the data sits on disk once instead of twice; files that ``prepared/`` hard-links stay there, so
only the rest is freed. Preparing the competition again (say after its definition changed) then
downloads it again.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pytest_mlebench.data import RawFetcher, check_prepared, prepare_competition, prepared_paths
from pytest_mlebench.errors import DataNotPrepared, MLEBenchError
from pytest_mlebench.kaggle import RulesNotAccepted
from pytest_mlebench.kaggle.download_progress import human_bytes
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
        rules_url: Where to accept the rules, when Kaggle refused for want of that.
    """

    competition_id: str
    status: Status
    seconds: float
    detail: str
    rules_url: str | None = None


def prepare_batch(
    competitions: Sequence[Competition],
    data_dir: Path,
    *,
    force: bool = False,
    say: Say = print,
    fetch_raw: RawFetcher | None = None,
    verify: bool = False,
    drop_raw: bool = False,
) -> list[PrepareOutcome]:
    """Prepare each competition (downloads allowed), reporting progress through ``say``.

    Args:
        fetch_raw: Fills a Kaggle competition's ``raw/`` (one downloader for the whole batch,
            or a ``--from`` source); default: a download per competition.
        verify: Re-hash prepared files instead of trusting sizes and times.
        drop_raw: Delete a Kaggle competition's ``raw/`` once its prepared data is verified.
    """
    outcomes = []
    for index, competition in enumerate(competitions, start=1):
        counter = f"[{index}/{len(competitions)}] {competition.id}"
        say(f"{counter}: started")
        outcome = _prepare_one(
            competition, data_dir, say, force=force, fetch_raw=fetch_raw, verify=verify
        )
        if drop_raw and outcome.status == "prepared" and competition.source == "kaggle":
            outcome = _drop_raw(competition, data_dir, outcome)
        say(f"{counter}: {outcome.status} in {outcome.seconds:.1f} s: {outcome.detail}")
        outcomes.append(outcome)
    return outcomes


def _prepare_one(
    competition: Competition,
    data_dir: Path,
    say: Say,
    *,
    force: bool,
    fetch_raw: RawFetcher | None,
    verify: bool,
) -> PrepareOutcome:
    started = time.monotonic()

    def ended(status: Status, detail: str, rules_url: str | None = None) -> PrepareOutcome:
        detail = detail.removeprefix(f"{competition.id}: ")  # the line names it already
        seconds = time.monotonic() - started
        return PrepareOutcome(competition.id, status, seconds, detail, rules_url)

    try:
        paths = prepare_competition(
            competition,
            data_dir,
            force=force,
            allow_download=True,
            progress=lambda message: say(f"  {message}"),
            fetch_raw=fetch_raw,
            verify=verify,
        )
    except RulesNotAccepted as exc:
        return ended("skipped", reason_of(exc), exc.url)
    except DataNotPrepared as exc:
        return ended("skipped", reason_of(exc))
    except (MLEBenchError, OSError) as exc:
        # OSError: a full disk or an unwritable data folder; the next competition may still fit.
        return ended("failed", str(exc) or type(exc).__name__)
    return ended("prepared", str(paths.public.parent))


def _drop_raw(competition: Competition, data_dir: Path, outcome: PrepareOutcome) -> PrepareOutcome:
    """Delete ``raw/`` after re-hashing every prepared file; keep it when anything is off."""
    raw = data_dir / competition.id / "raw"
    if not raw.exists():
        return outcome
    problem = check_prepared(competition, prepared_paths(competition, data_dir), verify=True)
    if problem is not None:
        note = f"; raw files kept: the prepared data does not verify ({problem})"
        return replace(outcome, status="failed", detail=outcome.detail + note)
    freed = _unshared_bytes(raw)
    shutil.rmtree(raw)
    note = f"; raw files deleted after verification ({human_bytes(freed)} freed)"
    return replace(outcome, detail=outcome.detail + note)


def _unshared_bytes(folder: Path) -> int:
    """Bytes of files under ``folder`` that no hard link elsewhere keeps (what deleting frees)."""
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            status = (Path(root) / name).stat()
            total += status.st_size if status.st_nlink == 1 else 0
    return total


def reason_of(error: DataNotPrepared) -> str:
    """The error's message without its ``prepare it with: mlebench prepare …`` tail, which
    would only name the command that just ran; another fix (``pip install …``) stays."""
    text = str(error)
    if error.command.startswith("mlebench prepare"):
        return text.removesuffix(f"; prepare it with: {error.command}")
    return text


def skipped_outcomes(competitions: Sequence[Competition], detail: str) -> list[PrepareOutcome]:
    """Outcomes of competitions left out before the batch started (``detail`` says why)."""
    return [PrepareOutcome(c.id, "skipped", 0.0, detail) for c in competitions]


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
    return lines + rules_lines(outcomes)


def rules_lines(outcomes: Sequence[PrepareOutcome]) -> list[str]:
    """Every rules page still to accept, in one list (nothing when there is none)."""
    urls = [o.rules_url for o in outcomes if o.rules_url]
    if not urls:
        return []
    return [
        f"Kaggle needs you to accept the rules of {len(urls)} competition(s): open each page "
        "signed in as the account of your API token, accept, then run the same command again:",
        *(f"  {url}" for url in urls),
    ]


def all_prepared(outcomes: Sequence[PrepareOutcome]) -> bool:
    return all(o.status == "prepared" for o in outcomes)
