"""Reference population for ``titanic``: rules of thumb, linear models, kNN, trees, boosting.

The strongest entries average the probabilities of a tree model and a logistic regression: with
five features the two see different structure (interactions versus smooth trends), and their
average beats either alone. The test set has 393 rows, so AUC differences below about 0.01 are
within noise.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import (
    Candidate,
    Entry,
    Variant,
    fit_predict,
    rank_average,
    read_public,
    tabular_predictions,
)

CANDIDATES = [
    Candidate("naive bayes", "naive bayes", lambda s: GaussianNB()),
    Candidate("knn k=5", "knn", lambda s: KNeighborsClassifier(5)),
    Candidate("knn k=25", "knn", lambda s: KNeighborsClassifier(25)),
    Candidate(
        "tree depth=3",
        "decision tree",
        lambda s: DecisionTreeClassifier(max_depth=3, random_state=s),
    ),
    Candidate("logreg", "linear", lambda s: LogisticRegression(max_iter=1000)),
    Candidate(
        "random forest 300 leaf=3",
        "forest",
        lambda s: RandomForestClassifier(300, min_samples_leaf=3, random_state=s),
        encoding="tree",
    ),
    Candidate(
        "hgb depth=3 lr=0.05",
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(
            max_depth=3, learning_rate=0.05, max_iter=200, random_state=s
        ),
        encoding="tree",
    ),
]
VARIANTS = [
    Variant(rows=0.3, seed=1),
    Variant(rows=0.6, seed=3),
    Variant(columns=0.8, seed=2),
    Variant(columns=0.6, seed=4),
    Variant(seed=0),
]
SEEDS = 5
LOGREG = Candidate("logreg C=0.5", "linear", lambda s: LogisticRegression(C=0.5, max_iter=2000))
TREE_MODELS = [
    Candidate(
        "early-stopped hgb",
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(
            max_iter=600,
            learning_rate=0.06,
            min_samples_leaf=20,
            l2_regularization=1.0,
            early_stopping=True,
            validation_fraction=0.15,
            n_iter_no_change=30,
            categorical_features=["pclass", "sex"],
            random_state=s,
        ),
        encoding="category",
    ),
    Candidate(
        "gradient boosting 200 subsample=0.7",
        "gradient boosting",
        lambda s: make_pipeline(
            SimpleImputer(strategy="constant", fill_value=-1),
            GradientBoostingClassifier(
                n_estimators=200, learning_rate=0.03, max_depth=3, subsample=0.7, random_state=s
            ),
        ),
        encoding="tree",
    ),
    Candidate(
        "random forest 500 leaf=5",
        "forest",
        lambda s: RandomForestClassifier(500, min_samples_leaf=5, random_state=s),
        encoding="tree",
    ),
]


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``titanic``."""
    train, test, sample = read_public(public)
    yield Entry("constant 0.5", "constant", sample.assign(survived=0.5))
    yield Entry("women survive", "rule", sample.assign(survived=(test["sex"] == "female") * 1.0))
    class_rank = test["pclass"].map({"1st": 2, "2nd": 1, "3rd": 0})
    rule = (test["sex"] == "female") * 3.0 + class_rank
    yield Entry("women and upper classes first", "rule", sample.assign(survived=rule / 5.0))
    blend = []
    for name, family, proba in tabular_predictions(
        CANDIDATES, VARIANTS, train, "survived", test, "proba"
    ):
        if name.endswith("seed=0") and family in ("linear", "forest", "gradient boosting"):
            blend.append(proba[:, 1])
        yield Entry(name, family, sample.assign(survived=np.round(proba[:, 1], 6)))
    yield Entry(
        "rank blend logreg+forest+hgb", "ensemble", sample.assign(survived=rank_average(blend))
    )
    yield from _tree_plus_linear(train, test, sample)


def _tree_plus_linear(
    train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame
) -> Iterator[Entry]:
    """Even probability averages of one tree model (per seed) and a logistic regression."""
    x_train, x_test, y = (
        train.drop(columns=["id", "survived"]),
        test.drop(columns="id"),
        train["survived"],
    )
    linear = fit_predict(LOGREG, 0, x_train, y, x_test, "proba")[:, 1]
    for candidate in TREE_MODELS:
        trees = []
        for seed in range(SEEDS):
            tree = fit_predict(candidate, seed, x_train, y, x_test, "proba")[:, 1]
            trees.append(tree)
            name = f"{candidate.name} seed={seed} + logreg, mean probability"
            yield Entry(name, "ensemble", sample.assign(survived=np.round((tree + linear) / 2, 6)))
        bag = np.mean(trees, axis=0)
        name = f"{SEEDS}-seed {candidate.name} bag + logreg, mean probability"
        yield Entry(name, "ensemble", sample.assign(survived=np.round((bag + linear) / 2, 6)))
