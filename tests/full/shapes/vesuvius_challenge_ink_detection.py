"""Kaggle's download of vesuvius-challenge-ink-detection: fragments as folders of TIFF slices.

``vesuvius-challenge-ink-detection.zip`` holds ``train/1``, ``train/2``, ``train/3`` (each
``surface_volume/00.tif`` … ``64.tif`` — 16-bit grayscale slices — ``mask.png`` (the papyrus),
``ir.png`` (the infrared photo), ``inklabels.png`` and ``inklabels_rle.csv``, ``Id,Predicted``
with row-major runs), ``test/a`` and ``test/b`` (slices and ``mask.png`` only) and
``sample_submission.csv`` (``Id,Predicted``). Fragments are 12 x 10 pixels instead of about
8,000 x 6,000; ink is a few random strokes, brighter in the middle slices.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.graders.rle import encode
from tests.lite.synthetic_images import encoded

COMPETITION = "vesuvius-challenge-ink-detection"
EMPTY_CELL_IS_TEXT = True  # an empty cell is an empty mask (no ink predicted)
HEIGHT, WIDTH, SLICES = 12, 10, 65


def _ink(rng: np.random.Generator) -> np.ndarray:
    ink = np.zeros((HEIGHT, WIDTH), dtype=bool)
    for _ in range(3):
        row, left = int(rng.integers(0, HEIGHT)), int(rng.integers(0, WIDTH - 4))
        ink[row, left : left + 4] = True
    return ink


def _fragment(
    bundle: zipfile.ZipFile, folder: str, rng: np.random.Generator, ink: np.ndarray | None
) -> None:
    strokes = ink if ink is not None else _ink(rng)
    for index in range(SLICES):
        pixels = rng.integers(20000, 21000, (HEIGHT, WIDTH)).astype(np.uint16)
        if 28 <= index <= 36:
            pixels += (3000 * strokes).astype(np.uint16)
        bundle.writestr(f"{folder}/surface_volume/{index:02}.tif", encoded(pixels, "TIFF"))
    bundle.writestr(f"{folder}/mask.png", encoded(np.full((HEIGHT, WIDTH), 255, np.uint8), "PNG"))
    if ink is None:
        return
    bundle.writestr(
        f"{folder}/ir.png", encoded(rng.integers(0, 255, (HEIGHT, WIDTH)).astype(np.uint8), "PNG")
    )
    bundle.writestr(f"{folder}/inklabels.png", encoded((ink * 255).astype(np.uint8), "PNG"))
    labels = pd.DataFrame({"Id": [folder.rsplit("/", 1)[-1]], "Predicted": [encode(ink, "row")]})
    bundle.writestr(f"{folder}/inklabels_rle.csv", labels.to_csv(index=False))


def make_download(folder: Path, rng: np.random.Generator) -> None:
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        for fragment in ("1", "2", "3"):
            _fragment(bundle, f"train/{fragment}", rng, _ink(rng))
        for fragment in ("a", "b"):
            _fragment(bundle, f"test/{fragment}", rng, None)
        sample = pd.DataFrame({"Id": ["a", "b"], "Predicted": "1 1 5 1"})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    frames = [
        pd.read_csv(path, dtype=str, keep_default_na=False)
        for path in sorted((public / "train").glob("*/inklabels_rle.csv"))
    ]
    return pd.concat(frames, ignore_index=True)


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path / "mask.png" for path in (public / "train").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path / "mask.png" for path in (public / "test").iterdir()}
