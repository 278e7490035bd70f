"""Kaggle's download of rsna-breast-cancer-detection: one zip of three CSVs and DICOM folders.

``rsna-breast-cancer-detection.zip`` holds ``train.csv`` (14 columns: ``site_id, patient_id,
image_id, laterality, view, age, cancer, biopsy, invasive, BIRADS, implant, density,
machine_id, difficult_negative_case``; ``density`` and ``age`` may be empty), ``test.csv``
(``site_id, patient_id, image_id, laterality, view, age, implant, machine_id,
prediction_id``), ``sample_submission.csv`` (``prediction_id,cancer``) and
``train_images/<patient_id>/<image_id>.dcm`` / ``test_images/…``: two views (``CC``, ``MLO``)
of each breast. Ids are random integers (patients up to five digits, images up to ten). The
files are stand-in DICOM bytes of one size (preamble, ``DICM``, body): the prepare only places
them. A cancer's images have a brighter body, so the content predicts the label.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "rsna-breast-cancer-detection"
GROUP_COLUMN = "patient_id"
PATIENTS = 50
BODY = 48


def _dicom(rng: np.random.Generator, cancer: int) -> bytes:
    body = np.clip(rng.integers(0, 120, BODY) + 120 * cancer, 0, 255).astype(np.uint8)
    return b"\0" * 128 + b"DICM" + body.tobytes()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    patients = rng.permutation(rng.choice(np.arange(10, 65_535), PATIENTS + 1, replace=False))
    rows, files = [], {}
    for patient in patients[:PATIENTS]:
        site, age = int(rng.integers(1, 3)), int(rng.integers(40, 80))
        for laterality in ("L", "R"):
            cancer = int(rng.random() < 0.2)
            for view in ("CC", "MLO"):
                image = int(rng.integers(10_000, 2_147_483_647))
                density = str(rng.choice(["A", "B", "C", "D", ""]))
                rows.append(
                    (site, int(patient), image, laterality, view, age, cancer, cancer,
                     cancer * int(rng.integers(0, 2)), "" if cancer else 1, 0, density,
                     int(rng.choice([21, 29, 48, 49])), False)
                )  # fmt: skip
                files[f"train_images/{patient}/{image}.dcm"] = _dicom(rng, cancer)
    columns = [
        "site_id", "patient_id", "image_id", "laterality", "view", "age", "cancer", "biopsy",
        "invasive", "BIRADS", "implant", "density", "machine_id", "difficult_negative_case",
    ]  # fmt: skip
    kaggle_patient = int(patients[PATIENTS])
    test = pd.DataFrame(
        [(2, kaggle_patient, 736471439, "L", "MLO", 81, 0, 21, f"{kaggle_patient}_L")],
        columns=["site_id", "patient_id", "image_id", "laterality", "view", "age", "implant",
                 "machine_id", "prediction_id"],
    )  # fmt: skip
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", pd.DataFrame(rows, columns=columns).to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        sample = pd.DataFrame({"prediction_id": [f"{kaggle_patient}_L"], "cancer": [0.021]})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for name, data in files.items():
            bundle.writestr(name, data)
        bundle.writestr(f"test_images/{kaggle_patient}/736471439.dcm", _dicom(rng, 0))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    train["prediction_id"] = train["patient_id"] + "_" + train["laterality"]
    labels = train.groupby("prediction_id", as_index=False)["cancer"].first()
    return labels.astype({"cancer": int})


def train_files(public: Path) -> dict[str, Path]:
    return _first_image(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _first_image(public, "test")


def _first_image(public: Path, side: str) -> dict[str, Path]:
    table = pd.read_csv(public / f"{side}.csv", dtype=str, keep_default_na=False)
    files = {}
    for patient, image, laterality in zip(
        table["patient_id"], table["image_id"], table["laterality"], strict=True
    ):
        files.setdefault(f"{patient}_{laterality}", public / f"{side}_images/{patient}/{image}.dcm")
    return files
