"""Kaggle's download of rsna-2022-cervical-spine-fracture-detection: one zip, DICOM and NIfTI.

``rsna-2022-cervical-spine-fracture-detection.zip`` holds ``train.csv`` (``StudyInstanceUID,
patient_overall, C1 … C7``), ``train_bounding_boxes.csv`` (``StudyInstanceUID, x, y, width,
height, slice_number``: boxes on fractured slices of some studies), ``test.csv`` (``row_id,
StudyInstanceUID, prediction_type``), ``sample_submission.csv`` (``row_id,fractured``),
``train_images/<uid>/<n>.dcm``, ``test_images/…`` and ``segmentations/<uid>.nii`` for some
train studies (some of them boxed too). Study uids look like ``1.2.826.0.1.3680043.10197``.
The files are stand-in bytes of one size per kind (DICOM preamble and ``DICM``; a NIfTI
header's first bytes): the prepare only places them. A fractured study's slices are brighter,
so the content predicts the labels and the file size does not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "rsna-2022-cervical-spine-fracture-detection"
GROUP_COLUMN = "StudyInstanceUID"
TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
STUDIES, BOXED, SEGMENTED, BOTH = 60, 20, 12, 6
SLICES, BODY = 2, 40


def _dicom(rng: np.random.Generator, fractured: int) -> bytes:
    body = np.clip(rng.integers(0, 120, BODY) + 120 * fractured, 0, 255).astype(np.uint8)
    return b"\0" * 128 + b"DICM" + body.tobytes()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    numbers = rng.choice(np.arange(1000, 33_000), STUDIES + 1, replace=False)
    uids = [f"1.2.826.0.1.3680043.{int(n)}" for n in numbers]
    vertebrae = (rng.random((STUDIES, 7)) < 0.12).astype(int)
    overall = vertebrae.max(axis=1)
    train = pd.DataFrame(vertebrae, columns=TARGETS[1:])
    train.insert(0, "patient_overall", overall)
    train.insert(0, "StudyInstanceUID", uids[:STUDIES])
    fractured = [i for i in range(STUDIES) if overall[i]]
    boxed = [uids[i] for i in rng.choice(fractured, min(BOXED, len(fractured)), replace=False)]
    segmented = [*boxed[:BOTH], *(u for u in uids[:STUDIES] if u not in boxed)][:SEGMENTED]
    boxes = [
        (uid, float(rng.integers(100, 300)), float(rng.integers(100, 300)), 40.0, 35.0,
         int(rng.integers(1, SLICES + 1)))
        for uid in boxed
    ]  # fmt: skip
    kaggle_test = uids[STUDIES]
    test = pd.DataFrame(
        {"row_id": [f"{kaggle_test}_{t}" for t in TARGETS[1:4]], "StudyInstanceUID": kaggle_test,
         "prediction_type": TARGETS[1:4]}
    )  # fmt: skip
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        columns = ["StudyInstanceUID", "x", "y", "width", "height", "slice_number"]
        bundle.writestr(
            "train_bounding_boxes.csv", pd.DataFrame(boxes, columns=columns).to_csv(index=False)
        )
        bundle.writestr("test.csv", test.to_csv(index=False))
        sample = pd.DataFrame({"row_id": test["row_id"], "fractured": 0.5})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for position, uid in enumerate(uids[:STUDIES]):
            for number in range(1, SLICES + 1):
                bundle.writestr(
                    f"train_images/{uid}/{number}.dcm", _dicom(rng, int(overall[position]))
                )
        for number in range(1, SLICES + 1):
            bundle.writestr(f"test_images/{kaggle_test}/{number}.dcm", _dicom(rng, 0))
        for uid in segmented:
            bundle.writestr(f"segmentations/{uid}.nii", b"\x5c\x01\0\0" + bytes(28))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype={"StudyInstanceUID": str})
    melted = train.melt(id_vars="StudyInstanceUID", var_name="type", value_name="fractured")
    melted["row_id"] = melted["StudyInstanceUID"] + "_" + melted["type"]
    return melted[["row_id", "fractured"]]
