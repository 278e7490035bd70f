"""Shared pieces of the text populations: vectorised corpora and probability helpers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

VECTORIZERS = {
    "binary words top 2k": lambda: CountVectorizer(binary=True, max_features=2000),
    "word counts": lambda: CountVectorizer(min_df=2),
    "tf-idf words": lambda: TfidfVectorizer(min_df=2, sublinear_tf=True),
    "tf-idf 1-2 grams": lambda: TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, max_df=0.9, sublinear_tf=True
    ),
    "tf-idf char 2-5": lambda: TfidfVectorizer(
        analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True, max_features=300_000
    ),
}


@dataclass(frozen=True)
class Corpus:
    """One vectorisation of the train and test texts."""

    name: str
    train: sparse.csr_matrix
    test: sparse.csr_matrix


def vectorise(train_text: pd.Series, test_text: pd.Series, names: Sequence[str]) -> list[Corpus]:
    corpora = []
    for name in names:
        vectorizer = VECTORIZERS[name]()
        x_train = sparse.csr_matrix(vectorizer.fit_transform(train_text))
        corpora.append(Corpus(name, x_train, sparse.csr_matrix(vectorizer.transform(test_text))))
    return corpora


def normalised(probabilities: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """Rows clipped below at ``floor`` and rescaled to sum to exactly 1."""
    clipped = np.clip(probabilities, floor, None)
    return clipped / clipped.sum(axis=1, keepdims=True)
