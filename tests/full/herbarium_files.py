"""Kaggle-shaped herbarium downloads (2020, 2021, 2022): COCO-style metadata and image folders.

The three editions share one structure — ``images[i]`` and ``annotations[i]`` describe the same
specimen, train images sit in one folder per category (``{c // 100:03d}/{c % 100:02d}``), test
images in numbered folders — and differ in file names, id keys and side tables, which a
:class:`Layout` names. Categories get one to nine specimens (2022: four to nine, as its data has
no smaller ones), and an image's tint follows its category under noise that dominates the
encoded size, so only the pixels tell the class.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, tinted_noise

CATEGORIES = 25
TEST_IMAGES = 3


@dataclass(frozen=True)
class Layout:
    train_json: str
    test_json: str
    train_images: str  # prefix of a train record's file_name inside the zip
    test_images: str
    image_key: str  # "id" (2020, 2021) or "image_id" (2022)
    extra_tables: tuple[str, ...]
    note_field: str  # region_id (2020) or institution_id (2021, 2022)
    edition: int = 2020
    smallest: int = 1


def _folder(category: int) -> str:
    return f"{category // 100:03d}/{category % 100:02d}"


def _photo(rng: np.random.Generator, rank: int) -> bytes:
    tint = ((rank * 37) % 150, (rank * 71) % 150, (rank * 13) % 150)
    return encoded(tinted_noise(rng, 10, 10, tint), "JPEG")


def _categories(layout: Layout, ids: list[int]) -> list[dict[str, object]]:
    if layout.edition == 2022:
        return [
            {"category_id": c, "scientificName": f"Species {c}", "family": "Fam", "genus": "Gen",
             "species": f"s{c}", "authors": "L."}
            for c in ids
        ]  # fmt: skip
    return [{"id": c, "name": f"Species {c}", "family": "Fam", "genus": "Gen"} for c in ids]


def make_download(archive: Path, rng: np.random.Generator, layout: Layout) -> None:
    categories = sorted(
        {0, *rng.choice(np.arange(1, 32000), size=CATEGORIES - 1, replace=False).tolist()}
    )
    images, notes, photos = [], [], {}
    order = [int(c) for c in rng.permutation(categories)]
    counts = {c: int(rng.integers(layout.smallest, 10)) for c in order}
    entries = [(c, n) for c in order for n in range(counts[c])]
    for position in rng.permutation(len(entries)):  # Kaggle's files are not sorted by category
        category, number = entries[int(position)]
        rank = categories.index(category)
        if layout.edition == 2022:
            image_id = f"{category:05d}__{number + 1:03d}"
            name = f"{_folder(category)}/{image_id}.jpg"
        else:
            image_id = int(rng.integers(10**5, 10**6))
            name = f"images/{_folder(category)}/{image_id}.jpg"
        images.append(
            {
                layout.image_key: image_id,
                "file_name": name,
                "license": 0,
                "width": 680,
                "height": 1000,
            }
        )
        notes.append({"category_id": category, "image_id": image_id, layout.note_field: 0,
                      **({} if layout.edition == 2022 else {"id": image_id})})  # fmt: skip
        photos[layout.train_images + name] = _photo(rng, rank)
    if layout.edition == 2022:
        for image in images:
            del image["width"], image["height"]
    train = {
        "annotations": notes,
        "images": images,
        "categories": _categories(layout, categories),
        "info": {"year": layout.edition},
        "licenses": [{"id": 0, "name": "CC BY-NC-SA"}],
    }
    for table in layout.extra_tables:
        train[table] = [{"id": 0, "name": f"{table} 0"}]
    test_name = "{:03d}/test-{:06d}.jpg" if layout.edition == 2022 else "images/{:03d}/{}.jpg"
    test_images = [
        {layout.image_key: str(n), "file_name": test_name.format(n // 1000, n), "license": 0}
        for n in range(TEST_IMAGES)
    ]
    test: object = test_images
    if layout.edition != 2022:
        test = {"images": test_images, "info": train["info"], "licenses": train["licenses"]}
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(layout.train_json, json.dumps(train))
        bundle.writestr(layout.test_json, json.dumps(test))
        for image in test_images:
            bundle.writestr(layout.test_images + str(image["file_name"]), _photo(rng, 0))
        rows = "".join(f"{n},0\n" for n in range(TEST_IMAGES))
        bundle.writestr("sample_submission.csv", "Id,Predicted\n" + rows)
        for name, content in photos.items():
            bundle.writestr(name, content)


def train_labels(public: Path, layout: Layout) -> pd.DataFrame:
    notes = json.loads((public / layout.train_json).read_text("utf-8"))["annotations"]
    return pd.DataFrame(
        {"Id": [str(n["image_id"]) for n in notes], "Predicted": [n["category_id"] for n in notes]}
    )


def image_files(public: Path, layout: Layout, part: str) -> dict[str, Path]:
    path = public / (layout.train_json if part == "train" else layout.test_json)
    content = json.loads(path.read_text("utf-8"))
    records = content if isinstance(content, list) else content["images"]
    folder = public / (layout.train_images if part == "train" else layout.test_images)
    return {str(r[layout.image_key]): folder / str(r["file_name"]) for r in records}
