"""Kaggle's download of chaii-hindi-and-tamil-question-answering: one zip of three CSVs.

``chaii-hindi-and-tamil-question-answering.zip`` holds ``train.csv``
(``id,context,question,answer_text,answer_start,language``), ``test.csv``
(``id,context,question,language``) and ``sample_submission.csv`` (``id,PredictionString``). Ids
are 9 hex digits; passages and questions are Devanagari or Tamil text with line breaks and
commas; ``answer_text`` is a span of ``context`` starting at character ``answer_start``. The
synthetic question names the word just before the answer, so the text predicts it; rows are
grouped by language, so a prepare that kept the raw order would leak it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import random_hex

COMPETITION = "chaii-hindi-and-tamil-question-answering"
EMPTY_CELL_IS_TEXT = True
WORDS = {
    "hindi": ("भारत", "राजधानी", "नदी", "पर्वत", "राजा", "वर्ष", "शहर", "भाषा", "किताब", "लेखक",
              "मंदिर", "युद्ध", "सागर", "गांव", "विज्ञान", "संगीत"),
    "tamil": ("சென்னை", "நதி", "மலை", "அரசன்", "ஆண்டு", "நகரம்", "மொழி", "புத்தகம்", "கோவில்",
              "கடல்", "கிராமம்", "அறிவியல்", "இசை", "போர்", "எழுத்தாளர்", "தமிழ்"),
}  # fmt: skip
ROWS_PER_LANGUAGE = 50
TEST_ROWS = 4


def _row(rng: np.random.Generator, language: str) -> dict[str, object]:
    words = list(rng.choice(WORDS[language], size=12, replace=False))
    start_word = int(rng.choice([1, 2, 3, 4, 7, 8, 9, 10]))  # the span stays on one line
    answer = " ".join(words[start_word : start_word + int(rng.integers(1, 3))])
    context = " ".join(words[:6]) + ",\n" + " ".join(words[6:])
    return {
        "id": random_hex(rng, 9),
        "context": context,
        "question": f"{words[start_word - 1]} के बाद क्या है?",
        "answer_text": answer,
        "answer_start": context.index(answer),
        "language": language,
    }


def make_download(folder: Path, rng: np.random.Generator) -> None:
    rows = [_row(rng, language) for language in WORDS for _ in range(ROWS_PER_LANGUAGE)]
    train = pd.DataFrame(rows)
    test = pd.DataFrame([_row(rng, "hindi") for _ in range(TEST_ROWS)])
    test = test.drop(columns=["answer_text", "answer_start"])
    sample = pd.DataFrame({"id": test["id"], "PredictionString": ""})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    return train[["id", "answer_text"]].rename(columns={"answer_text": "PredictionString"})
