"""Kaggle's download of alaska2-image-steganalysis: one zip of five image folders and a CSV.

``alaska2-image-steganalysis.zip`` holds ``Cover/00001.jpg`` … (unaltered covers),
``JMiPOD/``, ``JUNIWARD/``, ``UERD/`` (a stego copy of every cover, same name), ``Test/0001.jpg``
… (Kaggle's unlabelled test images) and ``sample_submission.csv`` (``Id,Label``). The images
are stand-in JPEG bytes of one fixed size (start and end markers around a body): the prepare
only places them. A stego copy's body differs from its cover's in every eighth byte, so the
content tells the label and the file size does not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "alaska2-image-steganalysis"
ALGORITHMS = ("JMiPOD", "JUNIWARD", "UERD")
COVERS = 120
KAGGLE_TEST = 3
BODY = 48


def _jpeg(body: np.ndarray) -> bytes:
    return b"\xff\xd8\xff\xe0" + body.astype(np.uint8).tobytes() + b"\xff\xd9"


def make_download(folder: Path, rng: np.random.Generator) -> None:
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for number in range(1, COVERS + 1):
            body = rng.integers(0, 200, BODY)
            name = f"{number:05d}.jpg"
            bundle.writestr(f"Cover/{name}", _jpeg(body))
            for shift, algorithm in enumerate(ALGORITHMS, start=1):
                stego = body.copy()
                stego[::8] = 250 + shift
                bundle.writestr(f"{algorithm}/{name}", _jpeg(stego))
        for number in range(1, KAGGLE_TEST + 1):
            bundle.writestr(f"Test/{number:04d}.jpg", _jpeg(rng.integers(0, 200, BODY)))
        sample = pd.DataFrame(
            {"Id": [f"{n:04d}.jpg" for n in range(1, KAGGLE_TEST + 1)], "Label": 0}
        )
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    """Every public train image as a labelled row: covers 0, stego copies 1 (ids by path)."""
    rows = [(f"Cover/{path.name}", 0) for path in sorted((public / "Cover").glob("*.jpg"))]
    for algorithm in ALGORITHMS:
        rows += [(f"{algorithm}/{p.name}", 1) for p in sorted((public / algorithm).glob("*.jpg"))]
    return pd.DataFrame(rows, columns=["Id", "Label"])


def train_files(public: Path) -> dict[str, Path]:
    labels = public_train_labels(public)
    return {name: public / name for name in labels["Id"]}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "Test").glob("*.jpg")}
