"""Kaggle's download of hubmap-kidney-segmentation: TIFF slides with JSON polygons, RLE masks.

``hubmap-kidney-segmentation.zip`` holds ``train/`` (``<id>.tiff``, ``<id>.json`` — the glomerulus
polygons as GeoJSON features — and ``<id>-anatomical-structure.json``), ``test/`` (Kaggle's five
unlabelled images, the same three files each), ``train.csv`` (``id,encoding``: 9-hex-digit ids,
column-major runs), ``sample_submission.csv`` (``id,predicted``) and
``HuBMAP-20-dataset_information.csv`` (``image_file,width_pixels,height_pixels,
anatomical_structures_segmention_file,glomerulus_segmentation_file,patient_number,...``). Slides
are 24 x 16 RGB TIFFs instead of up to 50,000 x 40,000; a glomerulus is a small block, darker in
the image, at a random place.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.graders.rle import encode
from tests.lite.synthetic_images import encoded, random_hex

COMPETITION = "hubmap-kidney-segmentation"
EMPTY_CELL_IS_TEXT = True  # an empty mask is a valid prediction of no glomerulus
HEIGHT, WIDTH = 16, 24
LABELLED, KAGGLE_TEST = 15, 5


def _mask(rng: np.random.Generator) -> np.ndarray:
    mask = np.zeros((HEIGHT, WIDTH), dtype=bool)
    for _ in range(int(rng.integers(1, 3))):
        top, left = int(rng.integers(0, HEIGHT - 3)), int(rng.integers(0, WIDTH - 3))
        mask[top : top + 3, left : left + 3] = True
    return mask


def _polygons(mask: np.ndarray) -> str:
    rows, cols = np.nonzero(mask)
    features = [
        {
            "type": "Feature",
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[int(c), int(r)] for r, c in zip(rows, cols, strict=True)]],
            },
            "properties": {"classification": {"name": "glomerulus"}, "isLocked": False},
        }
    ]
    return json.dumps(features)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = [random_hex(rng, 9) for _ in range(LABELLED + KAGGLE_TEST)]
    masks = [_mask(rng) for _ in ids]
    info = pd.DataFrame(
        {
            "image_file": [f"{image}.tiff" for image in ids],
            "width_pixels": WIDTH,
            "height_pixels": HEIGHT,
            "anatomical_structures_segmention_file": [
                f"{image}-anatomical-structure.json" for image in ids
            ],
            "glomerulus_segmentation_file": [f"{image}.json" for image in ids],
            "patient_number": rng.integers(60000, 70000, len(ids)),
            "sex": rng.choice(["Male", "Female"], len(ids)),
            "age": rng.integers(30, 80, len(ids)),
        }
    )
    train = pd.DataFrame(
        {"id": ids[:LABELLED], "encoding": [encode(m, "column") for m in masks[:LABELLED]]}
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        for position, (image, mask) in enumerate(zip(ids, masks, strict=True)):
            split = "train" if position < LABELLED else "test"
            pixels = rng.integers(150, 200, (HEIGHT, WIDTH, 3)) - 100 * mask[:, :, None]
            bundle.writestr(f"{split}/{image}.tiff", encoded(pixels.astype(np.uint8), "TIFF"))
            bundle.writestr(f"{split}/{image}.json", _polygons(mask))
            cortex = [{"type": "Feature", "properties": {"classification": {"name": "Cortex"}}}]
            bundle.writestr(f"{split}/{image}-anatomical-structure.json", json.dumps(cortex))
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("HuBMAP-20-dataset_information.csv", info.to_csv(index=False))
        sample = pd.DataFrame({"id": ids[LABELLED:], "predicted": ""})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    return train.rename(columns={"encoding": "predicted"})


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*.tiff")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*.tiff")}
