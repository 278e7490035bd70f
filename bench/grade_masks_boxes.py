"""Grading time and memory of the RLE-mask and box competitions at full size (not a test).

    .venv/bin/python bench/grade_masks_boxes.py [--repeats 3] [--cases hubmap vinbigdata siim]
                                                [--dense-fraction 0.0625] [--boxes 100000]

Three generated cases (``bench/mask_box_cases.py``), each graded in a fresh Python process by
``pytest_mlebench.grading.grade_submission`` with the competition as the registry loads it: every
validation, the Kaggle metric, and the original-compatible score where the competition declares
one (vinbigdata's COCO variant, siim-covid's scikit-learn variant), as a run grades it:

``hubmap``
    hubmap-kidney-segmentation's three held-out slides at their real sizes, 8242609fa (31,299 x
    44,066), 0486052bb (25,784 x 34,937) and 095bf7a1f (38,160 x 39,000): 0.9 to 1.5 x 10⁹
    pixels each. The held-out ids are MLE-bench's split (``train_test_split(train_size=12,
    test_size=3, random_state=0)``) of the 15 rows of Kaggle's ``train.csv`` in the order a public
    notebook lists them with their sizes (``IMG_SIZES`` of a HuBMAP solution's
    ``src/datasets`` module, the sizes as ``HuBMAP-20-dataset_information.csv`` gives them).
``vinbigdata``
    vinbigdata-chest-xray-abnormalities-detection: 1,500 held-out images, 100,000 predicted boxes.
``siim``
    siim-covid19-detection: 606 studies and 634 images, 100,000 predicted boxes.

Beside each, the same computation done the obvious dense way, in a fresh process too: for
hubmap, both masks of each slide decoded to dense numpy arrays (MLE-bench's ``rle_decode``: a
``uint8`` array of the slide's pixels, one slice assignment per run) and Dice from their pixels;
for the boxes, one all-pairs IoU matrix of every predicted box against every true box (numpy
broadcasting), masked to pairs of the same image and label, then the same greedy matching and
average precision. Neither fits in memory at full size (a slide's masks alone are 2 x 1.5 GB;
the IoU matrix of 100,000 boxes against 2,700 with its temporaries about 13 GB), so the dense
way runs on ``--dense-fraction`` of it — the first part of each slide's pixels (column-major
order: whole columns), the first part of the predicted boxes — and its decoding or matrix time
and its memory above the imports are scaled by the inverse fraction; the reading of the files
is measured whole and not scaled. Both costs are linear in that fraction.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core
import mask_box_cases as cases  # the generated answers and submissions


@dataclass(frozen=True)
class Case:
    """One competition at full size."""

    competition: str
    size: str
    write: Callable[[Path, int, int], None]


CASES = {
    "hubmap": Case(
        "hubmap-kidney-segmentation",
        "3 slides, 0.9-1.5e9 px",
        lambda directory, seed, _boxes: cases.write_hubmap(directory, seed),
    ),
    "vinbigdata": Case(
        "vinbigdata-chest-xray-abnormalities-detection",
        "1,500 images",
        cases.write_vinbigdata,
    ),
    "siim": Case("siim-covid19-detection", "1,240 rows", cases.write_siim),
}


def graders_scorer(directory: Path, competition_id: str) -> Callable[[], float]:
    """Grade the case as a run does: the registry's competition, ``grade_submission``."""
    from pytest_mlebench.grading import grade_submission
    from pytest_mlebench.registry import load_registry

    competition = load_registry().get(competition_id)

    def score() -> float:
        report = grade_submission(
            directory / "submission.csv", competition, directory / "answers.csv"
        )
        if report.score is None:
            raise SystemExit(
                f"{competition_id}: the generated submission was graded invalid: {report}"
            )
        return float(report.score)

    return score


# --- the dense way -----------------------------------------------------------------------------


def _read_cells(path: Path) -> dict[str, list[str]]:
    """Every column of a CSV as text (one block as large as the file: rows are MB long)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    table = pa_csv.read_csv(
        path,
        read_options=pa_csv.ReadOptions(block_size=max(path.stat().st_size, 1 << 20)),
        convert_options=pa_csv.ConvertOptions(
            column_types={
                name: pa.string()
                for name in ("id", "image_id", "encoding", "predicted", "PredictionString")
            },
            strings_can_be_null=False,
        ),
    )
    return {name: [str(v) for v in table.column(name).to_pylist()] for name in table.column_names}


def _decode_dense(cell: str, pixels: int) -> np.ndarray:
    """MLE-bench's ``rle_decode``, limited to the first ``pixels`` pixels."""
    numbers = np.asarray(cell.split(), dtype=np.int64)
    starts, lengths = numbers[0::2] - 1, numbers[1::2]
    image = np.zeros(pixels, dtype=np.uint8)
    for low, high in zip(starts.tolist(), (starts + lengths).tolist(), strict=True):
        if low >= pixels:
            break
        image[low:high] = 1
    return image


Phases = tuple[float, tuple[float, float], tuple[float, float]]
"""A dense score, then the wall and CPU seconds of reading the files, then those of the rest."""


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def dense_hubmap(directory: Path, fraction: float) -> Phases:
    """Mean Dice of dense decoded masks of the first ``fraction`` of each slide's pixels."""
    start = _clock()
    truth, submitted = (
        _read_cells(directory / "answers.csv"),
        _read_cells(directory / "submission.csv"),
    )
    predicted = dict(zip(submitted["id"], submitted["predicted"], strict=True))
    read, start = _since(start), _clock()
    total = 0.0
    for image, cell, width, height in zip(
        truth["id"], truth["encoding"], truth["width_pixels"], truth["height_pixels"], strict=True
    ):
        pixels = int(int(width) * int(height) * fraction)
        a, b = _decode_dense(cell, pixels), _decode_dense(predicted[image], pixels)
        denominator = int(a.sum()) + int(b.sum())
        total += 2.0 * int((a & b).sum()) / denominator if denominator else 1.0
        del a, b
    return total / len(truth["id"]), read, _since(start)


