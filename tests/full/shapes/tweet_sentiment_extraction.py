"""Kaggle's download of tweet-sentiment-extraction: one zip of three CSVs.

``tweet-sentiment-extraction.zip`` holds ``train.csv`` (``textID,text,selected_text,sentiment``),
``test.csv`` (``textID,text,sentiment``) and ``sample_submission.csv`` (``textID,selected_text``).
Ids are 10 hex digits; tweets hold commas, quotes, leading spaces and punctuation glued to words;
``selected_text`` is a span of the tweet (the whole tweet for most neutral ones), and one row has
an empty tweet and span, as Kaggle's file has. The span holds the tweet's sentiment word, so the
text predicts it; rows are grouped by sentiment, so a prepare that kept the raw order would leak.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import random_hex

COMPETITION = "tweet-sentiment-extraction"
EMPTY_CELL_IS_TEXT = True
FEELINGS = {
    "positive": ("happy", "love", "great", "awesome", "fun", "glad"),
    "negative": ("sad", "hate", "awful", "tired", "sick", "bored"),
    "neutral": ("going", "work", "today", "later", "home", "now"),
}
FILLER = (
    "the", "my", "at", "with", "so", "this", "morning", "friends", "lol", "again", "week", "boss",
    "phone", "movie", "rain", "coffee", "school", "night", "dog", "music", "game", "bus", "cake",
)  # fmt: skip
ROWS_PER_SENTIMENT = 40
TEST_ROWS = 5


def _row(rng: np.random.Generator, sentiment: str) -> dict[str, str]:
    filler = list(rng.choice(FILLER, size=6, replace=False))
    word = str(rng.choice(FEELINGS[sentiment]))
    at = int(rng.integers(1, 5))
    words = [*filler[:at], f"{word}!!" if sentiment != "neutral" else word, *filler[at:]]
    if rng.random() < 0.2:  # a quoted word and a comma, after the span
        words[-1] = f'"{words[-1]}",'
    text = " ".join(words)
    span = text if sentiment == "neutral" else " ".join(words[at - 1 : at + 1])
    if rng.random() < 0.3:
        text = " " + text  # Kaggle's tweets often start with a space; the span does not
    return {
        "textID": random_hex(rng, 10),
        "text": text,
        "selected_text": span,
        "sentiment": sentiment,
    }


def make_download(folder: Path, rng: np.random.Generator) -> None:
    rows = [_row(rng, s) for s in FEELINGS for _ in range(ROWS_PER_SENTIMENT)]
    rows.append(
        {"textID": random_hex(rng, 10), "text": "", "selected_text": "", "sentiment": "neutral"}
    )
    train = pd.DataFrame(rows)
    test = pd.DataFrame([_row(rng, "positive") for _ in range(TEST_ROWS)])
    test = test.drop(columns=["selected_text"])
    sample = pd.DataFrame({"textID": test["textID"], "selected_text": ""})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    return train[["textID", "selected_text"]]
