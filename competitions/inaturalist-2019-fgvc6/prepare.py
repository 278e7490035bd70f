"""Prepare ``inaturalist-2019-fgvc6`` from Kaggle's files.

Kaggle's test labels were never published, so the 265,213 labelled images of
``train2019.json`` are split again as MLE-bench does, per category (in order of first
appearance among the annotations): a category with one image stays in train; one with two to
four gives its last ``max(1, int(0.12·n))`` images to test; a larger one goes through
scikit-learn's ``train_test_split(test_size=0.12, random_state=0)``. The test images, in
category order, are shuffled by ``random.Random(0)``, so the same images in the same order are
held out and scores compare with published MLE-bench results.

Public: ``train2019.json`` (the train images and annotations, every category; written with
``indent=4, sort_keys=True`` as MLE-bench), ``val2019.json`` unchanged, ``test2019.json``
(``images``, renamed ``test2019/<hash>.jpg``, with ``info`` and ``licenses``; no annotations,
no categories) and two tar archives re-packed with the standard library's ``tarfile`` in one
streaming pass over Kaggle's ``train_val2019.tar.gz`` (never unpacked to disk, members never
decoded): ``train_val2019.tar`` (the train and validation images under their ``file_name``)
and ``test2019.tar`` (the test images as ``test2019/<hash>.jpg``). Both are plain (not
gzipped) tars: JPEGs do not compress, and the name says what the file is. The sample
submission predicts one category for all, as MLE-bench's (``Random(42).randint(0, 1009)``).
"""

from __future__ import annotations

import json
import random
import tarfile
from pathlib import Path
from typing import Any

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.errors import PrepareError

ID, TARGET = "id", "predicted"
TEST_SIZE = 0.12
SEED = 0
SAMPLE_SEED = 42
TRAIN_TAR, TEST_TAR = "train_val2019.tar", "test2019.tar"

Pair = tuple[dict[str, Any], dict[str, Any]]
"""An annotation and its image record."""


def split_by_category(pairs: list[Pair]) -> tuple[list[Pair], list[Pair]]:
    """MLE-bench's per-category split: train pairs and the shuffled test pairs."""
    categories: dict[int, list[Pair]] = {}
    for annotation, image in pairs:
        categories.setdefault(annotation["category_id"], []).append((annotation, image))
    train: list[Pair] = []
    test: list[Pair] = []
    for members in categories.values():
        if len(members) == 1:
            train += members
        elif len(members) < 5:
            count = max(1, int(len(members) * TEST_SIZE))
            train += members[:-count]
            test += members[-count:]
        else:
            kept, held = train_test_split(members, test_size=TEST_SIZE, random_state=SEED)
            train += kept
            test += held
    random.Random(SEED).shuffle(test)
    return train, test


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train2019.json`` per category; write the JSON files; re-pack the images."""
    metadata = json.loads(raw_file(raw / "train2019.json").read_text("utf-8"))
    annotations, images = metadata.get("annotations", []), metadata.get("images", [])
    require(len(annotations) == len(images), "train2019.json: annotations and images differ")
    pairs = list(zip(annotations, images, strict=True))
    for annotation, image in pairs:
        require(annotation["image_id"] == image["id"], f"train2019.json: image {image['id']}")
    train, test = split_by_category(pairs)
    require(bool(train and test), "train2019.json has too few images to split")
    renamed = {
        pair[1]["file_name"]: "test2019/" + pair[1]["file_name"].split("/")[-1] for pair in test
    }
    _write_json(
        public / "train2019.json",
        {**metadata, "annotations": [a for a, _ in train], "images": [i for _, i in train]},
    )
    public_test = {
        key: value
        for key, value in metadata.items()
        if key not in ("annotations", "categories", "images")
    }
    public_test["images"] = [
        {**image, "file_name": renamed[image["file_name"]]} for _, image in test
    ]
    _write_json(public / "test2019.json", public_test)
    val = raw_file(raw / "val2019.json")
    (public / "val2019.json").write_bytes(val.read_bytes())
    answers = pd.DataFrame(
        {ID: [image["id"] for _, image in test], TARGET: [a["category_id"] for a, _ in test]}
    )
    sample = answers.assign(**{TARGET: random.Random(SAMPLE_SEED).randint(0, 1009)})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    val_names = {
        image["file_name"] for image in json.loads(val.read_text("utf-8")).get("images", [])
    }
    kept = {image["file_name"] for _, image in train} | val_names
    _repack(raw_file(raw / "train_val2019.tar.gz"), public, kept, renamed)


def _write_json(path: Path, document: dict[str, Any]) -> None:
    path.write_text(json.dumps(document, indent=4, sort_keys=True), encoding="utf-8")


def _repack(source: Path, public: Path, kept: set[str], renamed: dict[str, str]) -> None:
    """One streaming pass over ``source``: each image goes to the train or the test tar."""
    placed = 0
    try:
        with (
            tarfile.open(source, "r|gz") as archive,
            tarfile.open(public / TRAIN_TAR, "w", format=tarfile.PAX_FORMAT) as train,
            tarfile.open(public / TEST_TAR, "w", format=tarfile.PAX_FORMAT) as test,
        ):
            for member in archive:
                if not member.isfile():
                    continue
                if member.name in renamed:
                    target, member.name = test, renamed[member.name]
                elif member.name in kept:
                    target = train
                else:
                    continue
                target.addfile(member, archive.extractfile(member))
                placed += 1
    except (tarfile.TarError, EOFError, OSError) as error:
        raise PrepareError(f"{source}: {error}; download it again") from None
    missing = len(kept) + len(renamed) - placed
    require(missing == 0, f"{source}: {missing} images named in the JSON files are not in it")
