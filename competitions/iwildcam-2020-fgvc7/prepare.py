"""Prepare ``iwildcam-2020-fgvc7`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled camera-trap images of
``iwildcam2020_train_annotations.json`` are split again, by camera location as MLE-bench does:
the locations in order of first appearance go through scikit-learn's
``train_test_split(test_size=0.22, random_state=0)``; then, as the original, whole locations move
from the end of the train list to test while ``test / (all + test) < 0.22``, and back from the
end of the test list while it is above. The ratio's denominator counts the test images twice
(the original's formula, kept so that the same locations are held out). Images keep Kaggle's ids
and are placed under ``train/`` or ``test/``. The sample submission is the original's:
``numpy.random.seed(0)``, then a category drawn uniformly from 0 to 675 per image.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, raw_folder, require, write_csv
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_file

ID = "Id"
TARGET = "Category"
TRAIN_JSON = "iwildcam2020_train_annotations.json"
TEST_JSON = "iwildcam2020_test_information.json"
DETECTIONS = "iwildcam2020_megadetector_results.json"
TEST_SIZE = 0.22
SEED = 0
SAMPLE_SEED = 0
SAMPLE_CATEGORIES = 676


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split images by location; write the two JSON files, images and answers."""
    train_json = _read_json(raw_file(raw / TRAIN_JSON), {"annotations", "images", "categories"})
    test_json = _read_json(raw_file(raw / TEST_JSON), {"categories"})
    images = train_json["images"]
    test_locations = _test_locations([image["location"] for image in images])
    is_test = [image["location"] in test_locations for image in images]
    train_images = [image for image, test in zip(images, is_test, strict=True) if not test]
    test_images = [image for image, test in zip(images, is_test, strict=True) if test]
    require(bool(train_images) and bool(test_images), "the split left train or test empty")
    test_ids = {image["id"] for image in test_images}
    train_notes = [a for a in train_json["annotations"] if a["image_id"] not in test_ids]
    test_notes = [a for a in train_json["annotations"] if a["image_id"] in test_ids]
    answers = pd.DataFrame(
        {ID: [a["image_id"] for a in test_notes], TARGET: [a["category_id"] for a in test_notes]}
    ).drop_duplicates(ID)  # one label per image (Kaggle's file has one annotation each)
    answers = answers.reset_index(drop=True)  # in annotation order, as the original's
    order = pd.DataFrame({ID: [image["id"] for image in test_images]})
    require(set(order[ID]) == set(answers[ID]), "a test image has no annotation")
    rng = np.random.RandomState(SAMPLE_SEED)
    sample = answers.assign(**{TARGET: rng.randint(0, SAMPLE_CATEGORIES, size=len(answers))})
    check_answers(order, answers, sample, ID)
    _write_json(public / TRAIN_JSON, _train_part(train_json, train_images, train_notes))
    _write_json(public / TEST_JSON, {**test_json, "images": test_images})
    place_file(raw_file(raw / DETECTIONS), public / DETECTIONS)
    photos = raw_folder(raw / "train")
    for part, rows in (("train", train_images), ("test", test_images)):
        for image in rows:
            name = f"{image['id']}.jpg"
            place_file(photos / name, public / part / name)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _test_locations(locations: list[Any]) -> set[Any]:
    """The held-out locations, by the original's split and its two balancing loops."""
    unique = list(pd.unique(pd.Series(locations)))
    require(len(unique) >= 2, f"{TRAIN_JSON} has fewer than two camera locations")
    train, test = (
        list(part) for part in train_test_split(unique, test_size=TEST_SIZE, random_state=SEED)
    )
    per_location = Counter(locations)
    total = len(locations)

    def share() -> float:
        held = sum(per_location[location] for location in test)
        return held / (total + held)

    while share() < TEST_SIZE and len(train) > 1:
        test.append(train.pop())
    while share() > TEST_SIZE and len(test) > 1:
        train.append(test.pop())
    return set(test)


def _train_part(
    source: dict[str, Any], images: list[dict[str, Any]], notes: list[dict[str, Any]]
) -> dict[str, Any]:
    """The public train JSON; each category's ``count`` is recounted over the train images.

    Kaggle's counts cover every labelled image, so kept as they are they would tell, by
    subtraction, how many test images each category has.
    """
    counts = Counter(note["category_id"] for note in notes)
    categories = [
        {**category, "count": counts.get(category["id"], 0)} if "count" in category else category
        for category in source["categories"]
    ]
    return {**source, "annotations": notes, "images": images, "categories": categories}


def _read_json(path: Path, keys: set[str]) -> dict[str, Any]:
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PrepareError(f"{path} is not JSON ({exc}); download it again") from None
    require(isinstance(content, dict) and keys <= set(content), f"{path.name} needs {sorted(keys)}")
    return content


def _write_json(path: Path, content: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content), encoding="utf-8")
