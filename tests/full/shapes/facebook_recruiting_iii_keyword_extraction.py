"""Kaggle's download of facebook-recruiting-iii-keyword-extraction: a zip of two zips and a CSV.

``facebook-recruiting-iii-keyword-extraction.zip`` holds ``Train.zip`` (``Train.csv``:
``Id,Title,Body,Tags``), ``Test.zip`` (``Test.csv``: ``Id,Title,Body``, ids continuing after
train's) and ``SampleSubmission.csv`` (``Id,Tags``). Ids are integers from 1; bodies are HTML with
quotes, commas and line breaks; tags are space-separated, lower case, with characters such as
``#``, ``+`` and ``.``. The body names each of the question's tags, so the text predicts them;
rows are grouped by their first tag, so a prepare that kept the raw order would leak it.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "facebook-recruiting-iii-keyword-extraction"
EMPTY_CELL_IS_TEXT = True
TAGS = (
    "c#", "java", "php", "javascript", "android", "jquery", "c++", "python", "iphone", "asp.net",
    "mysql", "html", "linux", ".net", "ios", "objective-c", "sql", "css", "ruby-on-rails",
    "windows",
)  # fmt: skip
TRAIN_ROWS = 200
TEST_ROWS = 6


def _questions(rng: np.random.Generator, rows: int, first_id: int) -> pd.DataFrame:
    tags = [
        list(rng.choice(TAGS, size=int(rng.integers(1, 4)), replace=False)) for _ in range(rows)
    ]
    tags.sort(key=lambda listed: TAGS.index(listed[0]))
    return pd.DataFrame(
        {
            "Id": np.arange(first_id, first_id + rows),
            "Title": [f"How to use {t[0]} for this?" for t in tags],
            "Body": [
                f'<p>I tried "{", ".join(t)}".</p>\n\n<pre><code>x = 1;\n</code></pre>\n'
                for t in tags
            ],
            "Tags": [" ".join(t) for t in tags],
        }
    )


def _zipped(name: str, frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as inner:
        inner.writestr(name, frame.to_csv(index=False))
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _questions(rng, TRAIN_ROWS, 1)
    test = _questions(rng, TEST_ROWS, TRAIN_ROWS + 1).drop(columns=["Tags"])
    sample = pd.DataFrame({"Id": test["Id"], "Tags": "javascript c# python php java"})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("Train.zip", _zipped("Train.csv", train))
        bundle.writestr("Test.zip", _zipped("Test.csv", test))
        bundle.writestr("SampleSubmission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    return train[["Id", "Tags"]]
