"""Split Kaggle's text-normalisation tokens by sentence (the English and Russian competitions).

Kaggle's test answers were never published, so the labelled ``<language>_train.csv`` is split
again, by sentence so that no sentence is shared: 10 % of the sentence ids (in order of first
appearance) become the test set, drawn with scikit-learn's ``train_test_split`` at
``random_state=0``, the split MLE-bench uses, so scores compare with published MLE-bench results.
Sentence ids are renumbered in file order: test sentences get ``0 … k - 1``, the ids MLE-bench
gives them (so test token ids ``<sentence>_<token>`` are MLE-bench's), and train sentences
continue from ``k`` (MLE-bench numbers train from 0 as well, so its train and test ids collide).
Every value is read and written as the text it is: tokens such as ``NA``, ``null``, ``nan`` or
``None`` stay those strings. The sample submission copies each token's ``before`` as its
``after``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv

COLUMNS = ("sentence_id", "token_id", "class", "before", "after")
TEST_FRACTION = 0.1
SEED = 0


def prepare_by_sentence(raw: Path, public: Path, private: Path, language: str) -> None:
    """Split Kaggle's training tokens of ``language`` (``en``, ``ru``) by sentence; write
    tokens, answers and the sample submission."""
    source = _read_train(raw / f"{language}_train.csv")
    sentences = np.asarray(pd.unique(source["sentence_id"]), dtype=object)
    _, test_sentences = train_test_split(sentences, test_size=TEST_FRACTION, random_state=SEED)
    in_test = source["sentence_id"].isin(set(test_sentences)).to_numpy()
    test = _renumbered(source[in_test], first=0)
    train = _renumbered(source[~in_test], first=test["sentence_id"].nunique())
    ids = test["sentence_id"].astype(str) + "_" + test["token_id"]
    answers = pd.DataFrame({"id": ids, "after": test["after"]})
    sample = pd.DataFrame({"id": ids, "after": test["before"]})
    test = test.drop(columns=["class", "after"])
    check_answers(test.assign(id=ids), answers, sample, "id")
    write_csv(train, public / f"{language}_train.csv")
    write_csv(test, public / f"{language}_test_2.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _read_train(path: Path) -> pd.DataFrame:
    raw_file(path)
    # Text as it is: pandas' default would read the tokens "NA", "null", "nan" … as missing.
    source = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
    require(tuple(source.columns) == COLUMNS, f"{path.name} columns are {list(source.columns)}")
    return source


def _renumbered(rows: pd.DataFrame, first: int) -> pd.DataFrame:
    """Sentences numbered from ``first`` in order of first appearance."""
    codes, _ = pd.factorize(rows["sentence_id"])
    return rows.assign(sentence_id=first + codes.astype(np.int64)).reset_index(drop=True)
