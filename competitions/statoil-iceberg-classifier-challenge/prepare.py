"""Prepare ``statoil-iceberg-classifier-challenge`` from Kaggle's files.

Kaggle ships the data as 7-Zip archives (``train.json.7z``, ``test.json.7z``,
``sample_submission.csv.7z``), which ``py7zr`` reads; only ``data/processed/train.json`` (1,604
labelled radar images) is needed. Kaggle's test labels were never published, so the labelled
images are split again: 20 % become the test set, drawn with scikit-learn's ``train_test_split``
at ``random_state=0`` over the file's records in their order — the split MLE-bench uses, so the
same images are held out and scores compare with published MLE-bench results. Kaggle's ids are
random hex strings and stay. ``train.json`` and ``test.json`` are written as plain JSON, records
unchanged (test records without ``is_iceberg``, as in Kaggle's test file). The sample submission
predicts 0.5.
"""

from __future__ import annotations

import json
import lzma
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd
import py7zr
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_csv
from pytest_mlebench.errors import PrepareError

ID = "id"
TARGET = "is_iceberg"
FIELDS = {ID, "band_1", "band_2", "inc_angle", TARGET}
ARCHIVE = "train.json.7z"
MEMBER = "data/processed/train.json"
TEST_FRACTION = 0.2
SEED = 0
SAMPLE_PROBABILITY = 0.5


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the records of Kaggle's ``train.json``; write train/test JSON and the answers."""
    records = _train_records(raw_file(raw / ARCHIVE))
    train, test = train_test_split(records, test_size=TEST_FRACTION, random_state=SEED)
    ids = [record[ID] for record in records]
    require(len(set(ids)) == len(ids), "train.json ids are not unique")
    answers = pd.DataFrame({ID: [r[ID] for r in test], TARGET: [int(r[TARGET]) for r in test]})
    _write_json(train, public / "train.json")
    _write_json([{k: v for k, v in r.items() if k != TARGET} for r in test], public / "test.json")
    write_csv(answers.assign(**{TARGET: SAMPLE_PROBABILITY}), public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _train_records(archive: Path) -> list[dict[str, Any]]:
    """The records of ``data/processed/train.json`` inside the archive, each field checked."""
    damaged = f"{archive} is damaged or not a 7z archive"
    with tempfile.TemporaryDirectory() as scratch:
        try:
            with py7zr.SevenZipFile(archive, "r") as bundle:
                names = bundle.getnames()
                require(MEMBER in names, f"{archive} holds no {MEMBER} (it holds {names[:5]})")
                bundle.extract(path=scratch, targets=[MEMBER])
            with (Path(scratch) / MEMBER).open(encoding="utf-8") as handle:
                records = json.load(handle)
        except (py7zr.exceptions.ArchiveError, lzma.LZMAError, EOFError) as exc:
            raise PrepareError(f"{damaged} ({exc}); download it again") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise PrepareError(
                f"{MEMBER} in {archive} is not JSON ({exc}); download it again"
            ) from None
    require(isinstance(records, list) and len(records) > 0, f"{MEMBER} must be a list of records")
    for record in records:
        require(
            isinstance(record, dict) and set(record) == FIELDS,
            f"{MEMBER} records must have exactly the fields {sorted(FIELDS)}",
        )
        require(record[TARGET] in (0, 1), f"{MEMBER}: is_iceberg must be 0 or 1")
    return records


def _write_json(records: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        json.dump(records, handle)
