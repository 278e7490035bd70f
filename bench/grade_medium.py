"""Grading time and memory of the first Medium competitions at their real test sizes (not a test).

    .venv/bin/python bench/grade_medium.py [--repeats 5] [--scale 1000000]

For each competition, writes answers and a shuffled, valid generated submission with the test
set's real row count, id format and answer columns (us-patent-phrase-to-phrase-matching: 3,648
pairs graded with the new ``pearson`` metric; the four others with existing metrics), then grades
it with the graders library's ``score_submission`` (every validation included) in a fresh Python
process, as ``bench/grade.py`` does: median wall and CPU time of ``--repeats`` calls, peak
resident memory and the part of it above the memory after the imports. ``--scale N`` adds a
Pearson case of N rows, to show how the new metric grows.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core


@dataclass(frozen=True)
class Case:
    """One competition's grading case: its metric, columns and real test size."""

    competition: str
    metric: str
    id_column: str
    columns: tuple[str, ...]
    rows: int
    id_digits: int


CASES = {
    case.competition: case
    for case in (
        Case("us-patent-phrase-to-phrase-matching", "pearson", "id", ("score",), 3_648, 16),
        Case(
            "learning-agency-lab-automated-essay-scoring-2",
            "quadratic-weighted-kappa",
            "essay_id",
            ("score",),
            1_731,
            7,
        ),
        Case(
            "lmsys-chatbot-arena",
            "multi-class-log-loss",
            "id",
            ("winner_model_a", "winner_model_b", "winner_tie"),
            5_748,
            10,
        ),
        Case("petfinder-pawpularity-score", "rmse", "Id", ("Pawpularity",), 992, 32),
        Case("statoil-iceberg-classifier-challenge", "log-loss", "id", ("is_iceberg",), 321, 8),
    )
}


def _case(name: str, scale: int) -> Case:
    if name in CASES:
        return CASES[name]
    return Case(name, "pearson", "id", ("score",), scale, 16)


def write_case(directory: Path, case: Case, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv`` for one case."""
    rng = np.random.default_rng(seed)
    rows = case.rows
    ids = pa.array(
        ["".join(row) for row in rng.choice(list("0123456789abcdef"), (rows, case.id_digits))]
    )
    first = case.columns[0]
    if case.metric == "pearson":
        truth = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], rows)
        answers = {first: truth}
        predictions = {first: np.clip(truth + rng.normal(0, 0.2, rows), 0, 1)}
    elif case.metric == "quadratic-weighted-kappa":
        truth = rng.integers(1, 7, rows)
        answers = {first: truth}
        predictions = {first: np.clip(truth + rng.integers(-1, 2, rows), 1, 6)}
    elif case.metric == "multi-class-log-loss":
        labels = rng.integers(0, len(case.columns), rows)
        answers = {name: (labels == j).astype(np.int64) for j, name in enumerate(case.columns)}
        probability = rng.dirichlet(np.ones(len(case.columns)), rows)
        predictions = {name: probability[:, j] for j, name in enumerate(case.columns)}
    elif case.metric == "rmse":
        answers = {first: rng.integers(1, 101, rows)}
        predictions = {first: rng.uniform(1, 100, rows).round(2)}
    else:  # log-loss
        answers = {first: rng.integers(0, 2, rows)}
        predictions = {first: rng.random(rows)}
    shuffle = pa.array(rng.permutation(rows))
    answer_table = pa.table({case.id_column: ids, **answers})
    submission_table = pa.table({case.id_column: ids, **predictions}).take(shuffle)
    options = pa_csv.WriteOptions(quoting_style="none")
    pa_csv.write_csv(answer_table, directory / "answers.csv", write_options=options)
    pa_csv.write_csv(submission_table, directory / "submission.csv", write_options=options)


def measure(directory: Path, case: Case, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    from pytest_mlebench.graders import SubmissionSpec

    spec = SubmissionSpec(id_column=case.id_column, target_columns=case.columns, metric=case.metric)
    return core.time_scorer(core.graders_scorer(directory, spec, case.competition), repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scale", type=int, default=0, help="add a Pearson case of N rows")
    core.add_child_options(parser)
    args = parser.parse_args()
    if args.write:
        directory, name = args.write
        write_case(Path(directory), _case(name, args.scale), args.seed)
        return
    if args.measure:
        directory, name = args.measure
        print(json.dumps(measure(Path(directory), _case(name, args.scale), args.repeats)))
        return
    names = list(CASES) + ([f"pearson at {args.scale:,} rows"] if args.scale else [])
    print(core.machine_line())
    print(core.repeats_line(args.repeats))
    print(f"{'case':<46} {'metric':<25} {'rows':>9} {core.MEASURE_HEADER}")
    with tempfile.TemporaryDirectory() as temporary:
        for index, name in enumerate(names):
            case = _case(name, args.scale)
            directory = Path(temporary) / str(index)
            directory.mkdir()
            options = ["--seed", str(args.seed), "--scale", str(args.scale)]
            core.write_in_child(__file__, options, directory, name)
            report = core.measure_in_child(__file__, options, args.repeats, directory, name)
            print(f"{name:<46} {case.metric:<25} {case.rows:>9,} {core.measure_columns(report)}")


if __name__ == "__main__":
    main()
