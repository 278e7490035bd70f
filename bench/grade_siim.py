"""siim-covid19-detection at full size: a run's grading against a plain pandas + scikit-learn one.

Not a test. One generated case (``bench/mask_box_cases.py``: 606 studies and 634 images, 100,000
predicted boxes, the submission's rows shuffled) is written by a child process; then each way
grades it in a fresh process, the ways in turn, ``--repeats`` rounds, and every figure is the
whole process's (start-up and imports included: what a user waits for), from the kernel's
accounting of the child (``os.wait4``: CPU seconds, peak resident memory) and a monotonic clock:

``graders``
    ``pytest_mlebench.grading.grade_submission`` with the competition as the registry loads it,
    as a run grades: every validation, the Kaggle metric (PASCAL VOC 2010 mAP) and the
    original-compatible score beside it.
``plain``
    what the original MLE-bench's grader computes, written the plain way: pandas ``read_csv``,
    a merge on ``id``, per label of the answers and per row the predictions matched by falling
    confidence to the best unclaimed true box at IoU above 0.5, scikit-learn's
    ``average_precision_score`` of the pooled pairs (misses at confidence 0, a ``(0, 0)`` filler
    for a row with nothing), mean over the labels. No validation.

    .venv/bin/python bench/grade_siim.py      # --repeats 5 --boxes 100000
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
COMPETITION = "siim-covid19-detection"


def write_case(directory: Path, boxes: int) -> None:
    sys.path.insert(0, str(BENCH))
    import mask_box_cases

    mask_box_cases.write_siim(directory, 0, boxes)


def grade_graders(directory: Path) -> None:
    from pytest_mlebench.grading import grade_submission
    from pytest_mlebench.registry import load_registry

    competition = load_registry().get(COMPETITION)
    report = grade_submission(directory / "submission.csv", competition, directory / "answers.csv")
    original = report.original.score if report.original is not None else None
    print(f"score {report.score:.6f} original {original:.6f}")


def grade_plain(directory: Path) -> None:
    import numpy as np
    import pandas as pd
    from sklearn.metrics import average_precision_score

    answers = pd.read_csv(directory / "answers.csv")
    submission = pd.read_csv(directory / "submission.csv")
    merged = answers.merge(submission, on="id", suffixes=("_true", "_pred"))

    def groups(cell: object) -> list[tuple[str, float, list[float]]]:
        tokens = cell.split() if isinstance(cell, str) else []
        return [
            (tokens[i], float(tokens[i + 1]), [float(v) for v in tokens[i + 2 : i + 6]])
            for i in range(0, len(tokens), 6)
        ]

    def iou(a: list[float], b: list[float]) -> float:
        width = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
        height = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
        inter = width * height
        union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
        return inter / union if union > 0 else 0.0

    truths = [groups(cell) for cell in merged["PredictionString_true"]]
    preds = [groups(cell) for cell in merged["PredictionString_pred"]]
    aps = []
    for label in sorted({g[0] for row in truths for g in row}):
        hits: list[int] = []
        scores: list[float] = []
        for truth, pred in zip(truths, preds, strict=True):
            true_boxes = [g[2] for g in truth if g[0] == label]
            own = sorted((g for g in pred if g[0] == label), key=lambda g: -g[1])
            claimed = [False] * len(true_boxes)
            for _, confidence, box in own:
                overlaps = [-1.0 if claimed[j] else iou(box, t) for j, t in enumerate(true_boxes)]
                best = int(np.argmax(overlaps)) if overlaps else -1
                matched = best >= 0 and overlaps[best] > 0.5
                if matched:
                    claimed[best] = True
                hits.append(int(matched))
                scores.append(confidence)
            unclaimed = claimed.count(False)
            hits += [1] * unclaimed
            scores += [0.0] * unclaimed
            if not own and not unclaimed:
                hits.append(0)
                scores.append(0.0)
        aps.append(average_precision_score(hits, scores))
    print(f"original {float(np.mean(aps)):.6f}")


def run_child(*arguments: str) -> tuple[float, float, float, str]:
    """Wall s, CPU s and peak RSS MB of one fresh process of this script, and its output."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, __file__, *arguments], stdout=subprocess.PIPE, env=environment
    )
    assert child.stdout is not None
    output = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{arguments} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--boxes", type=int, default=100_000)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        way, directory = args.child[0], Path(args.child[1])
        if way == "write":
            write_case(directory, args.boxes)
        else:
            (grade_graders if way == "graders" else grade_plain)(directory)
        return
    with tempfile.TemporaryDirectory(prefix="mlebench-siim-") as folder:
        run_child("--boxes", str(args.boxes), "--child", "write", folder)
        figures: dict[str, list[tuple[float, float, float, str]]] = {"graders": [], "plain": []}
        load = [os.getloadavg()[0]]
        for _ in range(args.repeats):
            for way in figures:
                figures[way].append(run_child("--child", way, folder))
        load.append(os.getloadavg()[0])
    print(f"{args.boxes} boxes, {args.repeats} rounds, load average {load[0]:.1f} → {load[1]:.1f}")
    print("| way | median wall s | median CPU s | median peak RSS MB | printed |")
    print("|---|---|---|---|---|")
    for way, runs in figures.items():
        wall, cpu, peak = (statistics.median(run[i] for run in runs) for i in range(3))
        print(f"| {way} | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {runs[-1][3]} |")


if __name__ == "__main__":
    main()
