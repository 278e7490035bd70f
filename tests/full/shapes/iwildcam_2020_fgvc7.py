"""Kaggle's download of iwildcam-2020-fgvc7: COCO-style JSON files and one JPEG per image.

``iwildcam-2020-fgvc7.zip`` holds ``iwildcam2020_train_annotations.json`` (``images`` with
``id`` such as ``8b31d3be-21bc-11ea-a13a-137349068a90``, ``location``, ``datetime``,
``seq_id``…; ``annotations`` with ``image_id``, ``category_id``, ``count``; ``categories`` with
``id``, ``name``, ``count``; ``info``), ``iwildcam2020_test_information.json`` (``images``,
``categories``, ``info``), ``iwildcam2020_megadetector_results.json``,
``sample_submission.csv`` (``Id,Category``), ``train/<id>.jpg`` and ``test/<id>.jpg``. An
image's tint follows its category under noise that dominates the encoded size.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "iwildcam-2020-fgvc7"
CATEGORIES = {0: "empty", 3: "tayassu pecari", 72: "dasyprocta punctata", 101: "mazama americana"}
LOCATIONS = 14
TEST_IMAGES = 3


def image_id(rng: np.random.Generator) -> str:
    return f"{random_hex(rng, 8)}-21bc-11ea-a13a-{random_hex(rng, 12)}"


def photo(rng: np.random.Generator, category: int) -> bytes:
    level = list(CATEGORIES).index(category) * 45
    return encoded(tinted_noise(rng, 12, 12, (level, 90 - level // 3, level // 2)), "JPEG")


def _image(rng: np.random.Generator, location: int, number: int) -> dict[str, object]:
    return {
        "id": image_id(rng),
        "file_name": "",
        "location": location,
        "datetime": f"2013-0{1 + number % 9}-1{number % 10} 0{number % 10}:12:00.000",
        "seq_id": random_hex(rng, 8),
        "frame_num": 1 + number % 3,
        "seq_num_frames": 3,
        "width": 2048,
        "height": 1536,
    }


def make_download(folder: Path, rng: np.random.Generator) -> None:
    images, notes, photos = [], [], {}
    locations = rng.choice(500, size=LOCATIONS, replace=False).tolist()
    for location in locations:
        for number in range(int(rng.integers(8, 16))):
            image = _image(rng, location, number)
            image["file_name"] = f"{image['id']}.jpg"
            category = int(rng.choice(list(CATEGORIES)))
            images.append(image)
            notes.append(
                {
                    "id": random_hex(rng, 16),
                    "image_id": image["id"],
                    "category_id": category,
                    "count": 1,
                }
            )
            photos[f"train/{image['id']}.jpg"] = photo(rng, category)
    counts = pd.Series([n["category_id"] for n in notes]).value_counts()
    categories = [
        {"id": c, "name": n, "count": int(counts.get(c, 0))} for c, n in CATEGORIES.items()
    ]
    info = {"version": "2020", "description": "iWildCam 2020 (synthetic)"}
    test_images = [_image(rng, 900 + n, n) for n in range(TEST_IMAGES)]
    for image in test_images:
        image["file_name"] = f"{image['id']}.jpg"
        photos[f"test/{image['id']}.jpg"] = photo(rng, 0)
    detections = {
        "info": {"detector": "megadetector_v3"},
        "detection_categories": {"1": "animal", "2": "person"},
        "images": [{"id": i["id"], "detections": [], "max_detection_conf": 0.0} for i in images],
    }
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        train = {"annotations": notes, "images": images, "categories": categories, "info": info}
        bundle.writestr("iwildcam2020_train_annotations.json", json.dumps(train))
        test = {"images": test_images, "categories": categories, "info": info}
        bundle.writestr("iwildcam2020_test_information.json", json.dumps(test))
        bundle.writestr("iwildcam2020_megadetector_results.json", json.dumps(detections))
        rows = "".join(f"{image['id']},0\n" for image in test_images)
        bundle.writestr("sample_submission.csv", "Id,Category\n" + rows)
        for name, content in photos.items():
            bundle.writestr(name, content)


def _json(public: Path, name: str) -> dict[str, list[dict[str, object]]]:
    return json.loads((public / name).read_text("utf-8"))


def public_train_labels(public: Path) -> pd.DataFrame:
    notes = _json(public, "iwildcam2020_train_annotations.json")["annotations"]
    return pd.DataFrame(
        {"Id": [n["image_id"] for n in notes], "Category": [n["category_id"] for n in notes]}
    )


def group_values(public: Path) -> tuple[list[object], list[object]]:
    """Train and test camera locations."""
    train = _json(public, "iwildcam2020_train_annotations.json")["images"]
    test = _json(public, "iwildcam2020_test_information.json")["images"]
    return [i["location"] for i in train], [i["location"] for i in test]


def _photos(public: Path, part: str) -> dict[str, Path]:
    return {path.stem: path for path in (public / part).iterdir()}


def train_files(public: Path) -> dict[str, Path]:
    return _photos(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _photos(public, "test")
