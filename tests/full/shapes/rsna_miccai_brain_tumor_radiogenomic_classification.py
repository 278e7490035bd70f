"""Kaggle's download of rsna-miccai-brain-tumor-radiogenomic-classification: one zip, DICOM trees.

``rsna-miccai-brain-tumor-radiogenomic-classification.zip`` holds ``train_labels.csv``
(``BraTS21ID,MGMT_value``; ids are five-digit zero-padded text such as ``00012``),
``sample_submission.csv`` (the same columns for Kaggle's test cases) and
``train/<id>/<scan>/Image-<n>.dcm`` / ``test/<id>/<scan>/Image-<n>.dcm`` for the four scans
``FLAIR``, ``T1w``, ``T1wCE``, ``T2w``. The files are stand-in DICOM bytes (the 128-byte
preamble, ``DICM`` and a fixed-length body): the prepare only places them. A methylated case's
body is brighter, so the content predicts the label and the file size does not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "rsna-miccai-brain-tumor-radiogenomic-classification"
SCANS = ("FLAIR", "T1w", "T1wCE", "T2w")
TRAIN_CASES, TEST_CASES = 40, 3
SLICES = 2
BODY = 64


def _dicom(rng: np.random.Generator, label: int) -> bytes:
    body = rng.integers(0, 128, BODY) + 100 * label
    return b"\0" * 128 + b"DICM" + np.clip(body, 0, 255).astype(np.uint8).tobytes()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    numbers = np.sort(rng.choice(np.arange(0, 1011), TRAIN_CASES + TEST_CASES, replace=False))
    ids = [f"{int(number):05d}" for number in numbers]
    labels = rng.integers(0, 2, len(ids))
    train_ids = ids[:TRAIN_CASES]
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        train = pd.DataFrame({"BraTS21ID": train_ids, "MGMT_value": labels[:TRAIN_CASES]})
        bundle.writestr("train_labels.csv", train.to_csv(index=False))
        sample = pd.DataFrame({"BraTS21ID": ids[TRAIN_CASES:], "MGMT_value": 0.5})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for position, case in enumerate(ids):
            part = "train" if position < TRAIN_CASES else "test"
            for scan in SCANS:
                for number in range(1, SLICES + 1):
                    name = f"{part}/{case}/{scan}/Image-{number}.dcm"
                    bundle.writestr(name, _dicom(rng, int(labels[position])))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train_labels.csv", dtype={"BraTS21ID": str})


def train_files(public: Path) -> dict[str, Path]:
    return {
        path.parent.parent.name: path for path in (public / "train").glob("*/FLAIR/Image-1.dcm")
    }


def test_files(public: Path) -> dict[str, Path]:
    return {path.parent.parent.name: path for path in (public / "test").glob("*/FLAIR/Image-1.dcm")}
