"""Kaggle's download of vinbigdata-chest-xray-abnormalities-detection: a zip, a box table, DICOM.

``vinbigdata-chest-xray-abnormalities-detection.zip`` holds ``train.csv`` (one row per box and
radiologist: ``image_id,class_name,class_id,rad_id,x_min,y_min,x_max,y_max``; "No finding",
class 14, has empty coordinates; three radiologists per image), ``sample_submission.csv``
(``image_id,PredictionString`` for Kaggle's test images, ``14 1 0 0 1 1``) and
``train/<image_id>.dicom`` / ``test/<image_id>.dicom``. Image ids are 32 hexadecimal digits. The
files are stand-in DICOM bytes of one fixed length: the prepare only places them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "vinbigdata-chest-xray-abnormalities-detection"
EMPTY_CELL_IS_TEXT = True  # an empty PredictionString is "no boxes", a valid answer
CLASSES = (
    "Aortic enlargement", "Atelectasis", "Calcification", "Cardiomegaly", "Consolidation", "ILD",
    "Infiltration", "Lung Opacity", "Nodule/Mass", "Other lesion", "Pleural effusion",
    "Pleural thickening", "Pneumothorax", "Pulmonary fibrosis", "No finding",
)  # fmt: skip
TRAIN_IMAGES, TEST_IMAGES = 60, 3
BODY = 64


def _hex(rng: np.random.Generator, digits: int) -> str:
    return "".join(rng.choice(list("0123456789abcdef"), digits))


def _dicom(rng: np.random.Generator) -> bytes:
    return b"\0" * 128 + b"DICM" + rng.integers(0, 256, BODY).astype(np.uint8).tobytes()


def _rows(rng: np.random.Generator, image: str) -> list[list[object]]:
    rads = rng.choice(np.arange(1, 18), 3, replace=False)
    if rng.random() < 0.4:
        return [[image, CLASSES[14], 14, f"R{rad}", None, None, None, None] for rad in rads]
    findings = rng.choice(14, int(rng.integers(1, 4)), replace=False)
    rows: list[list[object]] = []
    for rad in rads:
        for finding in findings:
            x, y = (round(float(value)) for value in rng.uniform(200, 1800, 2))
            width, height = (round(float(value)) for value in rng.uniform(100, 600, 2))
            rows.append(
                [image, CLASSES[finding], int(finding), f"R{rad}", x, y, x + width, y + height]
            )
    return rows


def make_download(folder: Path, rng: np.random.Generator) -> None:
    rows: list[list[object]] = []
    tests = []
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for position in range(TRAIN_IMAGES + TEST_IMAGES):
            image = _hex(rng, 32)
            if position < TRAIN_IMAGES:
                rows += _rows(rng, image)
                bundle.writestr(f"train/{image}.dicom", _dicom(rng))
            else:
                tests.append(image)
                bundle.writestr(f"test/{image}.dicom", _dicom(rng))
        columns = [
            "image_id",
            "class_name",
            "class_id",
            "rad_id",
            "x_min",
            "y_min",
            "x_max",
            "y_max",
        ]
        bundle.writestr("train.csv", pd.DataFrame(rows, columns=columns).to_csv(index=False))
        sample = pd.DataFrame({"image_id": tests, "PredictionString": "14 1 0 0 1 1"})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    """The train images with their first box per class, in submission form."""
    rows = pd.read_csv(public / "train.csv", dtype={"image_id": str})
    first = rows.drop_duplicates(subset=["image_id", "class_id"]).fillna(0)
    cells = first.apply(
        lambda row: f"{row.class_id} 1 {row.x_min} {row.y_min} {row.x_max or 1} {row.y_max or 1}",
        axis=1,
    )
    joined = cells.groupby(first["image_id"]).agg(" ".join)
    return pd.DataFrame({"image_id": joined.index, "PredictionString": joined.to_numpy()})


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*.dicom")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*.dicom")}
