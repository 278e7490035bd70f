"""Kaggle's download of cdiscount-image-classification-challenge: BSON files and two CSVs.

``cdiscount-image-classification-challenge.zip`` holds ``train.bson`` (one document per product:
``_id`` counting from 0 with gaps, ``imgs`` a list of one to four ``{"picture": <JPEG>}``,
``category_id`` such as ``1000010653``), ``train_example.bson`` (its first 100 products),
``test.bson`` (products without ``category_id``), ``category_names.csv`` (``category_id``,
``category_level1``…``3``) and ``sample_submission.csv`` (``_id,category_id``). A product's
photo tint follows its category under noise that dominates the encoded size; products are in
``_id`` order with categories at random, so neither order nor id tells the category.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import bson
import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, tinted_noise

COMPETITION = "cdiscount-image-classification-challenge"
CATEGORIES = (1000010653, 1000004079, 1000018290, 1000005744, 1000012764, 1000004085)
PRODUCTS = 150
TEST_PRODUCTS = 3


def _photo(rng: np.random.Generator, category: int) -> bytes:
    level = CATEGORIES.index(category) * 28 if category in CATEGORIES else 0
    return encoded(tinted_noise(rng, 10, 10, (level, 140 - level, 70)), "JPEG")


def product(rng: np.random.Generator, product_id: int, category: int | None) -> dict[str, object]:
    """One product document, in Kaggle's field order."""
    pictures = [{"picture": _photo(rng, category or 0)} for _ in range(int(rng.integers(1, 5)))]
    document: dict[str, object] = {"_id": product_id, "imgs": pictures}
    if category is not None:
        document["category_id"] = category
    return document


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = np.cumsum(rng.integers(1, 4, size=PRODUCTS)) - 1
    shares = np.array([0.1, 0.3, 0.2, 0.15, 0.15, 0.1])
    categories = rng.choice(CATEGORIES, size=PRODUCTS, p=shares)
    train = [product(rng, int(i), int(c)) for i, c in zip(ids, categories, strict=True)]
    test = [product(rng, n, None) for n in range(TEST_PRODUCTS)]
    names = pd.DataFrame(
        {
            "category_id": CATEGORIES,
            "category_level1": "ABONNEMENT / SERVICES",
            "category_level2": "CARTE PREPAYEE",
            "category_level3": [f"CARTE {n}" for n in range(len(CATEGORIES))],
        }
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.bson", b"".join(bson.encode(d) for d in train))
        bundle.writestr("train_example.bson", b"".join(bson.encode(d) for d in train[:100]))
        bundle.writestr("test.bson", b"".join(bson.encode(d) for d in test))
        bundle.writestr("category_names.csv", names.to_csv(index=False))
        rows = "".join(f"{n},1000010653\n" for n in range(TEST_PRODUCTS))
        bundle.writestr("sample_submission.csv", "_id,category_id\n" + rows)


def read_products(path: Path) -> list[dict[str, object]]:
    with path.open("rb") as handle:
        return list(bson.decode_file_iter(handle))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = read_products(public / "train.bson")
    return pd.DataFrame(
        {"_id": [str(p["_id"]) for p in train], "category_id": [p["category_id"] for p in train]}
    )
