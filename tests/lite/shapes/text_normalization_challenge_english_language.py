"""Kaggle's download of text-normalization-challenge-english-language: five nested zips.

``text-normalization-challenge-english-language.zip`` holds ``en_train.csv.zip``
(``en_train.csv``: ``sentence_id,token_id,class,before,after``), ``en_test.csv.zip`` and
``en_test_2.csv.zip`` (``sentence_id,token_id,before``), ``en_sample_submission.csv.zip`` and
``en_sample_submission_2.csv.zip`` (``id,after``). Text fields are quoted, numbers are not.
Sentences are numbered from 0 and tokens from 0 within each. Some tokens are literally ``NA``,
``N/A``, ``null``, ``nan``, ``None`` and ``n/a``, which must survive as text. A synthetic
token's ``after`` follows from its ``before`` (numbers and acronyms are spelled out), so the
content predicts it; an empty cell is a text answer (``EMPTY_CELL_IS_TEXT``).
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "text-normalization-challenge-english-language"
EMPTY_CELL_IS_TEXT = True
LITERALS = ("NA", "N/A", "null", "nan", "None", "n/a")
WORDS = ("the", "river", "flows", "north", "into", "a", "lake", "near", "town", "of")
NUMBERS = {"3": "three", "7": "seven", "12": "twelve", "15": "fifteen", "20": "twenty"}
ACRONYMS = {"BBC": "b b c", "NASA": "n a s a", "UK": "u k"}
TRAIN_SENTENCES = 40
SENTENCES = 50


def sentence_tokens(
    rng: np.random.Generator,
    words: Sequence[str],
    numbers: Mapping[str, str],
    acronyms: Mapping[str, str],
) -> list[tuple[str, str, str]]:
    """One sentence as (class, before, after) tokens, ending with a full stop."""
    tokens = []
    for _ in range(int(rng.integers(4, 8))):
        draw = rng.random()
        if draw < 0.3:
            before = str(rng.choice(list(numbers)))
            tokens.append(("CARDINAL", before, numbers[before]))
        elif draw < 0.45:
            before = str(rng.choice(list(acronyms)))
            tokens.append(("LETTERS", before, acronyms[before]))
        elif draw < 0.55:
            literal = str(rng.choice(LITERALS))
            tokens.append(("PLAIN", literal, literal))
        else:
            word = str(rng.choice(words))
            tokens.append(("PLAIN", word, word))
    return [*tokens, ("PUNCT", ".", ".")]


def _zip_of(name: str, frame: pd.DataFrame) -> bytes:
    text = frame.to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr(name, text)
    return buffer.getvalue()


def _sentences(rng: np.random.Generator, count: int, **vocabulary: object) -> pd.DataFrame:
    rows = [
        (sentence, token, *fields)
        for sentence in range(count)
        for token, fields in enumerate(sentence_tokens(rng, **vocabulary))  # type: ignore[arg-type]
    ]
    return pd.DataFrame(rows, columns=["sentence_id", "token_id", "class", "before", "after"])


def make_language_download(
    folder: Path, rng: np.random.Generator, competition: str, language: str, **vocabulary: object
) -> None:
    """The download of one language's competition, from its words, numbers and acronyms."""
    train = _sentences(rng, SENTENCES, **vocabulary)
    test = _sentences(rng, 10, **vocabulary).drop(columns=["class", "after"])
    ids = test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str)
    sample = pd.DataFrame({"id": ids, "after": test["before"]})
    with zipfile.ZipFile(folder / f"{competition}.zip", "w") as bundle:
        bundle.writestr(f"{language}_train.csv.zip", _zip_of(f"{language}_train.csv", train))
        for suffix in ("", "_2"):
            bundle.writestr(
                f"{language}_test{suffix}.csv.zip", _zip_of(f"{language}_test{suffix}.csv", test)
            )
            bundle.writestr(
                f"{language}_sample_submission{suffix}.csv.zip",
                _zip_of(f"{language}_sample_submission{suffix}.csv", sample),
            )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    make_language_download(
        folder, rng, COMPETITION, "en", words=WORDS, numbers=NUMBERS, acronyms=ACRONYMS
    )


def language_train_labels(public: Path, language: str) -> pd.DataFrame:
    """Public train tokens in submission form (``id,after``), read as text."""
    train = pd.read_csv(public / f"{language}_train.csv", dtype=str, keep_default_na=False)
    return pd.DataFrame(
        {"id": train["sentence_id"] + "_" + train["token_id"], "after": train["after"]}
    )


def public_train_labels(public: Path) -> pd.DataFrame:
    return language_train_labels(public, "en")
