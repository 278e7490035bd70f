"""Kaggle's download of iwildcam-2019-fgvc6: CSVs and two zips of JPEGs inside one zip.

``iwildcam-2019-fgvc6.zip`` holds ``train.csv`` (``category_id``, ``date_captured``,
``file_name``, ``frame_num``, ``id`` such as ``5998cfa4-23d2-11e8-a6a3-ec086b02610b``,
``location``, ``rights_holder``, ``seq_id``, ``seq_num_frames``, ``width``, ``height``),
``test.csv`` (the same without ``category_id``), ``sample_submission.csv`` (``Id,Predicted``),
and ``train_images.zip`` / ``test_images.zip`` with the images at their top level. Fourteen of
the 23 categories occur, ``0`` (empty) the most, as on Kaggle; an image's tint follows its
category under noise that dominates the encoded size.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise, zip_bytes

COMPETITION = "iwildcam-2019-fgvc6"
CATEGORIES = (0, 1, 3, 4, 5, 8, 10, 11, 13, 14, 16, 17, 18, 19)
LOCATIONS = 16
GROUP_COLUMN = "location"


def _id(rng: np.random.Generator) -> str:
    return f"{random_hex(rng, 8)}-23d2-11e8-a6a3-ec086b02610b"


def _photo(rng: np.random.Generator, category: int) -> bytes:
    level = CATEGORIES.index(category) * 12
    return encoded(tinted_noise(rng, 12, 12, (level, 150 - level, (level * 7) % 150)), "JPEG")


def _rows(rng: np.random.Generator, count: int, location: int) -> pd.DataFrame:
    ids = [_id(rng) for _ in range(count)]
    return pd.DataFrame(
        {
            "date_captured": [f"2012-03-{10 + i % 18} 1{i % 10}:05:22" for i in range(count)],
            "file_name": [f"{i}.jpg" for i in ids],
            "frame_num": [1 + i % 3 for i in range(count)],
            "id": ids,
            "location": location,
            "rights_holder": "Justin Brown",
            "seq_id": [random_hex(rng, 8) for _ in range(count)],
            "seq_num_frames": 3,
            "width": 1024,
            "height": 747,
        }
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    locations = rng.choice(140, size=LOCATIONS, replace=False)
    train = pd.concat([_rows(rng, int(rng.integers(6, 14)), int(loc)) for loc in locations])
    shares = np.array([4.0] + [1.0] * (len(CATEGORIES) - 1))
    train.insert(0, "category_id", rng.choice(CATEGORIES, size=len(train), p=shares / shares.sum()))
    test = _rows(rng, 3, 999)
    train_photos = {
        f"{i}.jpg": _photo(rng, int(c))
        for i, c in zip(train["id"], train["category_id"], strict=True)
    }
    test_photos = {f"{i}.jpg": _photo(rng, 0) for i in test["id"]}
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr(
            "sample_submission.csv",
            pd.DataFrame({"Id": test["id"], "Predicted": 0}).to_csv(index=False),
        )
        bundle.writestr("train_images.zip", zip_bytes(train_photos))
        bundle.writestr("test_images.zip", zip_bytes(test_photos))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype={"id": str})
    return pd.DataFrame({"Id": train["id"], "Category": train["category_id"]})


def _photos(public: Path, part: str) -> dict[str, Path]:
    return {path.stem: path for path in (public / f"{part}_images").iterdir()}


def train_files(public: Path) -> dict[str, Path]:
    return _photos(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _photos(public, "test")
