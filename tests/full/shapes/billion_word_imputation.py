"""Kaggle's download of billion-word-imputation: one zip holding two zipped text files.

``billion-word-imputation.zip`` holds ``train_v2.txt.zip`` (``train_v2.txt``: tokenised English
sentences, one a line, words and punctuation between single spaces) and ``test_v2.txt.zip``
(``test_v2.txt``: a CSV ``"id","sentence"`` of sentences with one word removed). Only the train
file is used. The synthetic sentences are made of words of six to nine letters, have a quotation
mark as second word now and then (CSV doubles it) and end with a full stop; some have two words
only (those always stay in train). Each sentence's first word (never removed) is its own, so a
sentence is known by its first word on either side of the split. About 3,000 lines give about
30 test sentences at MLE-bench's 1 %.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "billion-word-imputation"
LINES = 3000
LETTERS = np.array(list("abcdefghijklmnopqrstuvwxyz"))


def _sentence(rng: np.random.Generator, vocabulary: list[str], number: int) -> str:
    first = "".join(LETTERS[int(digit)] for digit in f"{number:05d}").capitalize()
    words = list(rng.choice(vocabulary, int(rng.integers(0, 11))))
    quote = ['"'] if rng.random() < 0.1 else []
    return " ".join([first, *quote, *words, "."])


def _zipped(name: str, text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as inner:
        inner.writestr(name, text)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    vocabulary = ["".join(rng.choice(LETTERS, int(rng.integers(6, 10)))) for _ in range(400)]
    lines = [_sentence(rng, vocabulary, number) for number in range(LINES)]
    kaggle_test = pd.DataFrame({"id": [1, 2], "sentence": lines[:2]})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_STORED) as bundle:
        bundle.writestr("train_v2.txt.zip", _zipped("train_v2.txt", "\n".join(lines) + "\n"))
        bundle.writestr("test_v2.txt.zip", _zipped("test_v2.txt", kaggle_test.to_csv(index=False)))


def _train_lines(public: Path) -> list[str]:
    return (public / "train_v2.txt").read_text("utf-8").splitlines()


def public_train_labels(public: Path) -> pd.DataFrame:
    """The train sentences, numbered by line (train has no ids)."""
    lines = _train_lines(public)
    return pd.DataFrame({"id": range(len(lines)), "sentence": lines})


def group_values(public: Path) -> tuple[list[str], list[str]]:
    """The first words of train lines and of test sentences (each sentence's own word)."""
    test = pd.read_csv(public / "test_v2.txt", dtype=str, keep_default_na=False)
    first = [line.split()[0] for line in _train_lines(public)]
    return first, [sentence.split()[0] for sentence in test["sentence"]]
