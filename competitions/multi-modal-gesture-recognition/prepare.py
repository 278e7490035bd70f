"""Prepare ``multi-modal-gesture-recognition`` from Kaggle's files.

Kaggle's test labels were never published, so, as MLE-bench does, the fourth training archive
``training4.tar.gz`` becomes the test set: its samples (``SampleNNNNN.zip``, the id being the
last four digits) leave ``training.csv`` and their sequences become the answers. The other
archives are copied as they are. MLE-bench's ``randomPredictions.csv`` (with Python's
``random.seed(0)``, one ``random.sample(range(1, 21), 20)`` per test id, in id order) is made the
same way and is also the sample submission.

The leak MLE-bench left open (its issue #77): each sample's ``SampleNNNNN_data.mat`` holds a
``Video`` struct whose ``Labels`` field lists the sample's gestures with their frames — the
answer itself. Here ``test.tar.gz`` is ``training4.tar.gz`` rebuilt with ``Labels`` removed from
every ``_data.mat`` (read and written with ``scipy.io``; skeleton, frame counts and every other
file kept byte for byte). Samples are streamed one at a time through a temporary folder, and the
rebuilt archive is byte-identical from run to run (member times kept, gzip time 0, a fixed MAT
header text).
"""

from __future__ import annotations

import gzip
import io
import random
import re
import shutil
import tarfile
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.io

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_file

ID, TARGET = "Id", "Sequence"
TEST_ARCHIVE = "training4.tar.gz"
COPIED = (
    "training1.tar.gz",
    "training2.tar.gz",
    "training3.tar.gz",
    "validation1.tar.gz",
    "validation2.tar.gz",
    "validation3.tar.gz",
    "devel01-40.7z",
    "valid_all_files_combined.7z",
)
SAMPLE = re.compile(r"Sample\d{4,}\.zip")
LABELS = "Labels"
MAT_HEADER = (
    b"MATLAB 5.0 MAT-file, labels removed by the prepare of multi-modal-gesture-recognition"
)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """training4 → test (labels stripped from its .mat files); the rest copied."""
    training = pd.read_csv(raw_file(raw / "training.csv"), dtype=str, keep_default_na=False)
    require(list(training.columns) == [ID, TARGET], f"training.csv columns: {list(training)}")
    with tempfile.TemporaryDirectory(dir=private) as scratch:
        test_ids = _strip_labels(
            raw_file(raw / TEST_ARCHIVE), public / "test.tar.gz", Path(scratch)
        )
    require(bool(test_ids), f"{TEST_ARCHIVE} holds no SampleNNNNN.zip")
    held_out = training[ID].isin(test_ids)
    answers = training[held_out]
    random.seed(0)
    guesses = [" ".join(map(str, random.sample(range(1, 21), 20))) for _ in test_ids]
    sample = pd.DataFrame({ID: test_ids, TARGET: guesses})
    test = pd.DataFrame({ID: test_ids})
    check_answers(test, answers, sample, ID)
    write_csv(training[~held_out], public / "training.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for name in COPIED:
        place_file(raw_file(raw / name), public / name)


def _strip_labels(source: Path, target: Path, scratch: Path) -> list[str]:
    """Rebuild ``source`` at ``target`` without ``Labels`` in any ``_data.mat``; the test ids."""
    ids = []
    try:
        with (
            tarfile.open(source, "r:gz") as archive,
            open(target, "wb") as stream,
            gzip.GzipFile(filename="", mode="wb", fileobj=stream, mtime=0) as packed,
            tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as rebuilt,
        ):
            for member in archive:
                content = archive.extractfile(member) if member.isfile() else None
                if content is None or not SAMPLE.fullmatch(Path(member.name).name):
                    rebuilt.addfile(member, content)
                    continue
                ids.append(Path(member.name).stem[-4:])
                original, stripped = scratch / "in.zip", scratch / "out.zip"
                with open(original, "wb") as copy:
                    shutil.copyfileobj(content, copy)
                _rewrite_sample(original, stripped)
                member.size = stripped.stat().st_size
                with open(stripped, "rb") as rewritten:
                    rebuilt.addfile(member, rewritten)
    except (tarfile.TarError, zipfile.BadZipFile, OSError) as error:
        raise PrepareError(f"{source}: cannot be read ({error}); download it again") from error
    return sorted(ids)


def _rewrite_sample(source: Path, target: Path) -> None:
    """Copy one sample zip, member by member, with ``Labels`` removed from its ``_data.mat``."""
    with zipfile.ZipFile(source) as sample, zipfile.ZipFile(target, "w") as rewritten:
        for info in sample.infolist():
            data = sample.read(info)
            if info.filename.endswith("_data.mat"):
                data = _mat_without_labels(data, f"{source.name}:{info.filename}")
            rewritten.writestr(info, data)


def _mat_without_labels(data: bytes, where: str) -> bytes:
    """A MAT file's bytes with the ``Labels`` field taken out of every struct variable."""
    try:
        variables = scipy.io.loadmat(io.BytesIO(data))
    except (NotImplementedError, ValueError) as error:
        raise PrepareError(f"{where}: not a MATLAB 5 file scipy can read ({error})") from error
    kept = {}
    for name, value in variables.items():
        if name.startswith("__"):
            continue
        fields = value.dtype.names if isinstance(value, np.ndarray) else None
        if fields and LABELS in fields:
            names = [field for field in fields if field != LABELS]
            trimmed = np.empty(value.shape, dtype=[(field, value.dtype[field]) for field in names])
            for field in names:
                trimmed[field] = value[field]
            value = trimmed
        kept[name] = value
    written = io.BytesIO()
    scipy.io.savemat(written, kept)
    out = bytearray(written.getvalue())
    out[:116] = MAT_HEADER.ljust(116)  # the header text holds the time of writing
    return bytes(out)
