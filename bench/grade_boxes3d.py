"""Grading time and memory of Lyft's 3-D box mAP with 200,000 predicted boxes (not a test).

    .venv/bin/python bench/grade_boxes3d.py [--repeats 1] [--samples 5000] [--subset 250]

One generated case shaped like MLE-bench's held-out part of
3d-object-detection-for-autonomous-vehicles (about 4,500 samples of 36 logs): ``--samples``
samples (default 5,000), each with 25 true boxes of Lyft's nine classes in Lyft-like shares (most
of them cars) around a moving ego position in world coordinates, and 40 predicted boxes: 20
jittered copies of true boxes (centre ±0.3 m, sizes ±10 %, yaw ±0.1 rad, one in ten with the
wrong class) and 20 boxes placed at random near the ego — 200,000 predictions and 125,000 true
boxes in all. The submission's rows are shuffled. Measured, each in a fresh Python process:

``box3d-map``
    Our score, graded by the graders library's ``score_submission`` (every validation included).
``box3d-map-per-sample``
    The original-compatible number, the same way (the grading process computes both).
``dense``
    The obvious way, as the original's grader is built: every box a shapely ``Polygon`` object,
    and at each of the ten thresholds, per class, every prediction by falling confidence
    intersected with every true box of its sample and class in Python. Too slow for the whole
    case, it runs on the first ``--subset`` samples (default 250), beside ``box3d-map`` on the
    same subset, and its time is scaled to the whole case by the share of predictions; its score
    must equal ours on the subset.

Prints the median wall and CPU time of ``--repeats`` gradings, the peak resident memory and the
part of it above the memory after the imports.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core

CLASSES = {  # share of boxes, width, length, height (metres)
    "car": (0.70, 1.9, 4.7, 1.7), "pedestrian": (0.10, 0.7, 0.8, 1.8),
    "other_vehicle": (0.08, 2.4, 6.5, 2.4), "truck": (0.04, 2.8, 10.0, 3.4),
    "bicycle": (0.04, 0.6, 1.8, 1.4), "bus": (0.02, 3.0, 12.0, 3.4),
    "motorcycle": (0.01, 0.9, 2.2, 1.5), "emergency_vehicle": (0.005, 2.4, 6.0, 2.5),
    "animal": (0.005, 0.4, 0.8, 0.5),
}  # fmt: skip
NAMES = list(CLASSES)
TRUE_PER_SAMPLE, PREDICTED_PER_SAMPLE = 25, 40


def _cells(confidence: np.ndarray, boxes: np.ndarray, classes: np.ndarray, per: int) -> list[str]:
    """One PredictionString per sample of ``per`` consecutive boxes."""
    rows = [
        f"{c:.3f} {b[0]:.3f} {b[1]:.3f} {b[2]:.3f} {b[3]:.3f} {b[4]:.3f} {b[5]:.3f} {b[6]:.4f} "
        f"{NAMES[k]}"
        for c, b, k in zip(confidence.tolist(), boxes.tolist(), classes.tolist(), strict=True)
    ]
    return [" ".join(rows[start : start + per]) for start in range(0, len(rows), per)]


def _boxes(rng: np.random.Generator, ego: np.ndarray, classes: np.ndarray) -> np.ndarray:
    sizes = np.array([CLASSES[NAMES[k]][1:] for k in classes.tolist()])
    sizes *= rng.uniform(0.85, 1.15, sizes.shape)
    offsets = rng.uniform(-60, 60, (len(classes), 2))
    z = ego[:, 2:3] + rng.normal(0, 0.3, (len(classes), 1))
    yaw = rng.uniform(-np.pi, np.pi, (len(classes), 1))
    return np.hstack([ego[:, :2] + offsets, z, sizes, yaw])


def write_case(directory: Path, samples: int, subset: int, seed: int) -> None:
    """Write ``full/`` and ``subset/`` (its first samples), each answers and a submission."""
    rng = np.random.default_rng(seed)
    ids = [f"{value:064x}" for value in rng.integers(0, 2**63, samples, dtype=np.int64)]
    ids = [f"{index:08x}{tail[8:]}" for index, tail in enumerate(ids)]  # unique
    shares = np.array([value[0] for value in CLASSES.values()])
    walk = np.cumsum(rng.normal(0, 3, (samples, 2)), axis=0) + np.array([1500.0, 1800.0])
    ego = np.column_stack([walk, np.full(samples, -18.0)])
    n_true, n_pred = samples * TRUE_PER_SAMPLE, samples * PREDICTED_PER_SAMPLE
    true_classes = rng.choice(len(NAMES), n_true, p=shares / shares.sum())
    true = _boxes(rng, np.repeat(ego, TRUE_PER_SAMPLE, axis=0), true_classes)
    # per sample: 20 jittered copies of its true boxes, then 20 boxes anywhere near the ego
    half = PREDICTED_PER_SAMPLE // 2
    picks = rng.integers(0, TRUE_PER_SAMPLE, (samples, half))
    picks = (picks + np.arange(samples)[:, None] * TRUE_PER_SAMPLE).ravel()
    copies = true[picks].copy()
    copies[:, :2] += rng.normal(0, 0.3, (len(picks), 2))
    copies[:, 3:6] *= rng.uniform(0.9, 1.1, (len(picks), 3))
    copies[:, 6] += rng.normal(0, 0.1, len(picks))
    copy_classes = true_classes[picks].copy()
    wrong = rng.random(len(picks)) < 0.1
    copy_classes[wrong] = rng.integers(0, len(NAMES), int(wrong.sum()))
    random_classes = rng.choice(len(NAMES), samples * half, p=shares / shares.sum())
    random_boxes = _boxes(rng, np.repeat(ego, half, axis=0), random_classes)
    pred = np.concatenate(
        [copies.reshape(samples, half, 7), random_boxes.reshape(samples, half, 7)], 1
    )
    pred_classes = np.concatenate(
        [copy_classes.reshape(samples, half), random_classes.reshape(samples, half)], 1
    )
    confidence = rng.uniform(0.05, 1.0, n_pred)
    answers = pd.DataFrame(
        {
            "Id": ids,
            "PredictionString": _cells(np.ones(n_true), true, true_classes, TRUE_PER_SAMPLE),
        }
    )
    cells = _cells(confidence, pred.reshape(-1, 7), pred_classes.ravel(), PREDICTED_PER_SAMPLE)
    submission = pd.DataFrame({"Id": ids, "PredictionString": cells})
    for name, rows in (("full", samples), ("subset", subset)):
        folder = directory / name
        folder.mkdir(parents=True, exist_ok=True)
        answers.iloc[:rows].to_csv(folder / "answers.csv", index=False)
        shuffled = submission.iloc[:rows].sample(frac=1.0, random_state=seed)
        shuffled.to_csv(folder / "submission.csv", index=False)


def _dense_score(directory: Path) -> float:
    """The obvious way: shapely objects, every pair of a sample and class at every threshold."""
    from shapely.geometry import Polygon

    from pytest_mlebench.graders.boxes import average_precision
    from pytest_mlebench.graders.metrics.detection3d import THRESHOLDS

    answers = pd.read_csv(directory / "answers.csv", keep_default_na=False)
    submission = pd.read_csv(directory / "submission.csv", keep_default_na=False)
    submission = submission.set_index("Id").loc[answers["Id"]].reset_index()

    def parse(frame: pd.DataFrame) -> list[tuple[int, float, str, Polygon, float, float, float]]:
        boxes = []
        for row, cell in enumerate(frame["PredictionString"]):
            tokens = cell.split()
            for start in range(0, len(tokens), 9):
                c, x, y, z, w, length, h, yaw = map(float, tokens[start : start + 8])
                along = np.array([np.cos(yaw), np.sin(yaw)]) * length / 2
                across = np.array([-np.sin(yaw), np.cos(yaw)]) * w / 2
                centre = np.array([x, y])
                corners = [centre + along - across, centre + along + across,
                           centre - along + across, centre - along - across]  # fmt: skip
                boxes.append((row, c, tokens[start + 8], Polygon(corners), z, h, w * length * h))
        return boxes

    truth, predictions = parse(answers), parse(submission)
    maps = []
    for threshold in THRESHOLDS:
        aps = []
        for name in sorted({box[2] for box in truth}):
            true_boxes: dict[int, list[int]] = {}
            own_truth = [box for box in truth if box[2] == name]
            for index, box in enumerate(own_truth):
                true_boxes.setdefault(box[0], []).append(index)
            own = [box for box in predictions if box[2] == name]
            order = sorted(range(len(own)), key=lambda i: -own[i][1])
            claimed: set[int] = set()
            hits = np.zeros(len(own), dtype=bool)
            for i in order:
                row, _, _, shape, z, h, volume = own[i]
                best, best_iou = -1, 0.0
                for j in true_boxes.get(row, []):
                    other = own_truth[j]
                    top = min(z + h / 2, other[4] + other[5] / 2)
                    bottom = max(z - h / 2, other[4] - other[5] / 2)
                    inter = shape.intersection(other[3]).area * max(0.0, top - bottom)
                    iou = inter / (volume + other[6] - inter)
                    if iou > best_iou:
                        best, best_iou = j, iou
                if best_iou > threshold and best not in claimed:
                    claimed.add(best)
                    hits[i] = True
            scores = np.array([box[1] for box in own])
            aps.append(average_precision(scores, hits, len(own_truth)))
        maps.append(float(np.mean(aps)))
    return float(np.mean(maps))


def measure(directory: Path, case: str, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    from pytest_mlebench.graders import SubmissionSpec

    if case == "dense":
        return core.time_scorer(lambda: _dense_score(directory), repeats)
    metric = "box3d-map-per-sample" if case == "original" else "box3d-map"
    spec = SubmissionSpec(id_column="Id", target_columns=("PredictionString",), metric=metric)
    return core.time_scorer(core.graders_scorer(directory, spec, case), repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=5000)
    parser.add_argument("--subset", type=int, default=250)
    core.add_child_options(parser, measure_arguments=2)
    args = parser.parse_args()
    if args.write:
        write_case(Path(args.write[0]), args.samples, args.subset, args.seed)
        return
    if args.measure:
        directory, case = args.measure
        print(json.dumps(measure(Path(directory), case, args.repeats)))
        return
    print(core.machine_line())
    print(core.repeats_line(args.repeats))
    options = [
        "--seed",
        str(args.seed),
        "--samples",
        str(args.samples),
        "--subset",
        str(args.subset),
    ]
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        core.write_in_child(__file__, options, root, "all")
        total = args.samples * PREDICTED_PER_SAMPLE
        print(f"{total:,} predicted and {args.samples * TRUE_PER_SAMPLE:,} true boxes")
        print(f"{'case':<34} {'predictions':>11} {core.MEASURE_HEADER}")
        full, part = args.samples * PREDICTED_PER_SAMPLE, args.subset * PREDICTED_PER_SAMPLE
        rows = [
            ("box3d-map", "full", "ours", full),
            ("box3d-map-per-sample (original)", "full", "original", full),
            ("box3d-map, subset", "subset", "ours", part),
            ("dense shapely loop, subset", "subset", "dense", part),
        ]
        reports = {}
        for label, folder, case, count in rows:
            report = core.measure_in_child(__file__, options, args.repeats, root / folder, case)
            reports[(folder, case)] = report
            print(f"{label:<34} {count:>11,} {core.measure_columns(report, seconds_digits=2)}")
        dense, ours = reports[("subset", "dense")], reports[("subset", "ours")]
        if abs(float(dense["score"]) - float(ours["score"])) > 1e-9:
            raise SystemExit(f"dense {dense['score']} and ours {ours['score']} disagree")
        scaled, cpu = (float(dense[key]) * full / part for key in ("median_s", "median_cpu_s"))
        print(
            f"dense loop scaled to {full:,} predictions: about {scaled:,.0f} s ({cpu:,.0f} s CPU)"
        )
        print(
            f"scores: full {reports[('full', 'ours')]['score']:.6f} (original "
            f"{reports[('full', 'original')]['score']:.6f}); subset {ours['score']:.6f} = dense"
        )
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
