"""Kaggle's download of google-quest-challenge: one zip of three CSVs.

``google-quest-challenge.zip`` holds ``train.csv`` (``qa_id``, 10 text columns, 30 targets),
``test.csv`` (the 11 columns without targets) and ``sample_submission.csv`` (``qa_id`` + 30
targets). ``qa_id`` is an integer; the question and answer bodies hold commas, quotes and line
breaks; every target is a rater average such as 0.333333 or 0.666667. Each synthetic target shows
in the text (a word per rating level in the answer), so the text predicts the answers. As in
Kaggle's data, ``question_type_spelling`` is almost always 0: its few other values sit where the
10 % split keeps them in train, so prepare's row exchange runs.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

COMPETITION = "google-quest-challenge"
TEXT = [
    "question_title", "question_body", "question_user_name", "question_user_page", "answer",
    "answer_user_name", "answer_user_page", "url", "category", "host",
]  # fmt: skip
TARGETS = [
    "question_asker_intent_understanding", "question_body_critical", "question_conversational",
    "question_expect_short_answer", "question_fact_seeking",
    "question_has_commonly_accepted_answer", "question_interestingness_others",
    "question_interestingness_self", "question_multi_intent", "question_not_really_a_question",
    "question_opinion_seeking", "question_type_choice", "question_type_compare",
    "question_type_consequence", "question_type_definition", "question_type_entity",
    "question_type_instructions", "question_type_procedure", "question_type_reason_explanation",
    "question_type_spelling", "question_well_written", "answer_helpful",
    "answer_level_of_information", "answer_plausible", "answer_relevance", "answer_satisfaction",
    "answer_type_instructions", "answer_type_procedure", "answer_type_reason_explanation",
    "answer_well_written",
]  # fmt: skip
RARE = "question_type_spelling"
LEVELS = (0.0, 0.333333, 0.5, 0.666667, 1.0)
TRAIN_ROWS = 120
TEST_ROWS = 8
RARE_ROWS = 10
HOSTS = ("superuser.com", "math.stackexchange.com", "english.stackexchange.com")
CATEGORIES = ("TECHNOLOGY", "STACKOVERFLOW", "CULTURE", "SCIENCE", "LIFE_ARTS")


def _text(rng: np.random.Generator, targets: np.ndarray, rows: int) -> dict[str, list[str]]:
    """Text columns; the answer names every target's level, so the text predicts the targets."""
    words = [
        " ".join(f"t{j}l{LEVELS.index(level)}" for j, level in enumerate(row)) for row in targets
    ]
    users = [f"user{int(n)}" for n in rng.integers(1, 10_000, size=rows)]
    answerers = users[::-1]
    hosts = rng.choice(HOSTS, rows)
    pages = [f"https://{h}/users/{u}" for h, u in zip(hosts, answerers, strict=True)]
    return {
        "question_title": [f"How do I fix {w}?" for w in rng.choice(["this", "that"], rows)],
        "question_body": [f'I tried "this", and that,\nbut {n} failed.' for n in range(rows)],
        "question_user_name": users,
        "question_user_page": [f"https://{h}/users/{u}" for h, u in zip(hosts, users, strict=True)],
        "answer": [f"Try this:\n{w}" for w in words],
        "answer_user_name": answerers,
        "answer_user_page": pages,
        "url": [f"https://{h}/questions/{n}" for n, h in enumerate(hosts)],
        "category": list(rng.choice(CATEGORIES, rows)),
        "host": list(hosts),
    }


def _targets(rng: np.random.Generator, rows: int) -> np.ndarray:
    values = rng.choice(LEVELS, size=(rows, len(TARGETS)))
    values[:, TARGETS.index(RARE)] = 0.0
    # Rows of Kaggle's file that the 10 % split keeps in train get the rare non-zero values.
    kept, _ = train_test_split(np.arange(rows), test_size=0.1, random_state=0)
    values[kept[:RARE_ROWS], TARGETS.index(RARE)] = rng.choice(LEVELS[1:], size=RARE_ROWS)
    return values


def make_download(folder: Path, rng: np.random.Generator) -> None:
    targets = _targets(rng, TRAIN_ROWS)
    ids = rng.permutation(9_000)[: TRAIN_ROWS + TEST_ROWS]
    train = pd.DataFrame({"qa_id": ids[:TRAIN_ROWS], **_text(rng, targets, TRAIN_ROWS)})
    train[TARGETS] = targets
    test_targets = rng.choice(LEVELS, size=(TEST_ROWS, len(TARGETS)))
    test = pd.DataFrame({"qa_id": ids[TRAIN_ROWS:], **_text(rng, test_targets, TEST_ROWS)})
    sample = pd.DataFrame({"qa_id": test["qa_id"], **{t: 0.00308 for t in TARGETS}})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["qa_id", *TARGETS], dtype={"qa_id": str})
