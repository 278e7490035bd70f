"""Kaggle's download of spooky-author-identification: three zips, one CSV each.

``spooky-author-identification.zip`` holds ``train.zip`` (``train.csv``: ``id,text,author``),
``test.zip`` (``test.csv``: ``id,text``) and ``sample_submission.zip``
(``sample_submission.csv``: ``id,EAP,HPL,MWS``). Ids are ``id`` and five digits. The synthetic
sentences draw words from a vocabulary per author, so the text predicts the author; the rows are
grouped by author, so a prepare that keeps the raw order would leak it.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "spooky-author-identification"
AUTHORS = ("EAP", "HPL", "MWS")
WORDS = {
    "EAP": ("raven", "heart", "tell", "usher", "pendulum", "midnight"),
    "HPL": ("eldritch", "cyclopean", "nameless", "cult", "abyss", "madness"),
    "MWS": ("creature", "mountains", "misery", "geneva", "wretch", "sublime"),
}
ROWS_PER_AUTHOR = 40


def _zip_of(name: str, frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr(name, frame.to_csv(index=False))
    return buffer.getvalue()


def _ids(rng: np.random.Generator, count: int) -> list[str]:
    return [f"id{number:05d}" for number in rng.choice(100_000, size=count, replace=False)]


def _sentence(rng: np.random.Generator, author: str) -> str:
    common = ("the", "of", "and", "a", "in", "was")
    words = list(rng.choice(WORDS[author], size=4)) + list(rng.choice(common, size=5))
    return " ".join(rng.permutation(words)).capitalize() + "."


def make_download(folder: Path, rng: np.random.Generator) -> None:
    authors = [author for author in AUTHORS for _ in range(ROWS_PER_AUTHOR)]
    ids = _ids(rng, len(authors) + 20)
    train = pd.DataFrame(
        {"id": ids[: len(authors)], "text": [_sentence(rng, a) for a in authors], "author": authors}
    )
    test_ids = ids[len(authors) :]
    test = pd.DataFrame({"id": test_ids, "text": [_sentence(rng, "EAP") for _ in test_ids]})
    sample = pd.DataFrame({"id": test_ids, "EAP": 0.403494, "HPL": 0.287808, "MWS": 0.308698})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.zip", _zip_of("train.csv", train))
        bundle.writestr("test.zip", _zip_of("test.csv", test))
        bundle.writestr("sample_submission.zip", _zip_of("sample_submission.csv", sample))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str)
    labels = pd.DataFrame({"id": train["id"]})
    for author in AUTHORS:
        labels[author] = (train["author"] == author).astype(int)
    return labels
