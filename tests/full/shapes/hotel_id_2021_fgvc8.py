"""Kaggle's download of hotel-id-2021-fgvc8: two CSVs and folders of JPEGs.

``hotel-id-2021-fgvc8.zip`` holds ``train.csv`` (``image,chain,hotel_id,timestamp``: 16-hex-digit
``.jpg`` names, chain codes, hotel ids up to five digits, ``YYYY-MM-DD HH:MM:SS`` times),
``train_images/<chain>/<image>``, ``test_images/<image>`` (Kaggle's own few test photos) and
``sample_submission.csv`` (``image,hotel_id``). As on Kaggle, ``ce27d36c9147cc19.jpg`` is
listed twice (under two hotels). The 4 x 4 JPEGs are noise tinted by hotel, so the pictures
predict the hotel; ids and file sizes do not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "hotel-id-2021-fgvc8"
EMPTY_CELL_IS_TEXT = True  # an empty ranking is a valid prediction of nothing
HOTELS = 30
PHOTOS = 200


def _photo(rng: np.random.Generator, hotel: int) -> bytes:
    return encoded(tinted_noise(rng, 4, 4, (hotel * 8, 255 - hotel * 8, 128)), "JPEG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    hotels = np.sort(rng.choice(np.arange(1, 99_999), HOTELS, replace=False))
    chains = {int(h): int(rng.integers(0, 90)) for h in hotels}
    rows = []
    for _ in range(PHOTOS):
        hotel = int(rng.choice(hotels))
        month, day, minute = (int(n) for n in rng.integers([1, 10, 10], [10, 29, 60]))
        stamp = f"2018-0{month}-{day} 10:{minute}:00"
        rows.append((f"{random_hex(rng, 16)}.jpg", chains[hotel], hotel, stamp))
    twice = [
        ("ce27d36c9147cc19.jpg", chains[int(h)], int(h), "2019-05-01 12:00:00") for h in hotels[:2]
    ]
    train = pd.DataFrame(
        rows[:50] + twice + rows[50:], columns=["image", "chain", "hotel_id", "timestamp"]
    )
    kaggle_test = [f"{random_hex(rng, 16)}.jpg" for _ in range(3)]
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        for image, chain, hotel in zip(
            train["image"], train["chain"], train["hotel_id"], strict=True
        ):
            name = f"train_images/{chain}/{image}"
            if name not in bundle.namelist():
                bundle.writestr(name, _photo(rng, list(hotels).index(hotel)))
        for image in kaggle_test:
            bundle.writestr(f"test_images/{image}", _photo(rng, 0))
        sample = pd.DataFrame({"image": kaggle_test, "hotel_id": "36363 53586 18807 64314 60181"})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str)[["image", "hotel_id"]]


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "train_images").rglob("*.jpg")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "test_images").iterdir()}
