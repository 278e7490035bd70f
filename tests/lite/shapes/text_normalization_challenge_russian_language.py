"""Kaggle's download of text-normalization-challenge-russian-language: five nested zips.

The same layout as the English competition with the ``ru_`` prefix: ``ru_train.csv.zip``,
``ru_test.csv.zip``, ``ru_test_2.csv.zip``, ``ru_sample_submission.csv.zip`` and
``ru_sample_submission_2.csv.zip``, holding UTF-8 Cyrillic text. Literal ``NA``, ``null``,
``nan``, ``None`` and ``n/a`` tokens appear too; numbers and acronyms are spelled out in Russian.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.shapes.text_normalization_challenge_english_language import (
    language_train_labels,
    make_language_download,
)

COMPETITION = "text-normalization-challenge-russian-language"
EMPTY_CELL_IS_TEXT = True
WORDS = ("река", "течёт", "на", "север", "в", "озеро", "возле", "города", "и", "леса")
NUMBERS = {"3": "три", "7": "семь", "12": "двенадцать", "15": "пятнадцать", "20": "двадцать"}
ACRONYMS = {"МГУ": "эм гэ у", "РФ": "эр эф", "США": "сэ шэ а"}


def make_download(folder: Path, rng: np.random.Generator) -> None:
    make_language_download(
        folder, rng, COMPETITION, "ru", words=WORDS, numbers=NUMBERS, acronyms=ACRONYMS
    )


def public_train_labels(public: Path) -> pd.DataFrame:
    return language_train_labels(public, "ru")
