"""Reference population for ``diamond-cut`` (quadratic weighted kappa): classes and thresholds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import cohen_kappa_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import (
    Candidate,
    Entry,
    Variant,
    fit_predict,
    read_public,
    tabular_predictions,
)

CLASSIFIERS = [
    Candidate("naive bayes", "naive bayes", lambda s: GaussianNB()),
    Candidate("knn k=15", "knn", lambda s: KNeighborsClassifier(15)),
    Candidate(
        "tree depth=5",
        "decision tree",
        lambda s: DecisionTreeClassifier(max_depth=5, random_state=s),
    ),
    Candidate("logreg", "linear", lambda s: LogisticRegression(max_iter=1000)),
    Candidate(
        "random forest 100",
        "forest",
        lambda s: RandomForestClassifier(100, min_samples_leaf=3, random_state=s, n_jobs=1),
        encoding="tree",
    ),
    Candidate(
        "hgb classifier",
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(max_iter=200, random_state=s),
        encoding="tree",
    ),
]
VARIANTS = [
    Variant(rows=0.02, seed=1),
    Variant(rows=0.1, seed=2),
    Variant(rows=0.3, seed=4),
    Variant(rows=0.6, seed=5),
    Variant(columns=0.5, seed=3),
    Variant(seed=0),
]
REGRESSORS = [
    Candidate("ridge", "linear", lambda s: Ridge(alpha=1.0)),
    Candidate(
        "hgb regressor",
        "gradient boosting",
        lambda s: HistGradientBoostingRegressor(max_iter=300, random_state=s),
        encoding="tree",
    ),
    Candidate(
        "hgb regressor lr=0.05 leaves=63 iters=800",
        "gradient boosting",
        lambda s: HistGradientBoostingRegressor(
            learning_rate=0.05, max_leaf_nodes=63, max_iter=800, random_state=s
        ),
        encoding="tree",
    ),
]


def engineer(frame: pd.DataFrame) -> pd.DataFrame:
    """Shape ratios that grading rules look at: depth and table against the girdle size."""
    out = frame.copy()
    width = (frame["x"] + frame["y"]).replace(0, np.nan) / 2
    out["xy_ratio"] = frame["x"] / frame["y"].replace(0, np.nan)
    out["depth_calc"] = frame["z"] / width
    out["depth_gap"] = frame["depth"] - 100 * out["depth_calc"]
    out["price_per_carat"] = frame["price"] / frame["carat"]
    return out


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``diamond-cut``."""
    train, test, sample = read_public(public)
    yield Entry("most common grade", "constant", sample.assign(cut=5))
    yield Entry(
        "table under 57 is Ideal", "rule", sample.assign(cut=np.where(test["table"] < 57, 5, 4))
    )
    for name, family, labels in tabular_predictions(
        CLASSIFIERS, VARIANTS, train, "cut", test, "label"
    ):
        yield Entry(name, family, sample.assign(cut=labels.astype(int)))
    for label, (x_train, x_test) in {
        "rounded": (train, test),
        "engineered, rounded": (engineer(train), engineer(test)),
    }.items():
        for candidate in REGRESSORS:
            yield _rounded(candidate, label, x_train, x_test, sample)
            yield _thresholded(candidate, label, x_train, x_test, sample)


def _features(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=["id", "cut"], errors="ignore")


def _rounded(
    candidate: Candidate, label: str, train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame
) -> Entry:
    grade = fit_predict(candidate, 0, _features(train), train["cut"], _features(test), "value")
    cut = np.clip(np.rint(grade), 1, 5).astype(int)
    return Entry(f"{candidate.name} {label}", candidate.family, sample.assign(cut=cut))


def _thresholded(
    candidate: Candidate, label: str, train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame
) -> Entry:
    """Regression with cut points tuned on a holdout for kappa, then refit on all rows."""
    rng = np.random.default_rng(0)
    hold = rng.random(len(train)) < 0.2
    part, rest = train[~hold], train[hold]
    grade = fit_predict(candidate, 0, _features(part), part["cut"], _features(rest), "value")
    cuts = _tune_cuts(grade, rest["cut"].to_numpy())
    full = fit_predict(candidate, 0, _features(train), train["cut"], _features(test), "value")
    cut = np.digitize(full, cuts) + 1
    name = f"{candidate.name} {label.replace('rounded', 'tuned cut points')}"
    return Entry(
        name,
        "ensemble" if "engineered" in label else candidate.family,
        sample.assign(cut=cut.astype(int)),
    )


def _tune_cuts(grade: np.ndarray, truth: np.ndarray) -> np.ndarray:
    cuts = np.array([1.5, 2.5, 3.5, 4.5])
    for _ in range(3):
        for i in range(len(cuts)):
            options = cuts[i] + np.linspace(-0.5, 0.5, 21)
            scores = []
            for value in options:
                trial = cuts.copy()
                trial[i] = value
                trial.sort()
                scores.append(
                    cohen_kappa_score(truth, np.digitize(grade, trial) + 1, weights="quadratic")
                )
            cuts[i] = options[int(np.argmax(scores))]
            cuts.sort()
    return cuts
