"""Grading time and memory of uw-madison-gi-tract-image-segmentation at its test size (not a test).

    .venv/bin/python bench/grade_uw_madison.py [--repeats 1] [--volumes 40] [--skip-points]

One generated case shaped like MLE-bench's test set of the competition: ``--volumes`` case-days
(40 by default: the tenth of Kaggle's 85 cases held out, about 29 case-days, plus the fifth days
of the other cases; an estimate, the split's exact count needs Kaggle's files), most of them 144
slices of 266 x 266 pixels, one in ten 144 slices of 360 x 310 and one in ten 80 slices of
276 x 276, as Kaggle's scans are; three rows per slice (``large_bowel``, ``small_bowel``,
``stomach``): 16,512 rows at the default. Each organ is an ellipsoid over a third to two thirds of
the slices, a few thousand pixels a slice; the prediction is the truth shifted by up to 3 pixels
and grown or shrunk by one, with a missed slice at each end and a stray blob on one slice in ten
volumes, so the distances are the size good submissions have. Rows are shuffled in the
submission.

Two measurements, each in a fresh Python process (``bench/grading_measure.py``):

``graders``
    ``score_submission`` with the competition's spec (``dice-hausdorff``; every validation
    included): Dice on run intervals, the distance exact from each volume's bounding box (a
    KD-tree of surface voxels, or distance transforms).
``point sets``
    the same score computed the obvious way, as the original MLE-bench does it: every mask decoded
    to a dense array, every volume's voxels listed (``numpy.argwhere``) and scipy's
    ``directed_hausdorff`` run both ways on the scaled coordinates (rows already in answer order,
    no validation). ``--skip-points`` leaves it out.

Prints the median wall and CPU time, the peak resident memory and the part of it above the
memory after the imports; both lines carry the score, which must agree.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core

COMPETITION = "uw-madison-gi-tract-image-segmentation"
CLASSES = ("large_bowel", "small_bowel", "stomach")
SCANS = ((266, 266, 144), (360, 310, 144), (276, 276, 80))
"""(width, height, slices) of Kaggle's three scan shapes."""


def _scan(index: int) -> tuple[int, int, int]:
    if index % 10 == 9:
        return SCANS[2]
    return SCANS[1] if index % 5 == 4 else SCANS[0]


