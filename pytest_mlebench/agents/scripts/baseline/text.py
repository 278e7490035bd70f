"""Models of a free-text column: tf-idf of words and characters with a linear SVM and naive Bayes
(classification), or with ridge regression."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from .features import Features
from .models import FitPredict, full_proba
from .task import Task

LOG = logging.getLogger("baseline")


def _text_matrices(task: Task, text: str) -> tuple[Any, Any, Any, Any]:
    """Word 1-2 gram and character tf-idf matrices of train and test."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer

    train_text = task.train[text].fillna("").astype(str)
    test_text = task.test[text].fillna("").astype(str)
    words = TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, max_df=0.9, sublinear_tf=True, max_features=300_000
    )
    chars = TfidfVectorizer(
        analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True, max_features=200_000
    )
    words_train, words_test = words.fit_transform(train_text), words.transform(test_text)
    both_train = hstack([words_train, chars.fit_transform(train_text)]).tocsr()
    both_test = hstack([words_test, chars.transform(test_text)]).tocsr()
    LOG.info("tf-idf: %d features (%.0f s)", both_train.shape[1], task.env.elapsed())
    return words_train.tocsr(), words_test.tocsr(), both_train, both_test


def text_classifiers(task: Task, features: Features) -> list[tuple[str, FitPredict]]:
    """A calibrated linear SVM on words and characters, and naive Bayes on words."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.svm import LinearSVC

    assert features.text is not None
    words_train, words_test, both_train, both_test = _text_matrices(task, features.text)

    def svm(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        model = CalibratedClassifierCV(LinearSVC(C=0.5), cv=3, method="sigmoid")
        model.fit(both_train[fit], y[fit])
        return full_proba(model, both_test if hold is None else both_train[hold], int(y.max()) + 1)

    def bayes(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        model = MultinomialNB(alpha=0.02).fit(words_train[fit], y[fit])
        return full_proba(
            model, words_test if hold is None else words_train[hold], int(y.max()) + 1
        )

    return [("tfidf+svm", svm), ("tfidf+naive bayes", bayes)]


def text_regressor(task: Task, features: Features) -> FitPredict:
    """Ridge regression on word 1-2 gram tf-idf."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import Ridge

    assert features.text is not None
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    x_train = vectorizer.fit_transform(task.train[features.text].fillna("").astype(str))
    x_test = vectorizer.transform(task.test[features.text].fillna("").astype(str))

    def run(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        model = Ridge(alpha=1.0).fit(x_train[fit], y[fit])
        return np.asarray(model.predict(x_test if hold is None else x_train[hold]))

    return run
