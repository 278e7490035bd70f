"""Prepare ``cdiscount-image-classification-challenge`` from Kaggle's files.

Kaggle's test products were never labelled in public, so the labelled products of
``train.bson`` (7,069,896 products, 58.2 GB) are split again, as MLE-bench does: scikit-learn's
``train_test_split(test_size=0.1, random_state=0)`` over the products in file order (the split
depends only on their number). The file is gone through twice and never held in memory:

1. the products are counted by their framing alone: a BSON document starts with its length (a
   little-endian int32) and ends with a zero byte, so the first pass reads those five bytes of
   each product and hops to the next — no product is parsed, and the pictures between are
   never copied into the process (8 bytes a product are kept);
2. every maximal run of consecutive train products is copied to ``public/train.bson`` as one
   byte range (``os.copy_file_range``: in the kernel, no Python per product), and every run of
   test products is decoded with pymongo's ``bson``, its ``category_id`` kept for the answers
   and dropped from the product, and encoded again into ``public/test.bson``; train products
   are never decoded.

``public/train_example.bson`` is the first 100 products of the new ``train.bson``. Each file is
written under a temporary name and renamed when whole. Kaggle's ``_id`` values are kept; answers
are sorted by ``_id``, as the original's. The sample submission is the original's: category
1000010653 everywhere.
"""

from __future__ import annotations

import itertools
import os
import shutil
import struct
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import bson
import numpy as np
import pandas as pd
from bson.errors import BSONError
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.errors import PrepareError

ID = "_id"
TARGET = "category_id"
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_CATEGORY = 1000010653
EXAMPLE_ROWS = 100
BUFFER = 1 << 20
_LENGTH = struct.Struct("<i")
_SMALLEST = 5
"""The smallest BSON document: its int32 length and the final zero byte."""
_READ_AHEAD = 64 << 20
"""Bytes the kernel is asked to read ahead of the first pass at a time."""
NAMES = ("train.bson", "test.bson", "train_example.bson")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.bson`` by product; stream it into the public BSON files; write answers."""
    source = raw_file(raw / "train.bson")
    offsets = _offsets(source)
    count = len(offsets) - 1
    require(count >= 2, f"{source} holds fewer than two products")
    _, test_rows = train_test_split(np.arange(count), test_size=TEST_FRACTION, random_state=SEED)
    is_test = np.zeros(count, dtype=bool)
    is_test[test_rows] = True
    labels = _write_parts(source, offsets, is_test, public)
    shutil.copyfile(raw_file(raw / "category_names.csv"), public / "category_names.csv")
    answers = pd.DataFrame(labels, columns=[ID, TARGET]).sort_values(ID).reset_index(drop=True)
    sample = answers.assign(**{TARGET: SAMPLE_CATEGORY})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _offsets(source: Path) -> np.ndarray:
    """Where each product starts, and the end of the last (``count + 1`` offsets).

    Only each document's length prefix and final zero byte are read: one ``pread`` of five
    bytes a product (the zero that ends it and the length of the next), with the kernel asked
    to read ahead window by window (``posix_fadvise``), so a file on disk streams in large
    reads and nothing between the prefixes is copied into the process. A length that runs
    past the end of the file, or a document without its final zero, is a damaged file.
    """
    offsets = array("q", [0])
    with source.open("rb") as handle:
        descriptor = handle.fileno()
        size = os.fstat(descriptor).st_size
        read_length = _LENGTH.unpack_from
        position, ahead = 0, 0
        frame = os.pread(descriptor, 4, 0)
        while position < size:
            if position >= ahead and hasattr(os, "posix_fadvise"):
                os.posix_fadvise(descriptor, position, _READ_AHEAD, os.POSIX_FADV_WILLNEED)
                ahead = position + _READ_AHEAD // 2
            if len(frame) < 4:
                raise _damaged(source, position)
            (length,) = read_length(frame, len(frame) - 4)
            end = position + length
            if length < _SMALLEST or end > size:
                raise _damaged(source, position)
            frame = os.pread(descriptor, 5, end - 1)  # this one's last byte, the next's length
            if frame[0] != 0:
                raise _damaged(source, position)
            offsets.append(end)
            position = end
    return np.frombuffer(offsets, dtype=np.int64)


def _damaged(source: Path, position: int) -> PrepareError:
    return PrepareError(
        f"{source} is not a readable BSON file (a product at byte {position} is cut or "
        "malformed); download it again"
    )


def _runs(is_test: np.ndarray) -> Iterator[tuple[int, int, bool]]:
    """Maximal runs ``(first, end, test)`` of consecutive products on the same side."""
    edges = np.flatnonzero(np.diff(is_test.view(np.int8))) + 1
    bounds = [0, *edges.tolist(), len(is_test)]
    for first, end in itertools.pairwise(bounds):
        yield first, end, bool(is_test[first])


def _write_parts(
    source: Path, offsets: np.ndarray, is_test: np.ndarray, public: Path
) -> list[tuple[int, int]]:
    """Write the three public BSON files; return the test products' ``(_id, category_id)``."""
    partial = [public / f"{name}.partial" for name in NAMES]
    labels: list[tuple[int, int]] = []
    with (
        source.open("rb") as reader,
        partial[0].open("wb") as train,
        partial[1].open("wb", buffering=BUFFER) as test,
    ):
        for first, end, held_out in _runs(is_test):
            start, stop = int(offsets[first]), int(offsets[end])
            if held_out:
                reader.seek(start)
                labels += _write_unlabelled(reader.read(stop - start), test, source)
            else:
                _copy_range(reader, train, start, stop - start)
    train_rows = np.flatnonzero(~is_test)[:EXAMPLE_ROWS]
    example_size = int((offsets[train_rows + 1] - offsets[train_rows]).sum())
    with partial[0].open("rb") as train_file, partial[2].open("wb") as example:
        _copy_range(train_file, example, 0, example_size)
    for path, name in zip(partial, NAMES, strict=True):
        path.replace(public / name)
    return labels


def _write_unlabelled(data: bytes, test: BinaryIO, source: Path) -> list[tuple[int, int]]:
    """Encode each product of ``data`` again without its label; return ``(_id, label)``s."""
    labels = []
    try:
        documents = bson.decode_all(data)
    except BSONError as exc:
        raise PrepareError(
            f"{source} is not a readable BSON file ({exc}); download it again"
        ) from None
    for document in documents:
        try:
            labels.append((int(document[ID]), int(document.pop(TARGET))))
        except KeyError as exc:
            raise PrepareError(f"{source}: a product has no {exc}; download it again") from None
        test.write(bson.encode(document))
    return labels


def _copy_range(reader: BinaryIO, writer: BinaryIO, start: int, length: int) -> None:
    """Append ``length`` bytes of ``reader`` from ``start`` to ``writer`` (in the kernel if it can).

    ``writer`` is written through its file descriptor only (flushed after a user-space copy), so
    its position stays right for the next range.
    """
    done = 0
    try:
        while done < length:
            copied = os.copy_file_range(
                reader.fileno(), writer.fileno(), length - done, start + done
            )
            if copied == 0:
                raise PrepareError(f"{reader.name} ended early; download it again")
            done += copied
        return
    except OSError:  # a file system or kernel without it: copy through user space
        pass
    reader.seek(start + done)
    writer.seek(0, os.SEEK_END)
    while done < length:
        block = reader.read(min(BUFFER, length - done))
        if not block:
            raise PrepareError(f"{reader.name} ended early; download it again")
        writer.write(block)
        done += len(block)
    writer.flush()
