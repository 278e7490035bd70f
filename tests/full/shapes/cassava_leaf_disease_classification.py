"""Kaggle's download of cassava-leaf-disease-classification: photos, CSVs and TFRecord files.

``cassava-leaf-disease-classification.zip`` holds ``train.csv`` (``image_id`` such as
``1000015157.jpg``, ``label`` 0 to 4), ``sample_submission.csv`` (one placeholder row),
``label_num_to_disease_map.json``, ``train_images/<image_id>``, ``test_images/`` (one photo),
``train_tfrecords/ld_train{i:02d}-{n}.tfrec`` (the same photos as ``Example`` records with
``image``, ``image_name`` and ``target``) and ``test_tfrecords/ld_test00-1.tfrec``. A photo's
tint follows its label under noise that dominates the encoded size; photos go to TFRecord files
at random, as on Kaggle.
"""

from __future__ import annotations

import json
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from tfrecord.reader import tfrecord_loader
from tfrecord.writer import TFRecordWriter

from tests.lite.synthetic_images import encoded, tinted_noise

COMPETITION = "cassava-leaf-disease-classification"
FILES = 10
PER_FILE = 15
LABEL_SHARES = (0.05, 0.1, 0.1, 0.55, 0.2)  # Kaggle's mosaic disease (3) is the majority too
DISEASES = {
    "0": "Cassava Bacterial Blight (CBB)",
    "1": "Cassava Brown Streak Disease (CBSD)",
    "2": "Cassava Green Mottle (CGM)",
    "3": "Cassava Mosaic Disease (CMD)",
    "4": "Healthy",
}


def _photo(rng: np.random.Generator, label: int) -> bytes:
    tint = (label * 30, 120 - label * 20, 60)
    return encoded(tinted_noise(rng, 12, 12, tint), "JPEG")


def _tfrecord(rows: list[tuple[str, int, bytes]], labelled: bool) -> bytes:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "part.tfrec"
        writer = TFRecordWriter(str(path))
        for name, label, photo in rows:
            features = {"image": (photo, "byte"), "image_name": (name.encode(), "byte")}
            if labelled:
                features["target"] = (label, "int")
            writer.write(features)
        writer.close()
        return path.read_bytes()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    count = FILES * PER_FILE
    names = [f"{number}.jpg" for number in rng.choice(10**9, size=count, replace=False) + 10**9]
    labels = rng.choice(len(LABEL_SHARES), size=count, p=LABEL_SHARES)
    photos = [_photo(rng, int(label)) for label in labels]
    rows = list(zip(names, labels.tolist(), photos, strict=True))
    test_name = f"{int(rng.integers(10**9, 2 * 10**9))}.jpg"
    test_photo = _photo(rng, 0)
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr(
            "train.csv", pd.DataFrame({"image_id": names, "label": labels}).to_csv(index=False)
        )
        bundle.writestr("sample_submission.csv", f"image_id,label\n{test_name},4\n")
        bundle.writestr("label_num_to_disease_map.json", json.dumps(DISEASES))
        for name, _, photo in rows:
            bundle.writestr(f"train_images/{name}", photo)
        bundle.writestr(f"test_images/{test_name}", test_photo)
        order = rng.permutation(count)
        for index in range(FILES):
            part = [rows[i] for i in order[index * PER_FILE : (index + 1) * PER_FILE]]
            name = f"train_tfrecords/ld_train{index:02d}-{len(part)}.tfrec"
            bundle.writestr(name, _tfrecord(part, labelled=True))
        bundle.writestr(
            "test_tfrecords/ld_test00-1.tfrec", _tfrecord([(test_name, 0, test_photo)], False)
        )


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype={"image_id": str})


def _photos(public: Path, part: str) -> dict[str, Path]:
    return {path.name: path for path in (public / f"{part}_images").iterdir()}


def train_files(public: Path) -> dict[str, Path]:
    return _photos(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _photos(public, "test")


def record_features(path: Path) -> set[str]:
    """The feature names of the records of one public TFRecord file."""
    return {key for example in tfrecord_loader(str(path), None) for key in example}
