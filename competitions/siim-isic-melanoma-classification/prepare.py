"""Prepare ``siim-isic-melanoma-classification`` from Kaggle's files.

Kaggle's test labels were never published, so only its training part is used: ``train.csv``,
the training DICOMs (``train/``), JPEGs (``jpeg/train/``) and the 16 training TFRecord files
(``tfrecords/train<NN>-<count>.tfrec``); Kaggle's test files are left alone. As in MLE-bench,
the images of two whole TFRecord files, ``train00`` and ``train06`` (4,142 of 33,126 images),
become the new test set, so scores compare with published MLE-bench results. Their image names
are read from the records themselves (a TFRecord is a sequence of length-prefixed
``tf.train.Example`` protocol buffers, parsed here one record at a time without TensorFlow).

The training TFRecords hold each image's ``target``. The two test files therefore stay out of
``public/`` (MLE-bench publishes them as ``test00``/``test01``, answers included); the other 14
are placed as ``train00`` … ``train13`` with their counts. Images keep their random ``ISIC_``
names and are placed by hard link where possible.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import raw_file, require, write_prepared
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_file

ID_COLUMN = "image_name"
TARGET = "target"
FEATURE_COLUMNS = ("patient_id", "sex", "age_approx", "anatom_site_general_challenge")
TRAIN_COLUMNS = (ID_COLUMN, *FEATURE_COLUMNS, "diagnosis", "benign_malignant", TARGET)
TEST_RECORDS = ("train00", "train06")
SAMPLE_TARGET = 0
LENGTH_BYTES, CRC_BYTES = 8, 4
BYTES_FIELD = 2  # protocol-buffer wire type of strings, bytes and nested messages


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out the images of two training TFRecord files as the test set."""
    source = _read_train(raw / "train.csv")
    records = sorted((raw / "tfrecords").glob("train*.tfrec"))
    held_out = [path for path in records if path.stem.split("-")[0] in TEST_RECORDS]
    require(len(held_out) == len(TEST_RECORDS), f"tfrecords/ lacks {', '.join(TEST_RECORDS)}")
    test_names = {name for path in held_out for name in record_image_names(path)}
    unknown = test_names - set(source[ID_COLUMN])
    require(not unknown, f"TFRecord images missing from train.csv, e.g. {sorted(unknown)[:3]}")
    is_test = source[ID_COLUMN].isin(test_names)
    train, test = source[~is_test], source[is_test]
    _place_images(raw, public, train, "train")
    _place_images(raw, public, test, "test")
    kept = [path for path in records if path not in held_out]
    for index, path in enumerate(kept):
        count = path.stem.split("-")[-1]
        place_file(path, public / "tfrecords" / f"train{index:02d}-{count}.tfrec")
    answers = test[[ID_COLUMN, TARGET]].reset_index(drop=True)
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test[[ID_COLUMN, *FEATURE_COLUMNS]].reset_index(drop=True),
        answers=answers,
        sample=answers.assign(**{TARGET: SAMPLE_TARGET}),
        id_column=ID_COLUMN,
    )


def _read_train(path: Path) -> pd.DataFrame:
    raw_file(path)
    source = pd.read_csv(path, dtype={ID_COLUMN: str, "patient_id": str})
    require(
        list(source.columns) == list(TRAIN_COLUMNS),
        f"{path.name}: unexpected columns {list(source.columns)}",
    )
    require(bool(source[TARGET].isin([0, 1]).all()), f"{path.name}: targets other than 0/1")
    require(source[ID_COLUMN].is_unique, f"{path.name}: repeated {ID_COLUMN} values")
    return source


def _place_images(raw: Path, public: Path, rows: pd.DataFrame, part: str) -> None:
    for name in rows[ID_COLUMN]:
        place_file(raw / "train" / f"{name}.dcm", public / part / f"{name}.dcm")
        place_file(raw / "jpeg" / "train" / f"{name}.jpg", public / "jpeg" / part / f"{name}.jpg")


def record_image_names(path: Path) -> Iterator[str]:
    """The ``image_name`` of every example in a TFRecord file, read one record at a time."""
    with path.open("rb") as records:
        while header := records.read(LENGTH_BYTES + CRC_BYTES):
            require(len(header) == LENGTH_BYTES + CRC_BYTES, f"{path.name}: truncated record")
            (length,) = struct.unpack("<Q", header[:LENGTH_BYTES])
            example = records.read(length)
            require(len(example) == length, f"{path.name}: truncated record")
            records.read(CRC_BYTES)
            yield _image_name(memoryview(example), path)


def _image_name(example: memoryview, path: Path) -> str:
    """``features.feature["image_name"].bytes_list.value[0]`` of a serialized Example."""
    for features in _messages(example, 1):
        for entry in _messages(features, 1):
            key = next(_messages(entry, 1), None)
            if key is not None and bytes(key) == b"image_name":
                for feature in _messages(entry, 2):
                    for values in _messages(feature, 1):
                        for value in _messages(values, 1):
                            return bytes(value).decode("utf-8")
    raise PrepareError(f"{path.name}: a record has no image_name feature")


def _messages(buffer: memoryview, wanted: int) -> Iterator[memoryview]:
    """The length-delimited values of field ``wanted`` in a protocol-buffer message."""
    position = 0
    while position < len(buffer):
        tag, position = _varint(buffer, position)
        field, wire_type = tag >> 3, tag & 7
        if wire_type == BYTES_FIELD:
            size, position = _varint(buffer, position)
            if field == wanted:
                yield buffer[position : position + size]
            position += size
        elif wire_type == 0:
            _, position = _varint(buffer, position)
        elif wire_type in (1, 5):
            position += 8 if wire_type == 1 else 4
        else:
            raise PrepareError(f"unsupported protocol-buffer wire type {wire_type}")


def _varint(buffer: memoryview, position: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        require(position < len(buffer), "truncated protocol-buffer varint")
        byte = buffer[position]
        value |= (byte & 0x7F) << shift
        position, shift = position + 1, shift + 7
        if byte < 0x80:
            return value, position
