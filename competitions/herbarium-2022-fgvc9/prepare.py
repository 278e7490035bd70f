"""Prepare ``herbarium-2022-fgvc9`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled specimens of ``train_metadata.json``
are split again, 20 % of every category, as MLE-bench does
(:mod:`pytest_mlebench.kaggle.category_split`, the 2022 rule: every category split by
``train_test_split``). As the original, train images are renumbered within their category
(``{category:05d}__{n:03d}``, ``n`` from 1 in split order) and placed at
``train_images/{category folder}/{id}.jpg``; test images are renumbered ``0, 1, …`` in the
shuffled order and placed at ``test_images/{i // 1000:03d}/test-{i:06d}.jpg``. The public
``test_metadata.json`` is the list of test image records only. Files are placed, not copied,
where the file system allows. The sample submission is the original's: category 42 everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.kaggle.category_split import (
    category_folder,
    pair_records,
    split_per_category,
)
from pytest_mlebench.kaggle.coco_metadata import read_metadata, write_metadata
from pytest_mlebench.placing import place_file

IMAGE_KEY = "image_id"
SAMPLE_CATEGORY = 42


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split per category; renumber and place the images; write metadata and answers."""
    source = raw_file(raw / "train_metadata.json")
    metadata = read_metadata(source)
    require(isinstance(metadata, dict), f"{source} must be a JSON object")
    split = split_per_category(
        pair_records(metadata, IMAGE_KEY, source.name), small_categories=False
    )
    images, notes = [], []
    for category, pairs in split.train.items():
        for number, pair in enumerate(pairs, start=1):
            image_id = f"{category:05d}__{number:03d}"
            name = f"{category_folder(category)}/{image_id}.jpg"
            place_file(
                raw / "train_images" / pair.image["file_name"], public / "train_images" / name
            )
            images.append({**pair.image, IMAGE_KEY: image_id, "file_name": name})
            notes.append({**pair.annotation, IMAGE_KEY: image_id})
    test_images = []
    for index, pair in enumerate(split.test):
        name = f"{index // 1000:03d}/test-{index:06d}.jpg"
        place_file(raw / "train_images" / pair.image["file_name"], public / "test_images" / name)
        test_images.append({**pair.image, IMAGE_KEY: str(index), "file_name": name})
    write_metadata(
        public / "train_metadata.json", {**metadata, "annotations": notes, "images": images}
    )
    write_metadata(public / "test_metadata.json", test_images)
    ids = [image[IMAGE_KEY] for image in test_images]
    answers = pd.DataFrame({"Id": ids, "Predicted": [pair.category for pair in split.test]})
    sample = answers.assign(Predicted=SAMPLE_CATEGORY)
    check_answers(answers, answers, sample, "Id")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
