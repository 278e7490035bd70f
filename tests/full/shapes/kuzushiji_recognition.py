"""Kaggle's download of kuzushiji-recognition: one zip holding two image zips and three CSVs.

``kuzushiji-recognition.zip`` holds ``train.csv`` (``image_id,labels``; labels as
``U+XXXX X Y Width Height`` groups, empty for a page without characters),
``sample_submission.csv`` (``image_id,labels`` for Kaggle's test pages, ``U+003F 1 1 U+FF2F 2
2``), ``unicode_translation.csv`` (``Unicode,char``) and ``train_images.zip`` /
``test_images.zip``, each a flat zip of ``<image_id>.jpg``. Page ids look like Kaggle's
(``100241706_00004_2``, ``umgy001-010``). The JPEGs are stand-in bytes of one fixed length
(start and end markers around a body): the prepare only places them.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.harness import PreparedLite

COMPETITION = "kuzushiji-recognition"
EMPTY_CELL_IS_TEXT = True  # an empty labels cell is "no characters", a valid answer
CODES = ("U+306F", "U+304C", "U+3044", "U+306B", "U+3057", "U+304B")
TRAIN_PAGES, TEST_PAGES = 40, 3
BODY = 64


def _jpeg(rng: np.random.Generator) -> bytes:
    return b"\xff\xd8\xff\xe0" + rng.integers(0, 256, BODY).astype(np.uint8).tobytes() + b"\xff\xd9"


def _page_id(rng: np.random.Generator, position: int) -> str:
    if position % 3 == 0:
        return f"umgy{int(rng.integers(1, 20)):03d}-{position:03d}"
    return f"{int(rng.integers(100000000, 300000000))}_{position:05d}_{int(rng.integers(1, 3))}"


def _labels(rng: np.random.Generator) -> str:
    if rng.random() < 0.1:
        return ""
    groups = []
    for _ in range(int(rng.integers(2, 7))):
        x, y = (int(value) for value in rng.integers(0, 2000, 2))
        width, height = (int(value) for value in rng.integers(30, 150, 2))
        groups.append(f"{rng.choice(CODES)} {x} {y} {width} {height}")
    return " ".join(groups)


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in files.items():
            bundle.writestr(zipfile.ZipInfo(name, date_time=(2019, 7, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = [_page_id(rng, position) for position in range(TRAIN_PAGES + TEST_PAGES)]
    train_ids, test_ids = ids[:TRAIN_PAGES], ids[TRAIN_PAGES:]
    train = pd.DataFrame({"image_id": train_ids, "labels": [_labels(rng) for _ in train_ids]})
    sample = pd.DataFrame({"image_id": test_ids, "labels": "U+003F 1 1 U+FF2F 2 2"})
    translation = pd.DataFrame({"Unicode": CODES, "char": ["は", "が", "い", "に", "し", "か"]})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        bundle.writestr("unicode_translation.csv", translation.to_csv(index=False))
        bundle.writestr("train_images.zip", _zip({f"{i}.jpg": _jpeg(rng) for i in train_ids}))
        bundle.writestr("test_images.zip", _zip({f"{i}.jpg": _jpeg(rng) for i in test_ids}))


def _centres(cell: object) -> str:
    tokens = cell.split() if isinstance(cell, str) else []
    return " ".join(
        f"{tokens[i]} {int(tokens[i + 1]) + int(tokens[i + 3]) // 2} "
        f"{int(tokens[i + 2]) + int(tokens[i + 4]) // 2}"
        for i in range(0, len(tokens), 5)
    )


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)


def perfect_submission(prepared: PreparedLite) -> pd.DataFrame:
    """Each true box's centre with its character."""
    answers = prepared.read_answers()
    return pd.DataFrame(
        {"image_id": answers["image_id"], "labels": answers["labels"].map(_centres)}
    )


def leak_probe(prepared: PreparedLite) -> pd.DataFrame:
    """Metadata only: each test page gets the characters of the train page whose id sorts next."""
    train = public_train_labels(prepared.public).sort_values("image_id")
    test_ids = prepared.read_sample()["image_id"].tolist()
    ordered = train["image_id"].tolist()
    picks = [min(np.searchsorted(ordered, page), len(ordered) - 1) for page in test_ids]
    labels = [_centres(train["labels"].iloc[int(pick)]) for pick in picks]
    return pd.DataFrame({"image_id": test_ids, "labels": labels})