def _ellipsoid(
    rng: np.random.Generator, slices: int, height: int, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """One organ's true and predicted voxels over a volume."""
    depth = int(rng.integers(slices // 3, 2 * slices // 3))
    first = int(rng.integers(0, slices - depth))
    centre = rng.uniform([0.3 * height, 0.3 * width], [0.7 * height, 0.7 * width])
    radii = rng.uniform([12, 12], [38, 45])
    z = (np.arange(slices) - (first + depth / 2)) / (depth / 2)
    rows = ((np.arange(height) - centre[0]) / radii[0])[:, None] ** 2
    columns = ((np.arange(width) - centre[1]) / radii[1])[None, :] ** 2
    shift = rng.integers(-3, 4, size=2)
    grow = float(rng.choice([-1.0, 0.0, 1.0]))
    pred_rows = ((np.arange(height) - centre[0] - shift[0]) / (radii[0] + grow))[:, None] ** 2
    pred_columns = ((np.arange(width) - centre[1] - shift[1]) / (radii[1] + grow))[None, :] ** 2
    truth = np.zeros((slices, height, width), dtype=bool)
    prediction = np.zeros_like(truth)
    for k in range(first, first + depth):
        span = 1.0 - z[k] ** 2
        truth[k] = rows + columns <= span
        if first < k < first + depth - 1:
            prediction[k] = pred_rows + pred_columns <= span
    if rng.random() < 0.1:
        k = int(rng.integers(0, slices))
        prediction[k, 5:15, 5:15] = True
    return truth, prediction


def _runs(mask: np.ndarray) -> str:
    flat = np.concatenate(([0], mask.ravel().astype(np.int8), [0]))
    changes = np.flatnonzero(np.diff(flat))
    starts, ends = changes[0::2], changes[1::2]
    return " ".join(f"{s + 1} {e - s}" for s, e in zip(starts.tolist(), ends.tolist(), strict=True))


def write_case(directory: Path, volumes: int, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv``."""
    rng = np.random.default_rng(seed)
    answers, predicted = [], []
    for index in range(volumes):
        width, height, slices = _scan(index)
        case_day = f"case{index + 1}_day{int(rng.integers(1, 40))}"
        organs = {name: _ellipsoid(rng, slices, height, width) for name in CLASSES}
        for k in range(slices):
            slice_id = f"{case_day}_slice_{k + 1:04d}"
            for name in CLASSES:
                truth, prediction = organs[name]
                answers.append(
                    (slice_id, name, _runs(truth[k]), width, height, name, case_day, f"{k + 1:04d}")
                )
                predicted.append((slice_id, name, _runs(prediction[k])))
    columns = ["id", "class", "segmentation", "image_width", "image_height", "organ"]
    columns += ["case_day", "slice"]
    pd.DataFrame(answers, columns=columns).to_csv(directory / "answers.csv", index=False)
    submission = pd.DataFrame(predicted, columns=["id", "class", "predicted"])
    submission.sample(frac=1.0, random_state=seed).to_csv(directory / "submission.csv", index=False)


def _dense(cell: object, width: int, height: int) -> np.ndarray:
    mask = np.zeros(width * height, dtype=bool)
    if isinstance(cell, str) and cell:
        numbers = np.array(cell.split(), dtype=np.int64)
        for start, length in zip(numbers[0::2], numbers[1::2], strict=True):
            mask[start - 1 : start - 1 + length] = True
    return mask.reshape(height, width)


def point_set_score(directory: Path) -> float:
    """The score the obvious way: dense masks, voxel lists, scipy's ``directed_hausdorff``."""
    from scipy.spatial.distance import directed_hausdorff

    answers = pd.read_csv(directory / "answers.csv", keep_default_na=False)
    submission = pd.read_csv(directory / "submission.csv", keep_default_na=False)
    submission = submission.set_index(["id", "class"]).loc[
        pd.MultiIndex.from_frame(answers[["id", "class"]])
    ]
    answers["predicted"] = submission["predicted"].to_numpy()
    dices, distances = [], []
    for _, volume in answers.groupby(["case_day", "class"], sort=False):
        volume = volume.sort_values("slice")
        width, height = int(volume["image_width"].iloc[0]), int(volume["image_height"].iloc[0])
        truth = np.stack([_dense(c, width, height) for c in volume["segmentation"]])
        prediction = np.stack([_dense(c, width, height) for c in volume["predicted"]])
        for t, p in zip(truth, prediction, strict=True):
            if t.any() or p.any():
                dices.append(2.0 * (t & p).sum() / (t.sum() + p.sum()))
        if not (truth.any() or prediction.any()):
            continue
        if not (truth.any() and prediction.any()):
            distances.append(1.0)
            continue
        scale = np.array(truth.shape, dtype=float)
        a, b = np.argwhere(truth) / scale, np.argwhere(prediction) / scale
        distance = max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0])
        distances.append(distance / math.sqrt(3))
    return 0.4 * float(np.mean(dices)) + 0.6 * (1.0 - float(np.mean(distances)))


def measure(directory: Path, way: str, repeats: int) -> dict[str, object]:
    """Grade the case ``repeats`` times in this process, one way; return times and memory."""
    if way == "points":
        return core.time_scorer(lambda: point_set_score(directory), repeats)
    from pytest_mlebench.definition import load_competition

    competition = load_competition(core.ROOT / "competitions" / COMPETITION)
    scorer = core.graders_scorer(directory, competition.submission, COMPETITION)
    return core.time_scorer(scorer, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--volumes", type=int, default=40, help="case-days in the test set")
    parser.add_argument("--skip-points", action="store_true", help="leave out the point sets")
    core.add_child_options(parser)
    args = parser.parse_args()
    if args.write:
        write_case(Path(args.write[0]), args.volumes, args.seed)
        return
    if args.measure:
        directory, way = args.measure
        print(json.dumps(measure(Path(directory), way, args.repeats)))
        return
    print(core.machine_line())
    print(core.repeats_line(args.repeats))
    print(f"{'way':<12} {'volumes':>8} {'rows':>8} {'score':>9} {core.MEASURE_HEADER}")
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        options = ["--seed", str(args.seed), "--volumes", str(args.volumes)]
        core.write_in_child(__file__, options, directory, COMPETITION)
        rows = sum(1 for _ in (directory / "answers.csv").open()) - 1
        ways = ["graders"] if args.skip_points else ["graders", "points"]
        for way in ways:
            report = core.measure_in_child(__file__, options, args.repeats, directory, way)
            name = "point sets" if way == "points" else way
            columns = core.measure_columns(report, seconds_digits=2)
            print(f"{name:<12} {args.volumes:>8} {rows:>8,} {report['score']:>9.6f} {columns}")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
