"""Kaggle-shaped answers and submissions of the mask and box benchmarks (``bench/``; not a test).

``bench/grade_masks_boxes.py`` writes its cases with these functions:

- :func:`write_hubmap`: one row per held-out HuBMAP slide at its real size, the answer a
  column-major run-length mask of generated glomeruli (discs 200–420 pixels across, ragged
  edges, about one per 2.3 million pixels), the prediction the same glomeruli shifted and
  resized, a tenth missed and a tenth of false ones added;
- :func:`write_vinbigdata`: 1,500 images (32-hex ids), 70 % "No finding" (``14 1 0 0 1 1``), the
  others one to six boxes of distinct classes; 100,000 predicted boxes in all, the true ones
  found with a jitter and high confidence, the rest low-confidence boxes of any class;
- :func:`write_siim`: 606 studies (four study labels with the dummy box ``0 0 1 1``) and 634
  images (``none 1 0 0 1 1`` or one to three opacity boxes); the predicted boxes, 100,000 in all,
  are the four study labels per study and opacity boxes per image.

Submissions list their rows in another order than the answers. All randomness comes from one
seed, so two runs write the same files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

HUBMAP_TEST = (
    ("8242609fa", 31299, 44066),
    ("0486052bb", 25784, 34937),
    ("095bf7a1f", 38160, 39000),
)
"""The three slides MLE-bench holds out (id, height, width in pixels), see the module docstring
of ``bench/grade_masks_boxes.py`` for the source."""

PIXELS_PER_GLOMERULUS = 2_300_000
HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


def _hex(rng: np.random.Generator, rows: int, digits: int) -> list[str]:
    ids = HEX[rng.integers(0, 16, (rows, digits))].view(f"S{digits}").ravel().astype(str).tolist()
    if len(set(ids)) != rows:
        raise SystemExit("generated ids collide: use another --seed")
    return ids


def _write(
    directory: Path,
    answers: Mapping[str, Sequence[object]],
    submission: Mapping[str, Sequence[object]],
    rng: np.random.Generator,
) -> None:
    order = pa.array(rng.permutation(len(next(iter(submission.values())))))
    pa_csv.write_csv(pa.table(answers), directory / "answers.csv")
    pa_csv.write_csv(pa.table(submission).take(order), directory / "submission.csv")


# --- hubmap ------------------------------------------------------------------------------------


def _disc_runs(
    rng: np.random.Generator, height: int, centres: np.ndarray, radii: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Column-major 0-based runs ``[start, end)`` of discs with ragged (±2 pixel) edges."""
    per_disc = 2 * radii + 1
    disc = np.repeat(np.arange(len(radii)), per_disc)
    offset = np.arange(int(per_disc.sum())) - np.repeat(np.cumsum(per_disc) - per_disc, per_disc)
    dx = offset - radii[disc]
    half = np.sqrt(np.maximum(radii[disc] ** 2 - dx**2, 0)).astype(np.int64)
    half = np.maximum(half + rng.integers(-2, 3, half.size), 0)
    column = centres[disc, 1] + dx
    top = np.maximum(centres[disc, 0] - half, 0)
    bottom = np.minimum(centres[disc, 0] + half + 1, height)
    starts = column * height + top
    order = np.argsort(starts, kind="stable")
    return starts[order], (column * height + bottom)[order]


def _rle_text(starts: np.ndarray, ends: np.ndarray) -> str:
    pairs = np.column_stack((starts + 1, ends - starts)).ravel()
    return " ".join(map(str, pairs.tolist()))


