"""Grading speed and memory on million-row submissions (run on demand; not a test).

    .venv/bin/python bench/grade.py [--rows 1000000] [--repeats 5]

Writes two cases into a temporary directory — binary ROC AUC (string ids, submission rows
shuffled against the answers) and 3-class multi-class log loss (one-hot answers, shuffled
submission) — then grades each case in a fresh Python process per grader: the graders library's
``score_submission`` (every validation included), and for scale a plain pandas + scikit-learn
grader (``read_csv``, merge on id, ``roc_auc_score`` / ``log_loss``; no validation). Each process
grades ``--repeats`` times and reports the median wall time (and process CPU time, all threads,
which shows the work when other jobs share the machine), its peak resident memory
(``ru_maxrss``, which includes the interpreter and its imports) and the part of that peak above
the resident memory measured after the imports, before the first call.

The cases are written by a child process of their own: on Linux a process's ``ru_maxrss``
survives ``fork`` and ``exec``, so a measuring process started by a parent that had just built
the cases in memory would report the parent's peak as its own.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

CASES = {
    "roc-auc": ("target",),
    "multi-class-log-loss": ("class_a", "class_b", "class_c"),
}
GRADERS = ("graders", "pandas+sklearn")


def write_case(directory: Path, metric: str, rows: int, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv`` for one metric."""
    rng = np.random.default_rng(seed)
    ids = pa.array(np.char.add("row-", rng.permutation(rows * 7)[:rows].astype(str)))
    columns = CASES[metric]
    if metric == "roc-auc":
        answers = {columns[0]: rng.integers(0, 2, rows)}
        predictions = {columns[0]: rng.random(rows)}
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


def graders_scorer(directory: Path, metric: str) -> Callable[[], float]:
    """The graders library: validation and metric."""
    from pytest_mlebench.graders import SubmissionSpec, score_submission

    spec = SubmissionSpec(id_column="id", target_columns=CASES[metric], metric=metric)

    def score() -> float:
        result = score_submission(directory / "submission.csv", directory / "answers.csv", spec)
        if not result.valid or result.score is None:
            raise SystemExit(f"{metric}: the generated submission was graded invalid: {result}")
        return result.score

    return score


def pandas_scorer(directory: Path, metric: str) -> Callable[[], float]:
    """A plain pandas + scikit-learn grader, for scale (no validation at all)."""
    import pandas as pd
    from sklearn.metrics import log_loss, roc_auc_score

    columns = CASES[metric]

    def score() -> float:
        answers = pd.read_csv(directory / "answers.csv")
        submission = pd.read_csv(directory / "submission.csv")
        merged = answers.merge(submission, on="id", suffixes=("_true", "_pred"))
        truth = merged[[f"{name}_true" for name in columns]].to_numpy()
        pred = merged[[f"{name}_pred" for name in columns]].to_numpy()
        if metric == "roc-auc":
            return float(roc_auc_score(truth[:, 0], pred[:, 0]))
        return float(log_loss(truth.argmax(axis=1), pred, labels=list(range(len(columns)))))

    return score


def measure(directory: Path, metric: str, grader: str, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    scorer = (graders_scorer if grader == "graders" else pandas_scorer)(directory, metric)
    baseline_kib = _current_rss_kib()
    seconds, cpu_seconds, score = [], [], 0.0
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        score = scorer()
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(time.process_time() - start_cpu)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "score": score,
        "median_s": statistics.median(seconds),
        "seconds": seconds,
        "median_cpu_s": statistics.median(cpu_seconds),
        "peak_rss_mb": peak_kib / 1024,
        "peak_above_imports_mb": (peak_kib - baseline_kib) / 1024,
    }


def _current_rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--graders", nargs="+", choices=GRADERS, default=list(GRADERS))
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--write", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        directory, metric = args.write
        write_case(Path(directory), metric, args.rows, args.seed)
        return
    if args.measure:
        directory, metric, grader = args.measure
        print(json.dumps(measure(Path(directory), metric, grader, args.repeats)))
        return
    root = Path(__file__).resolve().parent.parent
    environment = {**os.environ, "PYTHONPATH": str(root)}
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs ({_cpu_name()})")
    print(f"{args.rows:,} rows, median of {args.repeats} runs per process")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(
        f"{'case':<22} {'grader':<15} {'median s':>9} {'CPU s':>6} {'peak RSS MB':>12} "
        f"{'above imports':>14}"
    )
    with tempfile.TemporaryDirectory() as temporary:
        for metric in CASES:
            directory = Path(temporary) / metric
            directory.mkdir()
            # In a child process, so that the measuring processes do not inherit its peak.
            writer = [sys.executable, __file__, "--rows", str(args.rows), "--seed", str(args.seed)]
            writer += ["--write", str(directory), metric]
            subprocess.run(writer, check=True, env=environment)
            for grader in args.graders:
                command = [sys.executable, __file__, "--repeats", str(args.repeats)]
                command += ["--measure", str(directory), metric, grader]
                output = subprocess.run(
                    command, check=True, capture_output=True, text=True, env=environment
                )
                report = json.loads(output.stdout)
                print(
                    f"{metric:<22} {grader:<15} {report['median_s']:>9.3f} "
                    f"{report['median_cpu_s']:>6.2f} "
                    f"{report['peak_rss_mb']:>12.0f} {report['peak_above_imports_mb']:>14.0f}"
                )


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
