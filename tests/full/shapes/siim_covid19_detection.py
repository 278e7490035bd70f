"""Kaggle's download of siim-covid19-detection: one zip, two label files, DICOM trees.

``siim-covid19-detection.zip`` holds ``train_study_level.csv`` (``id`` as ``<study>_study`` and
the four 0/1 columns ``Negative for Pneumonia``, ``Typical Appearance``, ``Indeterminate
Appearance``, ``Atypical Appearance``), ``train_image_level.csv`` (``id`` as ``<image>_image``,
``boxes`` as a list of ``{'x', 'y', 'width', 'height'}`` records or empty, ``label`` as
``opacity 1 x_min y_min x_max y_max`` groups or ``none 1 0 0 1 1``, ``StudyInstanceUID``),
``sample_submission.csv`` (Kaggle's test rows) and ``train/<study>/<series>/<image>.dcm`` /
``test/…``. Study, series and image ids are 12 hexadecimal digits. The files are stand-in DICOM
bytes of one fixed length (the 128-byte preamble, ``DICM`` and a body): the prepare only places
them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "siim-covid19-detection"
EMPTY_CELL_IS_TEXT = True  # an empty PredictionString is "no boxes", a valid answer
CLASSES = (
    "Negative for Pneumonia",
    "Typical Appearance",
    "Indeterminate Appearance",
    "Atypical Appearance",
)
SHARES = (0.3, 0.45, 0.17, 0.08)
TRAIN_STUDIES, TEST_STUDIES = 60, 3
BODY = 64


def _hex(rng: np.random.Generator) -> str:
    return "".join(rng.choice(list("0123456789abcdef"), 12))


def _dicom(rng: np.random.Generator) -> bytes:
    return b"\0" * 128 + b"DICM" + rng.integers(0, 256, BODY).astype(np.uint8).tobytes()


def _boxes(rng: np.random.Generator, count: int) -> tuple[str, str]:
    records, groups = [], []
    for _ in range(count):
        x, y = (round(float(value), 5) for value in rng.uniform(100, 1500, 2))
        width, height = (round(float(value), 5) for value in rng.uniform(300, 1200, 2))
        records.append(f"{{'x': {x}, 'y': {y}, 'width': {width}, 'height': {height}}}")
        groups.append(f"opacity 1 {x} {y} {round(x + width, 5)} {round(y + height, 5)}")
    return (f"[{', '.join(records)}]" if records else ""), " ".join(groups)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    studies, images, sample_ids = [], [], []
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for position in range(TRAIN_STUDIES + TEST_STUDIES):
            part = "train" if position < TRAIN_STUDIES else "test"
            study, series = _hex(rng), _hex(rng)
            appearance = int(rng.choice(len(CLASSES), p=SHARES))
            flags = [int(index == appearance) for index in range(len(CLASSES))]
            if part == "train":
                studies.append([f"{study}_study", *flags])
            else:
                sample_ids.append(f"{study}_study")
            for _ in range(int(rng.integers(1, 3))):
                image = _hex(rng)
                count = 0 if appearance == 0 else int(rng.integers(0, 3))
                boxes, label = _boxes(rng, count)
                if part == "train":
                    images.append([f"{image}_image", boxes, label or "none 1 0 0 1 1", study])
                else:
                    sample_ids.append(f"{image}_image")
                bundle.writestr(f"{part}/{study}/{series}/{image}.dcm", _dicom(rng))
        study_frame = pd.DataFrame(studies, columns=["id", *CLASSES])
        bundle.writestr("train_study_level.csv", study_frame.to_csv(index=False))
        columns = ["id", "boxes", "label", "StudyInstanceUID"]
        bundle.writestr(
            "train_image_level.csv", pd.DataFrame(images, columns=columns).to_csv(index=False)
        )
        sample = pd.DataFrame({"id": sample_ids, "PredictionString": "none 1 0 0 1 1"})
        sample.loc[sample["id"].str.endswith("_study"), "PredictionString"] = "negative 1 0 0 1 1"
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    """Train studies and images with their answers in submission form (``id, PredictionString``)."""
    studies = pd.read_csv(public / "train_study_level.csv", dtype={"id": str})
    names = ["negative", "typical", "indeterminate", "atypical"]
    study_labels = [
        f"{names[int(i)]} 1 0 0 1 1" for i in studies[list(CLASSES)].to_numpy().argmax(1)
    ]
    images = pd.read_csv(public / "train_image_level.csv", dtype=str, keep_default_na=False)
    return pd.concat(
        [
            pd.DataFrame({"id": studies["id"], "PredictionString": study_labels}),
            images[["id", "label"]].rename(columns={"label": "PredictionString"}),
        ],
        ignore_index=True,
    )


def test_files(public: Path) -> dict[str, Path]:
    return {f"{path.stem}_image": path for path in (public / "test").glob("*/*/*.dcm")}


def train_files(public: Path) -> dict[str, Path]:
    return {f"{path.stem}_image": path for path in (public / "train").glob("*/*/*.dcm")}
