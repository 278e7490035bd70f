"""Prepare ``cassava-leaf-disease-classification`` from Kaggle's files.

Kaggle's test photos were never labelled in public, so the labelled ``train.csv`` (21,397
photos) is split again, by TFRecord file as MLE-bench does: the sorted ``train_tfrecords/*.tfrec``
paths go through scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``, and a photo
is a test photo when its ``image_name`` is in a held-out file. The ids are read with the
``tfrecord`` package (a maintained reader of the TFRecord framing and ``Example`` protobufs that
needs no TensorFlow). Train files are placed under their new names ``ld_train{i:02d}-{n}.tfrec``;
held-out files are written again as ``ld_test{i:02d}-{n}.tfrec`` with every feature except
``target``, which would give the answers away. Photos are placed (hard links where possible).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from tfrecord.reader import tfrecord_loader
from tfrecord.writer import TFRecordWriter

from pytest_mlebench.embedded import check_answers, raw_file, raw_folder, require, write_csv
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_file

ID = "image_id"
TARGET = "label"
NAME_FEATURE = "image_name"
LABEL_FEATURE = "target"
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_LABEL = 4
LABEL_MAP = "label_num_to_disease_map.json"
# How each decoded number feature is written back (the reader's kinds).
KINDS = {np.dtype(np.float32): "float", np.dtype(np.int64): "int"}


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split by TFRecord file; place photos and records; answers are the held-out labels."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype={ID: str})
    require(list(source.columns) == [ID, TARGET], f"train.csv columns {list(source.columns)}")
    records = sorted(raw_folder(raw / "train_tfrecords").glob("*.tfrec"))
    require(len(records) >= 2, "train_tfrecords/ must hold at least two .tfrec files")
    train_files, test_files = train_test_split(records, test_size=TEST_FRACTION, random_state=SEED)
    held_out = {name for path in test_files for name in _names(path)}
    is_test = source[ID].isin(held_out)
    require(bool(is_test.any()), "no photo of the held-out TFRecord files is in train.csv")
    train, test = source[~is_test], source[is_test]
    for part, files in (("train", train_files), ("test", test_files)):
        for index, path in enumerate(files):
            target = public / f"{part}_tfrecords" / f"ld_{part}{index:02d}-{_count(path)}.tfrec"
            if part == "train":
                place_file(path, target)
            else:
                _write_without_labels(path, target)
    photos = raw_folder(raw / "train_images")
    for part, rows in (("train", train), ("test", test)):
        for name in rows[ID]:
            place_file(photos / name, public / f"{part}_images" / name)
    shutil.copyfile(raw_file(raw / LABEL_MAP), public / LABEL_MAP)
    answers = test.reset_index(drop=True)
    sample = answers.assign(**{TARGET: SAMPLE_LABEL})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train.reset_index(drop=True), public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _examples(path: Path) -> Iterator[dict[str, bytes | np.ndarray]]:
    """Each record of one TFRecord file, decoded; a damaged file is a clear error."""
    try:
        yield from tfrecord_loader(str(path), None)
    except (RuntimeError, KeyError, ValueError) as exc:
        raise PrepareError(
            f"{path} is not a readable TFRecord file ({exc}); download it again"
        ) from None


def _feature(value: bytes | np.ndarray) -> tuple[bytes | list[float] | list[int], str]:
    """A decoded feature as the writer takes it: bytes stay bytes, numbers keep their kind."""
    if isinstance(value, bytes) or value.dtype == np.uint8:
        return bytes(value), "byte"
    return value.tolist(), KINDS[value.dtype]


def _names(path: Path) -> list[str]:
    names = [bytes(example[NAME_FEATURE]).decode("utf-8") for example in _examples(path)]
    require(bool(names), f"{path} holds no records")
    return names


def _count(path: Path) -> str:
    """The record count in Kaggle's file name (``ld_train03-1338.tfrec``)."""
    stem = path.stem
    require("-" in stem, f"{path.name}: expected a name like ld_train00-1338.tfrec")
    return stem.rsplit("-", 1)[1]


def _write_without_labels(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    writer = TFRecordWriter(str(target))
    try:
        for example in _examples(source):
            kept = {k: _feature(v) for k, v in sorted(example.items()) if k != LABEL_FEATURE}
            writer.write(kept)
    finally:
        writer.close()
