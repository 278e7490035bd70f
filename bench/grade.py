"""Grading speed and memory on million-row submissions (run on demand; not a test).

    .venv/bin/python bench/grade.py [--rows 1000000] [--repeats 5]

Writes two cases into a temporary directory — binary ROC AUC (string ids, submission rows
shuffled against the answers) and 3-class multi-class log loss (one-hot answers, shuffled
submission) — then grades each case in a fresh Python process: ``score_submission`` runs
``--repeats`` times in that process and the median wall time is reported, with the process's
peak resident memory (``ru_maxrss``) and the part of it above the resident memory measured after
the imports, before the first call.
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
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

CASES = {
    "roc-auc": ("target",),
    "multi-class-log-loss": ("class_a", "class_b", "class_c"),
}


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


def measure(directory: Path, metric: str, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    from graders import SubmissionSpec, score_submission

    spec = SubmissionSpec(id_column="id", target_columns=CASES[metric], metric=metric)
    baseline_kib = _current_rss_kib()
    seconds = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = score_submission(directory / "submission.csv", directory / "answers.csv", spec)
        seconds.append(time.perf_counter() - start)
    if result is None or not result.valid:
        raise SystemExit(f"{metric}: the generated submission was not graded as valid: {result}")
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "metric": metric,
        "score": result.score,
        "median_s": statistics.median(seconds),
        "seconds": seconds,
        "peak_rss_mb": peak_kib / 1024,
        "peak_above_imports_mb": (peak_kib - baseline_kib) / 1024,
    }


def _current_rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--measure", nargs=2, metavar=("DIR", "METRIC"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure[0]), args.measure[1], args.repeats)))
        return
    root = Path(__file__).resolve().parent.parent
    print(f"python {platform.python_version()} on {platform.machine()}, {_cpu_name()}")
    print(f"{'case':<22} {'rows':>9} {'median s':>9} {'peak RSS MB':>12} {'above imports MB':>17}")
    with tempfile.TemporaryDirectory() as temporary:
        for metric in CASES:
            directory = Path(temporary) / metric
            directory.mkdir()
            write_case(directory, metric, args.rows, args.seed)
            command = [sys.executable, __file__, "--repeats", str(args.repeats)]
            command += ["--measure", str(directory), metric]
            environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path[1:]])}
            output = subprocess.run(
                command, check=True, capture_output=True, text=True, cwd=root, env=environment
            )
            report = json.loads(output.stdout)
            print(
                f"{metric:<22} {args.rows:>9} {report['median_s']:>9.3f} "
                f"{report['peak_rss_mb']:>12.0f} {report['peak_above_imports_mb']:>17.0f}"
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
