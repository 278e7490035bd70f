"""Kaggle's download of statoil-iceberg-classifier-challenge: three 7-Zip archives in one zip.

``statoil-iceberg-classifier-challenge.zip`` holds ``train.json.7z``
(``data/processed/train.json``), ``test.json.7z`` (``data/processed/test.json``) and
``sample_submission.csv.7z`` (``sample_submission.csv``: ``id,is_iceberg``). Each JSON file is a
list of records with ``id`` (eight random hex digits), ``band_1`` and ``band_2`` (the radar
backscatter in dB, a flattened square image), ``inc_angle`` (a number, or the text ``"na"`` in some
train records) and, in train, ``is_iceberg`` (0 or 1). The synthetic bands are 15 × 15 instead of
Kaggle's 75 × 75, to keep the fixture tiny; icebergs are brighter in ``band_2``, so the bands
predict the label; records are grouped by label, so a prepare that kept the raw order would leak it.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import py7zr

from tests.lite.synthetic_images import random_hex

COMPETITION = "statoil-iceberg-classifier-challenge"
PUBLIC_JSON = True  # train.json / test.json: checked by tests/full/test_public_json.py
SIDE = 15
RECORDS_PER_LABEL = 25
TEST_RECORDS = 5


def _record(rng: np.random.Generator, label: int | None) -> dict[str, Any]:
    shift = 4.0 if label == 1 else 0.0
    band_1 = rng.normal(-22.0, 3.0, size=SIDE * SIDE)
    band_2 = rng.normal(-26.0 + shift, 3.0, size=SIDE * SIDE)
    record: dict[str, Any] = {
        "id": random_hex(rng, 8),
        "band_1": [round(float(v), 6) for v in band_1],
        "band_2": [round(float(v), 6) for v in band_2],
        "inc_angle": "na" if rng.random() < 0.1 else round(float(rng.uniform(30, 46)), 4),
    }
    if label is not None:
        record["is_iceberg"] = label
    return record


def _seven_zip(name: str, content: str) -> bytes:
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        archive.writestr(content, name)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = [_record(rng, label) for label in (0, 1) for _ in range(RECORDS_PER_LABEL)]
    test = [_record(rng, None) for _ in range(TEST_RECORDS)]
    sample = pd.DataFrame({"id": [r["id"] for r in test], "is_iceberg": 0.5})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.json.7z", _seven_zip("data/processed/train.json", json.dumps(train)))
        bundle.writestr("test.json.7z", _seven_zip("data/processed/test.json", json.dumps(test)))
        bundle.writestr(
            "sample_submission.csv.7z",
            _seven_zip("sample_submission.csv", sample.to_csv(index=False)),
        )


def public_train_labels(public: Path) -> pd.DataFrame:
    records = json.loads((public / "train.json").read_text("utf-8"))
    return pd.DataFrame(
        {"id": [r["id"] for r in records], "is_iceberg": [r["is_iceberg"] for r in records]}
    )
