"""Prepare ``herbarium-2021-fgvc8`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled specimens of
``train/metadata.json`` are split again, 20 % of every category, as MLE-bench does
(:mod:`pytest_mlebench.kaggle.category_split`: the same seeds, small-category rules and shuffle,
so the same images are held out under the same new ids). Train images keep Kaggle's records and
paths (``images/<category folder>/<id>.jpg``); test images are renumbered ``0, 1, …`` in the
shuffled order and placed at ``images/{i // 1000:03d}/{i}.jpg``, so neither id nor path tells the
category. Files are placed, not copied, where the file system allows. The sample submission is the
original's: category 0 everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.kaggle.category_split import pair_records, split_per_category
from pytest_mlebench.kaggle.coco_metadata import read_metadata, write_metadata
from pytest_mlebench.placing import place_file

TEST_KEYS = ("info", "licenses")  # the public test file keeps these beside its images
SAMPLE_CATEGORY = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split per category; write both metadata files, place the images, write the answers."""
    source = raw_file(raw / "train" / "metadata.json")
    metadata = read_metadata(source)
    require(isinstance(metadata, dict), f"{source} must be a JSON object")
    split = split_per_category(pair_records(metadata, "id", source.name), small_categories=True)
    train = [pair for pairs in split.train.values() for pair in pairs]
    for pair in train:
        name = pair.image["file_name"]
        place_file(raw / "train" / name, public / "train" / name)
    test_images = []
    for index, pair in enumerate(split.test):
        name = f"images/{index // 1000:03d}/{index}.jpg"
        place_file(raw / "train" / pair.image["file_name"], public / "test" / name)
        test_images.append({**pair.image, "id": str(index), "file_name": name})
    train_part = {
        **metadata,
        "annotations": [pair.annotation for pair in train],
        "images": [pair.image for pair in train],
    }
    test_part = {key: metadata[key] for key in TEST_KEYS if key in metadata}
    write_metadata(public / "train" / "metadata.json", train_part)
    write_metadata(public / "test" / "metadata.json", {**test_part, "images": test_images})
    ids = [image["id"] for image in test_images]
    answers = pd.DataFrame({"Id": ids, "Predicted": [pair.category for pair in split.test]})
    sample = answers.assign(Predicted=SAMPLE_CATEGORY)
    require(bool(ids), "no category has two or more images: nothing to hold out")
    check_answers(answers, answers, sample, "Id")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
