"""Kaggle's download of detecting-insults-in-social-commentary: one zip of six plain CSVs.

``detecting-insults-in-social-commentary.zip`` holds ``train.csv`` (``Insult,Date,Comment``),
``test.csv`` (``Date,Comment``), ``test_with_solutions.csv`` (``Insult,Date,Comment,Usage``),
``sample_submission_null.csv`` and the verification files. ``Date`` is ``YYYYMMDDhhmmssZ`` or
empty; ``Comment`` is unicode-escaped text wrapped in double quotes that belong to the value.
Comments have no id, so the comment is the id (``ID_IS_CONTENT``). The labelled test file repeats
two texts with one label each, as Kaggle's does. A synthetic comment is an insult when it holds
an insulting word, so the text predicts the label.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "detecting-insults-in-social-commentary"
ID_IS_CONTENT = True
INSULTING = ("idiot", "moron", "loser", "clown")
NEUTRAL = ("agree", "thanks", "interesting", "point", "article", "season", "vote", "team")
FILLER = ("you", "are", "the", "a", "this", "is", "really", "so", "what", "about")
TRAIN_ROWS = 120
TEST_ROWS = 40


def _comment(rng: np.random.Generator, insult: int, number: int) -> str:
    words = list(rng.choice(FILLER, size=5)) + list(rng.choice(NEUTRAL, size=2))
    if insult:
        words.append(str(rng.choice(INSULTING)))
    escape = "\\\\xa0" if number % 7 == 0 else " "
    return '"' + escape.join(rng.permutation(words)) + f' #{number}"'


def _comments(rng: np.random.Generator, count: int, start: int) -> pd.DataFrame:
    insult = rng.integers(0, 2, size=count)
    dates = [
        "" if rng.random() < 0.2 else f"201205{rng.integers(10, 31)}{rng.integers(0, 240000):06d}Z"
        for _ in range(count)
    ]
    texts = [_comment(rng, label, start + i) for i, label in enumerate(insult)]
    return pd.DataFrame({"Insult": insult, "Date": dates, "Comment": texts})


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _comments(rng, TRAIN_ROWS, 0)
    test = _comments(rng, TEST_ROWS, TRAIN_ROWS)
    test = pd.concat([test, test.iloc[[3, 5]]], ignore_index=True)  # repeated texts, as Kaggle's
    test["Usage"] = np.where(np.arange(len(test)) % 3 == 0, "PublicTest", "PrivateTest")
    verification = _comments(rng, 10, 1000)
    verification.insert(0, "id", np.arange(1, 11))
    verification["Usage"] = "PrivateTest"
    files = {
        "train.csv": train,
        "test.csv": test[["Date", "Comment"]],
        "test_with_solutions.csv": test,
        "sample_submission_null.csv": test[["Insult", "Date", "Comment"]].assign(Insult=0),
        "impermium_verification_set.csv": verification.drop(columns=["Insult", "Usage"]),
        "impermium_verification_labels.csv": verification,
    }
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, frame in files.items():
            bundle.writestr(name, frame.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    return train[["Comment", "Insult"]]
