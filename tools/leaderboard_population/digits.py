"""Reference population for ``digits``: constant, linear, kNN, trees, SVMs and ensembles.

The strongest entries tune an RBF SVM by 5-fold cross-validation on the training images and
train on the images plus copies shifted by one pixel in each direction (a classic augmentation
for handwritten digits), alone and in a vote with a multilayer perceptron and kNN.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
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
VARIANTS = [
    Variant(rows=0.1, seed=1),
    Variant(rows=0.3, seed=2),
    Variant(rows=0.6, seed=3),
    Variant(columns=0.7, seed=4),
    Variant(seed=0),
]
SVM_GRID = {"C": [1.0, 10.0, 100.0], "gamma": [0.01, 0.03, 0.1]}
SHIFTS = ((1, 0), (-1, 0), (0, 1), (0, -1))


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
    yield from _augmented(train, test, sample)


def _augmented(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> Iterator[Entry]:
    """A cross-validated SVM, then models trained on one-pixel shifts of the images too."""
    columns = [c for c in test.columns if c != "id"]
    x, x_test = train[columns].to_numpy(float) / 16.0, test[columns].to_numpy(float) / 16.0
    y = train["label"].to_numpy()
    search = GridSearchCV(SVC(), SVM_GRID, cv=5).fit(x, y)
    tuned = ", ".join(f"{k}={v:g}" for k, v in sorted(search.best_params_.items()))
    yield Entry(f"svm rbf tuned by 5-fold cv ({tuned})", "svm", _labels(sample, search, x_test))
    x_aug = np.vstack([x, *(_shift(x, dx, dy) for dx, dy in SHIFTS)])
    y_aug = np.tile(y, 1 + len(SHIFTS))
    models = {
        f"svm rbf ({tuned}) + shifted copies": ("svm", SVC(**search.best_params_)),
        "knn k=3 + shifted copies": ("knn", KNeighborsClassifier(3)),
        **{
            f"mlp 256 + shifted copies seed={seed}": (
                "neural network",
                MLPClassifier((256,), alpha=1e-3, max_iter=500, random_state=seed),
            )
            for seed in range(3)
        },
    }
    votes = []
    for name, (family, model) in models.items():
        labels = np.asarray(model.fit(x_aug, y_aug).predict(x_test))
        votes.append(labels)
        yield Entry(name, family, sample.assign(label=labels.astype(int)))
    yield Entry("vote of the shifted-copy models", "ensemble", sample.assign(label=_vote(votes)))


def _labels(sample: pd.DataFrame, model: GridSearchCV, x_test: np.ndarray) -> pd.DataFrame:
    return sample.assign(label=np.asarray(model.predict(x_test)).astype(int))


def _shift(x: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The 8x8 images moved by one pixel (dx right, dy down), blank where they moved from."""
    images = x.reshape(-1, 8, 8)
    shifted = np.zeros_like(images)
    rows, cols = slice(max(dy, 0), 8 + min(dy, 0)), slice(max(dx, 0), 8 + min(dx, 0))
    source_rows, source_cols = (
        slice(max(-dy, 0), 8 + min(-dy, 0)),
        slice(max(-dx, 0), 8 + min(-dx, 0)),
    )
    shifted[:, rows, cols] = images[:, source_rows, source_cols]
    return shifted.reshape(-1, 64)


def _vote(votes: list[np.ndarray]) -> np.ndarray:
    stacked = np.stack(votes).astype(int)
    return np.array([np.bincount(column, minlength=10).argmax() for column in stacked.T])
