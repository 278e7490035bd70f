"""Kaggle's download of bms-molecular-translation: three CSVs and two trees of PNGs.

``bms-molecular-translation.zip`` holds ``train_labels.csv`` (``image_id,InChI``; ids are 12
hexadecimal digits), ``extra_approved_InChIs.csv`` (``InChI``), ``sample_submission.csv``
(``image_id,InChI``, the same placeholder for every test image), and ``train/<a>/<b>/<c>/<id>.png``
and ``test/<a>/<b>/<c>/<id>.png`` (``a``, ``b``, ``c``: the id's first three characters). The
synthetic InChIs are ``InChI=1S/<formula>/c<connections>/h<hydrogens>`` with random atom counts
and connection strings of random length (so two of them are far apart, as two real molecules
are); the 6 x 6 PNGs are noise.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "bms-molecular-translation"
TRAIN_IMAGES = 150
KAGGLE_TEST_IMAGES = 5
SIDE = 6


def _inchi(rng: np.random.Generator) -> str:
    carbons, hydrogens, nitrogens, oxygens = (
        int(n) for n in rng.integers([6, 4, 0, 0], [30, 40, 4, 6])
    )
    formula = (
        f"C{carbons}H{hydrogens}"
        + (f"N{nitrogens}" if nitrogens else "")
        + (f"O{oxygens}" if oxygens else "")
    )
    atoms = rng.integers(1, carbons + nitrogens + oxygens + 1, int(rng.integers(8, 30)))
    connections = "".join(f"{a}{rng.choice(['-', '(', ')', ','])}" for a in atoms)
    marks = rng.integers(1, carbons + 1, int(rng.integers(3, 10)))
    return f"InChI=1S/{formula}/c{connections}{atoms[-1]}/h" + ",".join(f"{m}H" for m in marks)


def _image(rng: np.random.Generator) -> bytes:
    return encoded(tinted_noise(rng, SIDE, SIDE, (0, 0, 0)), "PNG")


def _path(side: str, image_id: str) -> str:
    return f"{side}/{image_id[0]}/{image_id[1]}/{image_id[2]}/{image_id}.png"


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = [random_hex(rng, 12) for _ in range(TRAIN_IMAGES + KAGGLE_TEST_IMAGES)]
    train = pd.DataFrame(
        {"image_id": ids[:TRAIN_IMAGES], "InChI": [_inchi(rng) for _ in range(TRAIN_IMAGES)]}
    )
    kaggle_test = ids[TRAIN_IMAGES:]
    extra = pd.DataFrame({"InChI": [_inchi(rng) for _ in range(20)]})
    sample = pd.DataFrame({"image_id": kaggle_test, "InChI": "InChI=1S/H2O/h1H2"})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train_labels.csv", train.to_csv(index=False))
        bundle.writestr("extra_approved_InChIs.csv", extra.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for image_id in train["image_id"]:
            bundle.writestr(_path("train", image_id), _image(rng))
        for image_id in kaggle_test:
            bundle.writestr(_path("test", image_id), _image(rng))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train_labels.csv", dtype=str)


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").rglob("*.png")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").rglob("*.png")}
