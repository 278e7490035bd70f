"""Prepare ``google-quest-challenge`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (6,079 question-answer
pairs, 11 text columns and 30 targets) is split again: 10 % of its rows become the test set, drawn
with scikit-learn's ``train_test_split`` at ``random_state=0`` over the file's rows in their order,
the split MLE-bench uses. A Spearman correlation needs answers that vary, and
``question_type_spelling`` is almost always 0: when every held-out row has the same value, the
first held-out row and the first train row (in split order) whose value is not 0 change places,
as the original does, so the same rows are held out and scores compare with published MLE-bench
results. The sample submission ramps every column from 0 to 1 down the test rows (the original's),
valid and uninformative.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "qa_id"
FEATURES = [
    ID, "question_title", "question_body", "question_user_name", "question_user_page", "answer",
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
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; the answers are the 30 targets of the held-out rows."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == FEATURES + TARGETS, f"train.csv columns {list(source.columns)}")
    numbers = source[TARGETS].apply(pd.to_numeric, errors="coerce")
    require(bool(numbers.notna().all().all()), "train.csv targets must all be numbers")
    source[TARGETS] = numbers
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    train, test = train.reset_index(drop=True), test.reset_index(drop=True)
    if test[RARE].nunique() == 1:
        _swap_first_varying_row(train, test)
    for column in TARGETS:
        require(test[column].nunique() > 1, f"held-out column {column} is constant")
    ramp = np.linspace(0.0, 1.0, len(test))
    sample = pd.DataFrame({ID: test[ID], **{column: ramp for column in TARGETS}})
    write_prepared(
        public,
        private,
        train=train,
        test=test[FEATURES],
        answers=test[[ID, *TARGETS]],
        sample=sample,
        id_column=ID,
    )


def _swap_first_varying_row(train: pd.DataFrame, test: pd.DataFrame) -> None:
    """Exchange test row 0 with the first train row whose rare target is not 0, in place."""
    candidates = np.flatnonzero(train[RARE].to_numpy() != 0)
    require(candidates.size > 0, f"no train row has {RARE} other than 0")
    row = int(candidates[0])
    held_out = test.iloc[0].copy()
    test.iloc[0] = train.iloc[row]
    train.iloc[row] = held_out
