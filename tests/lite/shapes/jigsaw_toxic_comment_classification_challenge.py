"""Kaggle's download of jigsaw-toxic-comment-classification-challenge: four nested zips.

``jigsaw-toxic-comment-classification-challenge.zip`` holds ``train.csv.zip`` (``train.csv``:
``id,comment_text`` and the six 0/1 labels), ``test.csv.zip`` (``id,comment_text``),
``test_labels.csv.zip`` (``id`` and the six labels, ``-1`` in every column for the comments
Kaggle did not score) and ``sample_submission.csv.zip`` (``id`` and the six labels at 0.5). Ids
are 16 hex digits; comments span lines. Each synthetic label has its own marker word, so the text
predicts the labels.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "jigsaw-toxic-comment-classification-challenge"
LABELS = ("toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate")
MARKERS = ("awful", "vile", "filthy", "hurt", "dumb", "hateful")
FILLER = ("the", "article", "edit", "page", "talk", "source", "please", "thanks", "why", "was")
TRAIN_ROWS = 80
TEST_ROWS = 60


def _zip_of(name: str, frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr(name, frame.to_csv(index=False))
    return buffer.getvalue()


def _comments(rng: np.random.Generator, count: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    labels = rng.integers(0, 2, size=(count, len(LABELS)))
    texts = []
    for row in labels:
        words = list(rng.choice(FILLER, size=6)) + [
            m for m, on in zip(MARKERS, row, strict=True) if on
        ]
        text = " ".join(rng.permutation(words))
        texts.append(text.replace(" ", "\n", 1) if rng.random() < 0.3 else text)
    ids = [f"{value:016x}" for value in rng.integers(0, 2**63, size=count)]
    comments = pd.DataFrame({"id": ids, "comment_text": texts})
    return comments, pd.DataFrame(labels, columns=list(LABELS))


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train_text, train_labels = _comments(rng, TRAIN_ROWS)
    train = pd.concat([train_text, train_labels], axis=1)
    test, test_labels = _comments(rng, TEST_ROWS)
    unscored = rng.random(TEST_ROWS) < 0.3
    test_labels.loc[unscored, :] = -1
    test_labels.insert(0, "id", test["id"])
    sample = pd.DataFrame({"id": test["id"], **dict.fromkeys(LABELS, 0.5)})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv.zip", _zip_of("train.csv", train))
        bundle.writestr("test.csv.zip", _zip_of("test.csv", test))
        bundle.writestr("test_labels.csv.zip", _zip_of("test_labels.csv", test_labels))
        bundle.writestr("sample_submission.csv.zip", _zip_of("sample_submission.csv", sample))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype={"id": str})[["id", *LABELS]]
