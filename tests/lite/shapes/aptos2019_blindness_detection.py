"""Kaggle's download of aptos2019-blindness-detection: three CSVs and two folders of PNGs.

``aptos2019-blindness-detection.zip`` holds ``train.csv`` (``id_code,diagnosis``; ids are 12 hex
digits, grades 0 to 4), ``test.csv`` (``id_code``), ``sample_submission.csv``
(``id_code,diagnosis``, grade 0 for every test image), ``train_images/<id_code>.png`` and
``test_images/<id_code>.png`` (folders in the archive). The synthetic 4 x 4 PNGs are noise made
brighter with each grade (the noise, the same for every grade, sets the file size); the rows of
``train.csv`` are grouped by grade, so a prepare that keeps the raw order would leak them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "aptos2019-blindness-detection"
GRADES = (0, 1, 2, 3, 4)
TRAIN_PER_GRADE = 60
TEST_IMAGES = 10
SIDE = 4
STEP = 35


def _image(rng: np.random.Generator, grade: int) -> bytes:
    return encoded(tinted_noise(rng, SIDE, SIDE, (STEP * grade,) * 3), "PNG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    grades = [grade for grade in GRADES for _ in range(TRAIN_PER_GRADE)]
    ids = [random_hex(rng, 12) for _ in range(len(grades) + TEST_IMAGES)]
    train = pd.DataFrame({"id_code": ids[: len(grades)], "diagnosis": grades})
    test = pd.DataFrame({"id_code": ids[len(grades) :]})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", test.assign(diagnosis=0).to_csv(index=False))
        for image_id, grade in zip(train["id_code"], grades, strict=True):
            bundle.writestr(f"train_images/{image_id}.png", _image(rng, grade))
        for image_id in test["id_code"]:
            bundle.writestr(f"test_images/{image_id}.png", _image(rng, int(rng.integers(5))))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype={"id_code": str})


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train_images").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test_images").iterdir()}
