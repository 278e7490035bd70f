"""Reference population for ``yeast-multilabel`` (mean column ROC-AUC): one model per label."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from sklearn.ensemble import (
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression
from sklearn.multioutput import ClassifierChain
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import Entry, feature_subset, mean_of, read_public, subsample

LABELS = [f"Class{i}" for i in range(1, 15)]
MODELS = {
    "naive bayes": ("naive bayes", lambda s: GaussianNB()),
    "tree depth=4": (
        "decision tree",
        lambda s: DecisionTreeClassifier(max_depth=4, random_state=s),
    ),
    "knn k=10": ("knn", lambda s: KNeighborsClassifier(10)),
    "knn k=40 distance": ("knn", lambda s: KNeighborsClassifier(40, weights="distance")),
    "logreg C=0.01": ("linear", lambda s: LogisticRegression(C=0.01, max_iter=2000)),
    "logreg C=1": ("linear", lambda s: LogisticRegression(C=1.0, max_iter=2000)),
    "random forest 100": (
        "forest",
        lambda s: RandomForestClassifier(100, min_samples_leaf=2, random_state=s, n_jobs=1),
    ),
    "extra trees 200": (
        "forest",
        lambda s: ExtraTreesClassifier(200, min_samples_leaf=2, random_state=s, n_jobs=1),
    ),
    "hgb lr=0.05 iters=150": (
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(
            learning_rate=0.05, max_iter=150, max_leaf_nodes=15, random_state=s
        ),
    ),
}
VARIANTS = [(0.15, 1.0, 1), (0.5, 1.0, 3), (1.0, 0.3, 2), (1.0, 0.6, 4), (1.0, 1.0, 0)]


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``yeast-multilabel``."""
    train, test, sample = read_public(public)
    features = [c for c in test.columns if c != "id"]
    scaler = StandardScaler().fit(train[features])
    x_all, x_test = scaler.transform(train[features]), scaler.transform(test[features])
    yield Entry("constant 0.5", "constant", sample)
    prior = {label: float(train[label].mean()) for label in LABELS}
    yield Entry("label frequencies", "constant", sample.assign(**prior))
    kept: dict[str, np.ndarray] = {}
    for name, (family, make) in MODELS.items():
        for rows, columns, seed in VARIANTS:
            keep_rows = subsample(len(train), rows, seed)
            keep_cols = [features.index(c) for c in feature_subset(features, columns, seed)]
            x_fit = x_all[np.ix_(keep_rows, keep_cols)]
            scores = {}
            for label in LABELS:
                model = make(seed).fit(x_fit, train[label].to_numpy()[keep_rows])
                scores[label] = model.predict_proba(x_test[:, keep_cols])[:, 1]
            share = "" if rows >= 1 and columns >= 1 else f" rows={rows:.0%} cols={columns:.0%}"
            if not share:
                kept[name] = np.column_stack([scores[label] for label in LABELS])
            yield Entry(f"{name} seed={seed}{share}", family, sample.assign(**scores))
    chain = ClassifierChain(
        LogisticRegression(C=0.1, max_iter=2000), order="random", random_state=0
    )
    chain.fit(x_all, train[LABELS].to_numpy())
    chained = chain.predict_proba(x_test)
    yield Entry("classifier chain logreg C=0.1", "linear", _frame(sample, chained))
    blends = {
        "logreg + random forest": ["logreg C=0.01", "random forest 100"],
        "forests + hgb": ["random forest 100", "extra trees 200", "hgb lr=0.05 iters=150"],
        "logreg + forests + hgb + knn": [
            "logreg C=0.01",
            "random forest 100",
            "extra trees 200",
            "hgb lr=0.05 iters=150",
            "knn k=40 distance",
        ],
    }
    for label, names in blends.items():
        yield Entry(f"blend {label}", "ensemble", _frame(sample, mean_of([kept[n] for n in names])))


def _frame(sample, scores: np.ndarray):  # type: ignore[no-untyped-def]
    return sample.assign(**{label: scores[:, i] for i, label in enumerate(LABELS)})
