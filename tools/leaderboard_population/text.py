"""Shared pieces of the text populations (``newsgroups-20``, ``fine-food-reviews``).

- ``VECTORIZERS``: the named word, character and negation-marked vectorisations;
- ``vectorise`` / ``joined``: fit them on the train texts once and reuse the matrices;
- ``cross_fit``: k-fold out-of-fold scores on train plus the fold models' mean score on test,
  which entries use to choose hyperparameters, calibrations and blend weights on train only;
- ``normalised``: probability rows clipped and rescaled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.model_selection import StratifiedKFold

# Words plus "!" and "?" as tokens of their own (they carry sentiment).
WORDS_AND_MARKS = r"[\w']+|[!?]"
_TAGS = re.compile(r"<[^>]*>")
_NEGATED = re.compile(
    r"\b(?:not|no|never|nothing|hardly|\w+n't)\b([^.!?,;:]*)", flags=re.IGNORECASE
)


def mark_negation(text: str) -> str:
    """Lower case, HTML tags dropped, and ``not_`` before each word that follows a negation
    up to the next punctuation mark ("not very good." -> "not not_very not_good.")."""

    def _mark(match: re.Match[str]) -> str:
        head = match.group(0)[: match.start(1) - match.start(0)]
        return head + re.sub(r"[\w']+", lambda word: "not_" + word.group(0), match.group(1))

    return _NEGATED.sub(_mark, _TAGS.sub(" ", text.lower()))


VECTORIZERS: dict[str, Callable[[], Any]] = {
    "binary words top 2k": lambda: CountVectorizer(binary=True, max_features=2000),
    "word counts": lambda: CountVectorizer(min_df=2),
    "tf-idf words": lambda: TfidfVectorizer(min_df=2, sublinear_tf=True),
    "tf-idf 1-2 grams": lambda: TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, max_df=0.9, sublinear_tf=True
    ),
    "tf-idf char 2-5": lambda: TfidfVectorizer(
        analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True, max_features=300_000
    ),
    "tf-idf char 1-6": lambda: TfidfVectorizer(
        analyzer="char", ngram_range=(1, 6), min_df=3, sublinear_tf=True, max_features=300_000
    ),
    "negation-marked tf-idf 1-3 grams": lambda: TfidfVectorizer(
        preprocessor=mark_negation,
        token_pattern=WORDS_AND_MARKS,
        ngram_range=(1, 3),
        min_df=2,
        max_df=0.9,
        sublinear_tf=True,
    ),
    "negation-marked binary 1-3 grams": lambda: CountVectorizer(
        preprocessor=mark_negation,
        token_pattern=WORDS_AND_MARKS,
        ngram_range=(1, 3),
        min_df=2,
        binary=True,
    ),
}


@dataclass(frozen=True)
class Corpus:
    """One vectorisation of the train and test texts."""

    name: str
    train: sparse.csr_matrix
    test: sparse.csr_matrix


def vectorise(train_text: pd.Series, test_text: pd.Series, names: Sequence[str]) -> list[Corpus]:
    """Each named vectoriser fitted on the train texts, applied to train and test."""
    corpora = []
    for name in names:
        vectorizer = VECTORIZERS[name]()
        x_train = sparse.csr_matrix(vectorizer.fit_transform(train_text))
        corpora.append(Corpus(name, x_train, sparse.csr_matrix(vectorizer.transform(test_text))))
    return corpora


def joined(name: str, parts: Sequence[Corpus]) -> Corpus:
    """The corpora's feature columns side by side (e.g. words + characters)."""
    return Corpus(
        name,
        sparse.hstack([p.train for p in parts]).tocsr(),
        sparse.hstack([p.test for p in parts]).tocsr(),
    )


@dataclass(frozen=True)
class CrossFit:
    """Out-of-fold scores for every train row and the fold models' mean scores on test."""

    oof: np.ndarray
    test: np.ndarray


def folds(y: np.ndarray, k: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified ``k``-fold (fit rows, held-out rows) pairs over the train rows."""
    return list(StratifiedKFold(k, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))


def cross_fit(
    make: Callable[[], Any],
    corpus: Corpus,
    y: np.ndarray,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    score: Callable[[Any, sparse.csr_matrix], np.ndarray],
) -> CrossFit:
    """Fit ``make()`` once per fold; ``score(model, x)`` gives the scores kept."""
    oof: np.ndarray | None = None
    test: np.ndarray | None = None
    for fit, held in splits:
        model = make().fit(corpus.train[fit], y[fit])
        held_scores = score(model, corpus.train[held])
        if oof is None:
            oof = np.zeros((corpus.train.shape[0], *held_scores.shape[1:]))
        oof[held] = held_scores
        test_scores = score(model, corpus.test) / len(splits)
        test = test_scores if test is None else test + test_scores
    assert oof is not None and test is not None
    return CrossFit(oof, test)


def normalised(probabilities: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """Rows clipped below at ``floor`` and rescaled to sum to exactly 1."""
    clipped = np.clip(probabilities, floor, None)
    return clipped / clipped.sum(axis=1, keepdims=True)
