"""Reference population for ``titanic``: rules of thumb, linear models, kNN, trees, boosting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import (
    Candidate,
    Entry,
    Variant,
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
VARIANTS = [Variant(rows=0.3, seed=1), Variant(columns=0.8, seed=2), Variant(seed=0)]


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
