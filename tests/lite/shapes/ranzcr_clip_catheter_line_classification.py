"""Kaggle's download of ranzcr-clip-catheter-line-classification: CSVs and two image folders.

``ranzcr-clip-catheter-line-classification.zip`` holds ``train.csv`` (``StudyInstanceUID``, the
11 0/1 class columns, ``PatientID``), ``train_annotations.csv`` (``StudyInstanceUID,label,data``:
a class name and a list of line points), ``sample_submission.csv`` and the grayscale X-rays
``train/<uid>.jpg`` and ``test/<uid>.jpg``. Kaggle's download also holds TFRecord copies of the
images, which prepare does not read; they are left out here. Study ids are DICOM UIDs under
``1.2.826.0.1.3680043.8.498.``; patients have several studies each. Each synthetic X-ray shows
one band per class, bright when the class is present; every JPEG has the same size.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_media import jpeg_bytes

COMPETITION = "ranzcr-clip-catheter-line-classification"
ID_COLUMN = "StudyInstanceUID"
DEVICES = {
    "ETT": ("ETT - Abnormal", "ETT - Borderline", "ETT - Normal"),
    "NGT": ("NGT - Abnormal", "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal"),
    "CVC": ("CVC - Abnormal", "CVC - Borderline", "CVC - Normal"),
    "Swan Ganz": ("Swan Ganz Catheter Present",),
}
CLASSES = tuple(name for names in DEVICES.values() for name in names)
UID_ROOT = "1.2.826.0.1.3680043.8.498."
PATIENTS = 60
TRAIN_ROWS = 200
TEST_ROWS = 8
JPEG_SIZE = 1_000


def _uids(rng: np.random.Generator, count: int) -> list[str]:
    lengths = rng.integers(20, 39, size=count)
    return [UID_ROOT + "".join(map(str, rng.integers(1, 10, size=n))) for n in lengths]


def _labels(rng: np.random.Generator) -> dict[str, int]:
    row = dict.fromkeys(CLASSES, 0)
    for names in DEVICES.values():
        present = rng.integers(0, len(names) + 1)  # 0: no such device
        if present:
            row[names[present - 1]] = 1
    return row


def _xray(rng: np.random.Generator, row: dict[str, int]) -> bytes:
    bands = np.array([200.0 if row[name] else 40.0 for name in CLASSES])
    pixels = np.repeat(bands, 2)[None, :] + rng.normal(0.0, 6.0, size=(8, 2 * len(CLASSES)))
    return jpeg_bytes(np.clip(pixels, 0, 255).astype(np.uint8), JPEG_SIZE)


def _annotations(train: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for _, study in train.iterrows():
        for name in CLASSES:
            if study[name] and rng.random() < 0.5:
                points = rng.integers(0, 2048, size=(3, 2)).tolist()
                rows.append({ID_COLUMN: study[ID_COLUMN], "label": name, "data": str(points)})
    return pd.DataFrame(rows, columns=[ID_COLUMN, "label", "data"])


def make_download(folder: Path, rng: np.random.Generator) -> None:
    uids = _uids(rng, TRAIN_ROWS + TEST_ROWS)
    patients = [f"{number:09x}" for number in rng.choice(16**9, size=PATIENTS, replace=False)]
    rows = [_labels(rng) for _ in range(TRAIN_ROWS)]
    train = pd.DataFrame(rows, columns=list(CLASSES))
    train.insert(0, ID_COLUMN, uids[:TRAIN_ROWS])
    train["PatientID"] = rng.choice(patients, size=TRAIN_ROWS)
    sample = pd.DataFrame({ID_COLUMN: uids[TRAIN_ROWS:], **dict.fromkeys(CLASSES, 0)})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("train_annotations.csv", _annotations(train, rng).to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for uid, row in zip(train[ID_COLUMN], rows, strict=True):
            bundle.writestr(f"train/{uid}.jpg", _xray(rng, row))
        for uid in sample[ID_COLUMN]:
            bundle.writestr(f"test/{uid}.jpg", _xray(rng, _labels(rng)))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype={ID_COLUMN: str})
    return train[[ID_COLUMN, *CLASSES]]


def _images(public: Path, part: str) -> dict[str, Path]:
    return {path.stem: path for path in (public / part).glob("*.jpg")}


def train_files(public: Path) -> dict[str, Path]:
    return _images(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _images(public, "test")
