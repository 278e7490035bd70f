"""Prepare ``cdiscount-image-classification-challenge`` from Kaggle's files.

Kaggle's test products were never labelled in public, so the labelled products of
``train.bson`` (7,069,896 products, 58.2 GB) are split again, as MLE-bench does: scikit-learn's
``train_test_split(test_size=0.1, random_state=0)`` over the products in file order. The file is
streamed twice with pymongo's ``bson`` package and never held in memory: the first pass keeps only
each product's ``_id`` and ``category_id`` (two integer arrays); the second writes every product
to ``public/train.bson`` (its bytes unchanged) or ``public/test.bson`` (decoded and encoded again
without ``category_id``), and the first 100 train products to ``public/train_example.bson``. Each
file is written under a temporary name and renamed when whole. Kaggle's ``_id`` values are kept;
answers are sorted by ``_id``, as the original's. The sample submission is the original's:
category 1000010653 everywhere.
"""

from __future__ import annotations

import shutil
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import bson
import numpy as np
import pandas as pd
from bson.codec_options import CodecOptions
from bson.errors import BSONError
from bson.raw_bson import RawBSONDocument
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.errors import PrepareError

ID = "_id"
TARGET = "category_id"
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_CATEGORY = 1000010653
EXAMPLE_ROWS = 100
DECODED: CodecOptions[Any] = CodecOptions()
RAW: CodecOptions[Any] = CodecOptions(document_class=RawBSONDocument)
BUFFER = 1 << 20


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.bson`` by product; stream it into the public BSON files; write answers."""
    source = raw_file(raw / "train.bson")
    ids, categories = _labels(source)
    require(len(ids) >= 2, f"{source} holds fewer than two products")
    _, test_rows = train_test_split(np.arange(len(ids)), test_size=TEST_FRACTION, random_state=SEED)
    is_test = np.zeros(len(ids), dtype=bool)
    is_test[test_rows] = True
    _write_parts(source, is_test, public)
    shutil.copyfile(raw_file(raw / "category_names.csv"), public / "category_names.csv")
    answers = pd.DataFrame({ID: ids[is_test], TARGET: categories[is_test]}).sort_values(ID)
    answers = answers.reset_index(drop=True)
    sample = answers.assign(**{TARGET: SAMPLE_CATEGORY})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def products(handle: BinaryIO, source: Path, options: CodecOptions[Any] = DECODED) -> Iterator[Any]:
    """Each product of an open BSON file (a dict, or with ``RAW`` its undecoded bytes).

    A damaged file is a clear error.
    """
    try:
        yield from bson.decode_file_iter(handle, codec_options=options)
    except BSONError as exc:
        raise PrepareError(
            f"{source} is not a readable BSON file ({exc}); download it again"
        ) from None


def _labels(source: Path) -> tuple[np.ndarray, np.ndarray]:
    """Every product's ``_id`` and ``category_id``, in file order (8 bytes each kept).

    Decoding each product whole in pymongo's C extension is faster than looking two fields up
    in an undecoded document (which builds one Python object per picture); only one product's
    pictures are in memory at a time.
    """
    ids, categories = array("q"), array("q")
    with source.open("rb", buffering=BUFFER) as handle:
        for product in products(handle, source):
            try:
                ids.append(product[ID])
                categories.append(product[TARGET])
            except KeyError as exc:
                raise PrepareError(f"{source}: a product has no {exc}; download it again") from None
    return np.frombuffer(ids, dtype=np.int64), np.frombuffer(categories, dtype=np.int64)


def _write_parts(source: Path, is_test: np.ndarray, public: Path) -> None:
    names = ("train.bson", "test.bson", "train_example.bson")
    partial = [public / f"{name}.partial" for name in names]
    examples = 0
    with (
        source.open("rb", buffering=BUFFER) as handle,
        partial[0].open("wb", buffering=BUFFER) as train,
        partial[1].open("wb", buffering=BUFFER) as test,
        partial[2].open("wb") as example,
    ):
        for row, product in enumerate(products(handle, source, RAW)):
            if is_test[row]:
                unlabelled = {k: v for k, v in bson.decode(product.raw).items() if k != TARGET}
                test.write(bson.encode(unlabelled))
                continue
            train.write(product.raw)
            if examples < EXAMPLE_ROWS:
                example.write(product.raw)
                examples += 1
    for path, name in zip(partial, names, strict=True):
        path.replace(public / name)