def _box_table(cells: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Row index, label code, confidence and corners of every box of every cell."""
    rows, labels, numbers = [], [], []
    for row, cell in enumerate(cells):
        tokens = np.asarray(cell.split(), dtype=object).reshape(-1, 6)
        rows.append(np.full(len(tokens), row))
        labels.append(tokens[:, 0].astype(str))
        numbers.append(tokens[:, 1:].astype(np.float64))
    values = np.concatenate(numbers)
    return np.concatenate(rows), np.concatenate(labels), values[:, 0], values[:, 1:]


def dense_boxes(directory: Path, competition_id: str, fraction: float) -> Phases:
    """VOC mAP through one all-pairs IoU matrix of the first ``fraction`` of the boxes."""
    from pytest_mlebench.graders.boxes import average_precision

    threshold = 0.4 if competition_id.startswith("vinbigdata") else 0.5
    id_column = "image_id" if competition_id.startswith("vinbigdata") else "id"
    start = _clock()
    truth, submitted = (
        _read_cells(directory / "answers.csv"),
        _read_cells(directory / "submission.csv"),
    )
    position = {image: row for row, image in enumerate(truth[id_column])}
    aligned = [""] * len(position)
    for image, cell in zip(submitted[id_column], submitted["PredictionString"], strict=True):
        aligned[position[image]] = cell
    true_rows, true_labels, _, true_boxes = _box_table(truth["PredictionString"])
    rows, labels, scores, boxes = _box_table(aligned)
    keep = int(len(rows) * fraction)
    rows, labels, scores, boxes = rows[:keep], labels[:keep], scores[:keep], boxes[:keep]
    read, start = _since(start), _clock()
    a, b = boxes, true_boxes
    width = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    height = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    inter = np.clip(width, 0.0, None) * np.clip(height, 0.0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / union, 0.0)
    same = (rows[:, None] == true_rows[None, :]) & (labels[:, None] == true_labels[None, :])
    iou = np.where(same, iou, -1.0)
    del width, height, inter, union, same
    aps = []
    for label in sorted(set(true_labels.tolist())):
        mine = np.flatnonzero(labels == label)
        order = mine[np.argsort(-scores[mine], kind="stable")]
        claimed = np.zeros(len(true_rows), dtype=bool)
        hits = np.zeros(len(order), dtype=bool)
        for rank, index in enumerate(order.tolist()):
            best = int(np.argmax(iou[index]))
            if iou[index, best] > threshold and not claimed[best]:
                claimed[best] = hits[rank] = True
        aps.append(average_precision(scores[order], hits, int((true_labels == label).sum())))
    return float(np.mean(aps)), read, _since(start)


def measure_dense(directory: Path, name: str, fraction: float, repeats: int) -> dict[str, Any]:
    """The dense way ``repeats`` times; the dense part's time and memory scaled by 1/fraction."""
    baseline_kib = core.current_rss_kib()
    walls, cpus = [], []
    score = 0.0
    for _ in range(repeats):
        if name == "hubmap":
            score, read, dense = dense_hubmap(directory, fraction)
        else:
            score, read, dense = dense_boxes(directory, CASES[name].competition, fraction)
        walls.append(read[0] + dense[0] / fraction)
        cpus.append(read[1] + dense[1] / fraction)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    above = (peak_kib - baseline_kib) / 1024 / fraction
    return {
        "score": score,
        "median_s": statistics.median(walls),
        "median_cpu_s": statistics.median(cpus),
        "peak_rss_mb": baseline_kib / 1024 + above,
        "peak_above_imports_mb": above,
        "measured_peak_rss_mb": peak_kib / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--boxes", type=int, default=cases.BOXES, help="predicted boxes per case")
    parser.add_argument("--dense-fraction", type=float, default=0.0625)
    core.add_child_options(parser, measure_arguments=3)
    args = parser.parse_args()
    if args.write:
        directory, name = args.write
        CASES[name].write(Path(directory), args.seed, args.boxes)
        return
    if args.measure:
        directory, name, way = args.measure
        if way == "graders":
            scorer = graders_scorer(Path(directory), CASES[name].competition)
            report = core.time_scorer(scorer, args.repeats)
        else:
            report = measure_dense(Path(directory), name, args.dense_fraction, args.repeats)
        print(json.dumps(report))
        return
    print(core.machine_line())
    print(core.repeats_line(args.repeats) + f"; dense way on {args.dense_fraction:g} of it, scaled")
    print(f"{'competition':<46} {'size':<24} {'way':<8} {core.MEASURE_HEADER}  score")
    options = ["--seed", str(args.seed), "--boxes", str(args.boxes)]
    with tempfile.TemporaryDirectory() as temporary:
        for name in args.cases:
            case = CASES[name]
            directory = Path(temporary) / name
            directory.mkdir()
            core.write_in_child(__file__, options, directory, name)
            for way, repeats in (("graders", args.repeats), ("dense", 1)):
                extra = [*options, "--dense-fraction", str(args.dense_fraction)]
                report = core.measure_in_child(__file__, extra, repeats, directory, name, way)
                columns = core.measure_columns(report, seconds_digits=2)
                label = f"{case.competition:<46} {case.size:<24} {way:<8}"
                print(f"{label} {columns}  {report['score']:.4f}")
            for path in directory.iterdir():
                path.unlink()
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
