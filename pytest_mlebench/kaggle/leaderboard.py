"""``mlebench leaderboard fetch ID``: Kaggle's board, saved beside the shipped one and compared.

The fetched board goes to ``<data>/<id>/leaderboard/kaggle-<UTC time>.csv`` (columns ``rank``,
``score``, and the team name when Kaggle gives one, best first by the competition's declared
direction); the shipped ``competitions/<id>/leaderboard.csv`` is never written. The report gives
both row counts and both sets of medal thresholds (:func:`pytest_mlebench.medals.thresholds_for`).
Kaggle's download of a closed competition's board may be the *public* one, while medals need the
final private board: the report says so instead of replacing anything.
"""

from __future__ import annotations

import csv
import io
import shutil
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pytest_mlebench.definition import Competition
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.kaggle.client import http_status, is_transient, rules_url
from pytest_mlebench.medals import MEDALS, Thresholds, thresholds_for

CAUTION = (
    "note: Kaggle's download can be the public board of a closed competition; medals need the "
    "final (private) board, so compare before you replace anything"
)


class LeaderboardError(MLEBenchError):
    """The board could not be fetched or read; the message names the fix."""


@dataclass(frozen=True)
class FetchedBoard:
    """A board fetched from Kaggle, written to ``path``, next to the shipped one."""

    competition: Competition
    path: Path
    scores: tuple[float, ...]

    def report_lines(self) -> list[str]:
        """Where it was written and how it differs from the shipped board."""
        comp = self.competition
        lines = [f"{comp.id}: fetched leaderboard, {len(self.scores)} rows, written to {self.path}"]
        fetched = thresholds_for(self.scores, comp.lower_is_better) if self.scores else None
        if not comp.has_leaderboard:
            return [*lines, *self._how_to_use()]
        shipped = thresholds_for(comp.leaderboard_scores, comp.lower_is_better)
        lines.append(
            f"rows: shipped {len(comp.leaderboard_scores)}, fetched {len(self.scores)}"
            f" ({len(self.scores) - len(comp.leaderboard_scores):+d})"
        )
        lines.extend(_threshold_lines(shipped, fetched))
        lines.append(CAUTION)
        return lines

    def _how_to_use(self) -> list[str]:
        comp = self.competition
        return [
            f"no leaderboard ships with {comp.id}, so it earns no medal; to use this board, copy "
            f"the folder {comp.folder} to a folder of your own, save {self.path.name} there as "
            "leaderboard.csv and pass --mle-competitions-dir with the parent of that copy "
            f"(or copy the file to {comp.leaderboard_path})",
            CAUTION,
        ]


def _threshold_lines(shipped: Thresholds, fetched: Thresholds | None) -> list[str]:
    if fetched is None:
        return ["the fetched board has no scores"]
    names = (*MEDALS, "median")
    pairs = [(name, getattr(shipped, name), getattr(fetched, name)) for name in names]
    same = all(round(a, 5) == round(b, 5) for _name, a, b in pairs)
    detail = ", ".join(f"{name} {a:g} -> {b:g}" for name, a, b in pairs)
    verdict = "same thresholds" if same else "thresholds differ"
    return [f"{verdict} (shipped -> fetched): {detail}"]


def fetch_leaderboard(
    api: Any, competition: Competition, data_dir: Path, *, tries: int = 3
) -> FetchedBoard:
    """Download ``competition``'s board through ``api`` and write it under ``data_dir``."""
    folder = data_dir / competition.id / "leaderboard"
    scratch = folder / "download.tmp"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        _download(api, competition.id, scratch, tries)
        scores, teams = _read_board(_board_text(scratch, competition.id), competition)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    path = _new_path(folder)
    _write_board(path, scores, teams)
    return FetchedBoard(competition, path, tuple(scores))


def _download(api: Any, competition_id: str, scratch: Path, tries: int) -> None:
    for attempt in range(1, tries + 1):
        try:
            api.competition_leaderboard_download(competition_id, path=str(scratch))
            return
        except Exception as exc:  # the client raises its own types
            if is_transient(exc) and attempt < tries:
                continue
            if http_status(exc) == 403:
                raise LeaderboardError(
                    f"{competition_id}: Kaggle answered 403: accept the rules at "
                    f"{rules_url(competition_id)}"
                ) from None
            raise LeaderboardError(f"{competition_id}: leaderboard download failed: {exc}") from exc


def _board_text(scratch: Path, competition_id: str) -> str:
    for path in sorted(scratch.rglob("*")):
        if path.suffix.lower() == ".zip":
            with zipfile.ZipFile(path) as bundle:
                names = [n for n in bundle.namelist() if n.lower().endswith(".csv")]
                if names:
                    return bundle.read(names[0]).decode("utf-8-sig")
        elif path.suffix.lower() == ".csv":
            return path.read_text("utf-8-sig")
    raise LeaderboardError(f"{competition_id}: Kaggle sent no leaderboard CSV")


def _read_board(text: str, competition: Competition) -> tuple[list[float], list[str]]:
    reader = csv.DictReader(io.StringIO(text))
    columns = {name.lower(): name for name in reader.fieldnames or ()}
    if "score" not in columns:
        raise LeaderboardError(f"{competition.id}: the fetched board has no Score column")
    rows = []
    for row in reader:
        try:
            score = float(row[columns["score"]])
        except (TypeError, ValueError):
            continue  # a team without a score takes no place on the board
        rows.append((score, row.get(columns.get("teamname", ""), "") or ""))
    rows.sort(key=lambda pair: pair[0], reverse=not competition.lower_is_better)
    return [score for score, _ in rows], [team for _, team in rows]


def _new_path(folder: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path, count = folder / f"kaggle-{stamp}.csv", 1
    while path.exists():
        count += 1
        path = folder / f"kaggle-{stamp}-{count}.csv"
    return path


def _write_board(path: Path, scores: list[float], teams: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["rank", "score", "team_name"])
        rows = enumerate(zip(scores, teams, strict=True), start=1)
        writer.writerows((rank, repr(score), team) for rank, (score, team) in rows)
