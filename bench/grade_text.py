"""Grading time and memory of the text-metric Medium competitions at their real test sizes.

    .venv/bin/python bench/grade_text.py [--repeats 5]

Not a test. For each competition of the text batch, writes answers (with the extra answer
columns its metric reads) and a shuffled, valid generated submission with the test set's real
row count and id format, then grades it with the graders library's ``score_submission`` (every
validation included) in a fresh Python process, as ``bench/grade_medium.py`` does: median wall
and CPU time of ``--repeats`` calls, peak resident memory and the part of it above the memory
after the imports.
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

IDENTITIES = (
    "male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim", "black",
    "white", "psychiatric_or_mental_illness",
)  # fmt: skip


@dataclass(frozen=True)
class Case:
    """One competition's grading case: its metric, columns and real test size."""

    competition: str
    metric: str
    id_column: str
    columns: tuple[str, ...]
    rows: int
    answer_columns: tuple[str, ...] | None = None


CASES = {
    case.competition: case
    for case in (
        Case(
            "google-quest-challenge",
            "mean-column-spearman",
            "qa_id",
            tuple(f"target_{j}" for j in range(30)),
            608,
        ),
        Case(
            "chaii-hindi-and-tamil-question-answering",
            "word-jaccard",
            "id",
            ("PredictionString",),
            112,
        ),
        Case("tweet-sentiment-extraction", "word-jaccard", "textID", ("selected_text",), 2_749),
        Case(
            "jigsaw-unintended-bias-in-toxicity-classification",
            "jigsaw-bias-auc",
            "id",
            ("prediction",),
            97_320,
            ("toxicity", *IDENTITIES),
        ),
        Case("AI4Code", "kendall-tau", "id", ("cell_order",), 20_000),
        Case("facebook-recruiting-iii-keyword-extraction", "mean-f1", "Id", ("Tags",), 603_420),
        Case("imet-2020-fgvc7", "micro-f1", "id", ("attribute_ids",), 21_318),
        Case(
            "tensorflow2-question-answering", "span-f1", "example_id", ("PredictionString",), 61_476
        ),
        Case("plant-pathology-2021-fgvc8", "mean-f1", "image", ("labels",), 3_727),
    )
}


def _hex(rng: np.random.Generator, rows: int, digits: int) -> list[str]:
    return ["".join(row) for row in rng.choice(list("0123456789abcdef"), (rows, digits))]


def _label_sets(rng: np.random.Generator, rows: int, vocabulary: int, most: int) -> list[str]:
    sizes = rng.integers(1, most + 1, rows)
    labels = rng.zipf(1.3, int(sizes.sum())) % vocabulary
    cuts = np.cumsum(sizes)[:-1]
    return [" ".join(f"t{k}" for k in part) for part in np.split(labels, cuts)]


def _spoilt(rng: np.random.Generator, cells: list[str], share: float) -> list[str]:
    """Cells with a share of their words replaced (a plausible, imperfect prediction)."""
    out = []
    for cell in cells:
        words = cell.split()
        out.append(" ".join(w if rng.random() > share else f"x{rng.integers(99)}" for w in words))
    return out