def _glomeruli(
    rng: np.random.Generator, height: int, width: int, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` centres (row, column), one per cell of a grid so that no two discs overlap,
    and their radii."""
    cell = int(np.sqrt(height * width / (1.5 * count)))
    rows, columns = np.meshgrid(np.arange(height // cell), np.arange(width // cell), indexing="ij")
    cells = np.column_stack((rows.ravel(), columns.ravel()))[rng.permutation(rows.size)[:count]]
    margin = 230
    jitter = rng.integers(margin, cell - margin, (count, 2))
    return cells * cell + jitter, rng.integers(100, 211, count)


def write_hubmap(directory: Path, seed: int) -> None:
    """HuBMAP's three held-out slides at their real sizes (see the module docstring)."""
    rng = np.random.default_rng(seed)
    answers: dict[str, list[object]] = {
        "id": [],
        "encoding": [],
        "width_pixels": [],
        "height_pixels": [],
    }
    predicted: dict[str, list[object]] = {"id": [], "predicted": []}
    for image, height, width in HUBMAP_TEST:
        count = height * width // PIXELS_PER_GLOMERULUS
        centres, radii = _glomeruli(rng, height, width, count + count // 10)
        true_centres, true_radii = centres[:count], radii[:count]
        answers["id"].append(image)
        answers["encoding"].append(_rle_text(*_disc_runs(rng, height, true_centres, true_radii)))
        answers["width_pixels"].append(width)
        answers["height_pixels"].append(height)
        found = rng.random(count) > 0.1
        moved = true_centres[found] + rng.integers(-12, 13, (int(found.sum()), 2))
        resized = np.clip(true_radii[found] * rng.uniform(0.85, 1.1, int(found.sum())), 20, 212)
        # the last tenth of the grid cells hold false glomeruli, half the size of true ones
        all_centres = np.concatenate((moved, centres[count:]))
        all_radii = np.concatenate((resized.astype(np.int64), radii[count:] // 2))
        starts, ends = _disjoint(*_disc_runs(rng, height, all_centres, all_radii))
        predicted["id"].append(image)
        predicted["predicted"].append(_rle_text(starts, ends))
    _write(directory, answers, predicted, rng)


def _disjoint(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted runs with any overlap between neighbours merged away (prediction masks are sets)."""
    reach = np.maximum.accumulate(ends)
    new = np.append(True, starts[1:] > reach[:-1])
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(ends) - 1)
    return starts[first], reach[last]


# --- boxes -------------------------------------------------------------------------------------


def _boxes(rng: np.random.Generator, count: int, size: float) -> np.ndarray:
    """``count`` corner boxes inside an image of ``size`` pixels a side."""
    x, y = rng.uniform(0, size * 0.8, count), rng.uniform(0, size * 0.8, count)
    w, h = rng.uniform(30, size * 0.2, count), rng.uniform(30, size * 0.2, count)
    return np.column_stack((x, y, x + w, y + h))


def _jittered(rng: np.random.Generator, boxes: np.ndarray) -> np.ndarray:
    moved = boxes + rng.normal(0, 12, boxes.shape)
    return np.column_stack((moved[:, :2], np.maximum(moved[:, 2:], moved[:, :2] + 1)))


def _box_text(labels: list[str], scores: np.ndarray, boxes: np.ndarray) -> str:
    return " ".join(
        f"{label} {score:.4f} {b[0]:.1f} {b[1]:.1f} {b[2]:.1f} {b[3]:.1f}"
        for label, score, b in zip(labels, scores.tolist(), boxes.tolist(), strict=True)
    )


def _shares(rng: np.random.Generator, rows: int, total: int) -> np.ndarray:
    """``rows`` counts of at least 1 that add up to ``total``."""
    if total < rows:
        raise SystemExit(f"too few boxes: {rows} rows need at least one box each")
    counts = 1 + rng.multinomial(total - rows, np.full(rows, 1 / rows))
    return counts


VINBIG_IMAGES, BOXES = 1_500, 100_000


def write_vinbigdata(directory: Path, seed: int, boxes: int = BOXES) -> None:
    """vinbigdata's 1,500 held-out images and ``boxes`` predicted boxes (module docstring)."""
    rng = np.random.default_rng(seed)
    ids = _hex(rng, VINBIG_IMAGES, 32)
    answers, predictions = [], []
    extra = _shares(rng, VINBIG_IMAGES, boxes)
    for image in range(VINBIG_IMAGES):
        labels: list[str] = []
        truth = np.zeros((0, 4))
        if rng.random() < 0.7:
            answers.append("14 1 0 0 1 1")
        else:
            classes = rng.choice(14, int(rng.integers(1, 7)), replace=False)
            labels = [str(c) for c in classes]
            truth = _boxes(rng, len(labels), 2800.0)
            answers.append(_box_text(labels, np.ones(len(labels)), truth))
        found = min(len(labels), int(extra[image]) - 1)
        rest = int(extra[image]) - 1 - found
        own_labels = ["14", *labels[:found], *(str(c) for c in rng.integers(0, 14, rest))]
        own_boxes = np.concatenate(
            ([[0.0, 0.0, 1.0, 1.0]], _jittered(rng, truth[:found]), _boxes(rng, rest, 2800.0))
        )
        scores = np.concatenate(
            ([rng.uniform(0.1, 0.9)], rng.uniform(0.5, 1.0, found), rng.uniform(0.0, 0.4, rest))
        )
        predictions.append(_box_text(own_labels, scores, own_boxes))
    _write(
        directory,
        {"image_id": ids, "PredictionString": answers},
        {"image_id": ids, "PredictionString": predictions},
        rng,
    )


SIIM_STUDIES, SIIM_IMAGES = 606, 634
STUDY_LABELS = ("negative", "typical", "indeterminate", "atypical")


def write_siim(directory: Path, seed: int, boxes: int = BOXES) -> None:
    """siim-covid19's 606 held-out studies and 634 images, ``boxes`` predicted boxes in all."""
    rng = np.random.default_rng(seed)
    ids = [f"{i}_study" for i in _hex(rng, SIIM_STUDIES, 12)]
    ids += [f"{i}_image" for i in _hex(rng, SIIM_IMAGES, 12)]
    answers, predictions = [], []
    dummy = np.array([[0.0, 0.0, 1.0, 1.0]] * 4)
    for _ in range(SIIM_STUDIES):
        answers.append(f"{STUDY_LABELS[int(rng.integers(4))]} 1 0 0 1 1")
        predictions.append(_box_text(list(STUDY_LABELS), rng.dirichlet(np.ones(4)), dummy))
    per_image = _shares(rng, SIIM_IMAGES, boxes - 4 * SIIM_STUDIES)
    for image in range(SIIM_IMAGES):
        count = int(per_image[image])
        if rng.random() < 0.5:
            answers.append("none 1 0 0 1 1")
            truth = np.zeros((0, 4))
        else:
            truth = _boxes(rng, int(rng.integers(1, 4)), 3000.0)
            answers.append(_box_text(["opacity"] * len(truth), np.ones(len(truth)), truth))
        found = min(len(truth), count - 1)
        rest = count - 1 - found
        own = np.concatenate(
            ([[0.0, 0.0, 1.0, 1.0]], _jittered(rng, truth[:found]), _boxes(rng, rest, 3000.0))
        )
        scores = np.concatenate(
            ([rng.uniform(0.1, 0.9)], rng.uniform(0.5, 1.0, found), rng.uniform(0.0, 0.4, rest))
        )
        predictions.append(_box_text(["none"] + ["opacity"] * (count - 1), scores, own))
    _write(
        directory,
        {"id": ids, "PredictionString": answers},
        {"id": ids, "PredictionString": predictions},
        rng,
    )
