"""Grading speed and memory on million-row submissions (run on demand; not a test).

    .venv/bin/python bench/grade.py [--rows 1000000] [--repeats 5] [--cases roc-auc …]

Writes five cases into a temporary directory — binary ROC AUC (string ids, submission rows
shuffled against the answers), 3-class multi-class log loss (one-hot answers, shuffled
submission), RMSE with 27-character ids, quadratic weighted kappa (ratings 0-4, predictions off
by at most one) and the mean ROC AUC of six columns — then grades each case in a fresh Python
process per grader: the graders library's ``score_submission`` (every validation included),
and for scale a plain pandas + scikit-learn grader (``read_csv``, merge on id, scikit-learn's
``roc_auc_score`` / ``log_loss`` / ``mean_squared_error`` / ``cohen_kappa_score``; no
validation). Each process grades ``--repeats`` times and reports the median wall time (and
process CPU time, all threads, which shows the work when other jobs share the machine), its
peak resident memory (``ru_maxrss``, which includes the interpreter and its imports) and the
part of that peak above the resident memory measured after the imports, before the first call.

The cases are written by a child process of their own: on Linux a process's ``ru_maxrss``
survives ``fork`` and ``exec``, so a measuring process started by a parent that had just built
the cases in memory would report the parent's peak as its own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core

CASES = {
    "roc-auc": ("target",),
    "multi-class-log-loss": ("class_a", "class_b", "class_c"),
    "rmse": ("value",),
    "quadratic-weighted-kappa": ("rating",),
    "mean-column-roc-auc": tuple(f"label_{j}" for j in range(6)),
}
# ids: ``row-<n>`` strings; rmse's are 27 characters (``row-`` and 23 digits)
ID_WIDTH = {"rmse": 23}
GRADERS = ("graders", "pandas+sklearn")


def write_case(directory: Path, metric: str, rows: int, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv`` for one metric."""
    rng = np.random.default_rng(seed)
    numbers = rng.permutation(rows * 7)[:rows].astype(str)
    if metric in ID_WIDTH:
        numbers = np.char.zfill(numbers, ID_WIDTH[metric])
    ids = pa.array(np.char.add("row-", numbers))
    columns = CASES[metric]
    if metric == "roc-auc":
        answers = {columns[0]: rng.integers(0, 2, rows)}
        predictions = {columns[0]: rng.random(rows)}
    elif metric == "rmse":
        answers = {columns[0]: rng.normal(size=rows)}
        predictions = {columns[0]: rng.normal(size=rows)}
    elif metric == "quadratic-weighted-kappa":
        answers = {columns[0]: rng.integers(0, 5, rows)}
        predictions = {columns[0]: np.clip(answers[columns[0]] + rng.integers(-1, 2, rows), 0, 4)}
    elif metric == "mean-column-roc-auc":
        answers = {name: rng.integers(0, 2, rows) for name in columns}
        predictions = {name: rng.random(rows) for name in columns}
    else:
        labels = rng.integers(0, len(columns), rows)
        answers = {name: (labels == j).astype(np.int64) for j, name in enumerate(columns)}
        probability = rng.dirichlet(np.ones(len(columns)), rows)
        predictions = {name: probability[:, j] for j, name in enumerate(columns)}
    shuffle = pa.array(rng.permutation(rows))
    answer_table = pa.table({"id": ids, **answers})
    submission_table = pa.table({"id": ids, **predictions}).take(shuffle)
    options = pa_csv.WriteOptions(quoting_style="none")
    pa_csv.write_csv(answer_table, directory / "answers.csv", write_options=options)
    pa_csv.write_csv(submission_table, directory / "submission.csv", write_options=options)


def pandas_scorer(directory: Path, metric: str) -> Callable[[], float]:
    """A plain pandas + scikit-learn grader, for scale (no validation at all)."""
    import pandas as pd
    from sklearn.metrics import cohen_kappa_score, log_loss, mean_squared_error, roc_auc_score

    columns = CASES[metric]

    def score() -> float:
        answers = pd.read_csv(directory / "answers.csv")
        submission = pd.read_csv(directory / "submission.csv")
        merged = answers.merge(submission, on="id", suffixes=("_true", "_pred"))
        truth = merged[[f"{name}_true" for name in columns]].to_numpy()
        pred = merged[[f"{name}_pred" for name in columns]].to_numpy()
        if metric == "roc-auc":
            return float(roc_auc_score(truth[:, 0], pred[:, 0]))
        if metric == "rmse":
            return float(np.sqrt(mean_squared_error(truth[:, 0], pred[:, 0])))
        if metric == "quadratic-weighted-kappa":
            return float(cohen_kappa_score(truth[:, 0], pred[:, 0], weights="quadratic"))
        if metric == "mean-column-roc-auc":
            return float(np.mean([roc_auc_score(truth[:, j], pred[:, j]) for j in range(6)]))
        return float(log_loss(truth.argmax(axis=1), pred, labels=list(range(len(columns)))))

    return score


def measure(directory: Path, metric: str, grader: str, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    if grader == "graders":
        from pytest_mlebench.graders import SubmissionSpec

        spec = SubmissionSpec(id_column="id", target_columns=CASES[metric], metric=metric)
        scorer = core.graders_scorer(directory, spec, metric)
    else:
        scorer = pandas_scorer(directory, metric)
    return core.time_scorer(scorer, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--graders", nargs="+", choices=GRADERS, default=list(GRADERS))
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    core.add_child_options(parser, measure_arguments=3)
    args = parser.parse_args()
    if args.write:
        directory, metric = args.write
        write_case(Path(directory), metric, args.rows, args.seed)
        return
    if args.measure:
        directory, metric, grader = args.measure
        print(json.dumps(measure(Path(directory), metric, grader, args.repeats)))
        return
    print(core.machine_line())
    print(f"{args.rows:,} rows, median of {args.repeats} runs per process")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'case':<22} {'grader':<15} {core.MEASURE_HEADER}")
    with tempfile.TemporaryDirectory() as temporary:
        for metric in args.cases:
            directory = Path(temporary) / metric
            directory.mkdir()
            options = ["--rows", str(args.rows), "--seed", str(args.seed)]
            core.write_in_child(__file__, options, directory, metric)
            for grader in args.graders:
                report = core.measure_in_child(
                    __file__, [], args.repeats, directory, metric, grader
                )
                print(f"{metric:<22} {grader:<15} {core.measure_columns(report)}")


if __name__ == "__main__":
    main()