def columns_for(case: Case, rng: np.random.Generator) -> tuple[dict, dict, list[str]]:
    """Answer columns, prediction columns and ids for one case."""
    rows = case.rows
    first = case.columns[0]
    if case.metric == "mean-column-spearman":
        ids = [str(k) for k in rng.permutation(10_000)[:rows]]
        truth = rng.choice([0.0, 0.333333, 0.5, 0.666667, 1.0], (rows, len(case.columns)))
        pred = truth + rng.normal(0, 0.3, truth.shape)
        return (
            {c: truth[:, j] for j, c in enumerate(case.columns)},
            {c: pred[:, j] for j, c in enumerate(case.columns)},
            ids,
        )
    if case.metric == "word-jaccard":
        truth = [
            " ".join(f"w{k}" for k in rng.integers(0, 5000, rng.integers(1, 12)))
            for _ in range(rows)
        ]
        return {first: truth}, {first: _spoilt(rng, truth, 0.3)}, _hex(rng, rows, 10)
    if case.metric == "jigsaw-bias-auc":
        toxicity = rng.choice(
            [0.0, 0.1, 0.2, 0.4, 0.5, 0.7, 1.0], rows, p=[0.5, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05]
        )
        answers = {"toxicity": toxicity}
        for name in IDENTITIES:
            answers[name] = np.where(
                rng.random(rows) < 0.05, rng.choice([0.5, 0.8, 1.0], rows), 0.0
            )
        pred = np.clip(toxicity + rng.normal(0, 0.25, rows), 0, 1)
        ids = [str(7_000_000 + k) for k in range(rows)]
        return answers, {first: pred}, ids
    if case.metric == "kendall-tau":
        truth, pred = [], []
        for _ in range(rows):
            cells = _hex(rng, int(rng.integers(2, 90)), 8)
            order = np.arange(len(cells))
            swaps = rng.integers(0, len(cells), (len(cells) // 3, 2))
            for a, b in swaps:
                order[[a, b]] = order[[b, a]]
            truth.append(" ".join(cells))
            pred.append(" ".join(cells[k] for k in order))
        return {first: truth}, {first: pred}, _hex(rng, rows, 14)
    if case.metric in ("mean-f1", "micro-f1"):
        vocabulary, most = (42_000, 5) if case.rows > 100_000 else (3_474, 10)
        truth = _label_sets(rng, rows, vocabulary, most)
        ids = [str(k) for k in range(1, rows + 1)]
        return {first: truth}, {first: _spoilt(rng, truth, 0.4)}, ids
    # span-f1: two slots per example, about 57 % without an answer
    examples = rng.choice(np.arange(-(10**18), 10**18, 10**9), rows // 2, replace=False)
    ids = [f"{e}_{part}" for e in examples for part in ("long", "short")]
    truth = [
        "" if rng.random() < 0.57 else f"{s}:{s + int(rng.integers(1, 40))}"
        for s in rng.integers(0, 3000, rows)
    ]
    pred = [t.split()[0] if t and rng.random() < 0.6 else "" for t in truth]
    return {first: truth}, {first: pred}, ids


def write_case(directory: Path, case: Case, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv`` for one case."""
    rng = np.random.default_rng(seed)
    answers, predictions, ids = columns_for(case, rng)
    shuffle = pa.array(rng.permutation(case.rows))
    answer_table = pa.table({case.id_column: ids, **answers})
    submission_table = pa.table({case.id_column: ids, **predictions}).take(shuffle)
    pa_csv.write_csv(answer_table, directory / "answers.csv")
    pa_csv.write_csv(submission_table, directory / "submission.csv")


def measure(directory: Path, case: Case, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    from pytest_mlebench.graders import SubmissionSpec

    spec = SubmissionSpec(
        id_column=case.id_column,
        target_columns=case.columns,
        metric=case.metric,
        answer_columns=case.answer_columns,
    )
    return core.time_scorer(core.graders_scorer(directory, spec, case.competition), repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=None, help="competition ids to run")
    core.add_child_options(parser)
    args = parser.parse_args()
    if args.write:
        write_case(Path(args.write[0]), CASES[args.write[1]], args.seed)
        return
    if args.measure:
        print(json.dumps(measure(Path(args.measure[0]), CASES[args.measure[1]], args.repeats)))
        return
    print(core.machine_line())
    print(core.repeats_line(args.repeats))
    print(f"{'competition':<52} {'metric':<21} {'rows':>8} {core.MEASURE_HEADER}")
    with tempfile.TemporaryDirectory() as temporary:
        for index, name in enumerate(args.only or list(CASES)):
            case = CASES[name]
            directory = Path(temporary) / str(index)
            directory.mkdir()
            options = ["--seed", str(args.seed)]
            core.write_in_child(__file__, options, directory, name)
            report = core.measure_in_child(__file__, options, args.repeats, directory, name)
            print(f"{name:<52} {case.metric:<21} {case.rows:>8,} {core.measure_columns(report)}")


if __name__ == "__main__":
    main()
