"""Reference population for ``digits``: constant, linear, kNN, trees, SVMs and ensembles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import (
    Candidate,
    Entry,
    Variant,
    read_public,
    tabular_predictions,
)

CANDIDATES = [
    Candidate("gaussian naive bayes", "naive bayes", lambda s: GaussianNB()),
    Candidate(
        "tree depth=4",
        "decision tree",
        lambda s: DecisionTreeClassifier(max_depth=4, random_state=s),
    ),
    Candidate("tree", "decision tree", lambda s: DecisionTreeClassifier(random_state=s)),
    Candidate("logreg C=0.001", "linear", lambda s: LogisticRegression(C=0.001, max_iter=500)),
    Candidate("logreg C=1", "linear", lambda s: LogisticRegression(C=1.0, max_iter=2000)),
    Candidate("knn k=25", "knn", lambda s: KNeighborsClassifier(25)),
    Candidate("knn k=3", "knn", lambda s: KNeighborsClassifier(3)),
    Candidate("random forest 200", "forest", lambda s: RandomForestClassifier(200, random_state=s)),
    Candidate("extra trees 300", "forest", lambda s: ExtraTreesClassifier(300, random_state=s)),
    Candidate("svm rbf C=10", "svm", lambda s: SVC(C=10.0)),
]
VARIANTS = [Variant(rows=0.1, seed=1), Variant(rows=0.3, seed=2), Variant(seed=0)]


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``digits``."""
    train, test, sample = read_public(public)
    majority = int(train["label"].mode().iloc[0])
    yield Entry("majority class", "constant", sample.assign(label=majority))
    votes = []
    for name, family, labels in tabular_predictions(
        CANDIDATES, VARIANTS, train, "label", test, "label"
    ):
        if name.endswith("seed=0") and family in ("svm", "knn", "forest"):
            votes.append(labels)
        yield Entry(name, family, sample.assign(label=labels.astype(int)))
    yield Entry("vote svm+knn+forests", "ensemble", sample.assign(label=_vote(votes)))


def _vote(votes: list[np.ndarray]) -> np.ndarray:
    stacked = np.stack(votes).astype(int)
    return np.array([np.bincount(column, minlength=10).argmax() for column in stacked.T])
