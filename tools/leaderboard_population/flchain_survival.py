"""Reference population for ``flchain-survival`` (C-index): single markers to boosted hazards."""

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
from sklearn.linear_model import LogisticRegression, PoissonRegressor
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import (
    Candidate,
    Entry,
    encoder,
    rank_average,
    read_public,
    subsample,
)

FEATURES = ["age", "sex", "sample_yr", "kappa", "lambda", "flc_grp", "creatinine", "mgus"]

DEATH_CLASSIFIERS = [
    Candidate("knn k=50 on death", "knn", lambda s: KNeighborsClassifier(50)),
    Candidate(
        "tree depth=4 on death",
        "decision tree",
        lambda s: DecisionTreeClassifier(max_depth=4, random_state=s),
    ),
    Candidate("logreg on death", "linear", lambda s: LogisticRegression(max_iter=2000)),
    Candidate(
        "random forest on death",
        "forest",
        lambda s: RandomForestClassifier(100, min_samples_leaf=20, random_state=s, n_jobs=1),
        encoding="tree",
    ),
    Candidate(
        "hgb on death",
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(max_iter=150, learning_rate=0.05, random_state=s),
        encoding="tree",
    ),
]
HAZARD_MODELS = [
    Candidate(
        "poisson hazard glm", "linear", lambda s: PoissonRegressor(alpha=1e-4, max_iter=2000)
    ),
    Candidate(
        "poisson hazard glm, splines",
        "linear",
        lambda s: PoissonRegressor(alpha=1e-3, max_iter=500),
        encoding="spline",
    ),
    Candidate(
        "boosted poisson hazard",
        "gradient boosting",
        lambda s: HistGradientBoostingRegressor(
            loss="poisson",
            max_iter=300,
            learning_rate=0.03,
            max_leaf_nodes=8,
            min_samples_leaf=50,
            random_state=s,
        ),
        encoding="tree",
    ),
]
SUBSETS = {
    "age only": ["age"],
    "age, kappa, lambda": ["age", "kappa", "lambda"],
    "no creatinine": [f for f in FEATURES if f != "creatinine"],
    "all features": FEATURES,
}


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``flchain-survival``."""
    train, test, sample = read_public(public)
    yield Entry("constant", "constant", sample.assign(risk=0.0))
    yield Entry("age", "rule", sample.assign(risk=test["age"]))
    yield Entry("free light chain group", "rule", sample.assign(risk=test["flc_grp"]))
    yield Entry("kappa + lambda", "rule", sample.assign(risk=test["kappa"] + test["lambda"]))
    yield Entry(
        "age + 2 x flc group", "rule", sample.assign(risk=test["age"] + 2 * test["flc_grp"])
    )
    kept: dict[str, list[np.ndarray]] = {}
    for subset, columns in SUBSETS.items():
        for rows, seed in ((0.1, 1), (1.0, 0)):
            for candidate in DEATH_CLASSIFIERS:
                risk = _fit(candidate, train, test, columns, rows, seed, hazard=False)
                yield _entry(candidate, subset, rows, risk, sample)
            for candidate in HAZARD_MODELS:
                risk = _fit(candidate, train, test, columns, rows, seed, hazard=True)
                if subset == "all features" and rows == 1.0:
                    kept[candidate.name] = [risk]
                yield _entry(candidate, subset, rows, risk, sample)
    for seed in (1, 2, 3):
        risk = _fit(HAZARD_MODELS[2], train, test, FEATURES, 0.9, seed, hazard=True)
        kept[HAZARD_MODELS[2].name].append(risk)
        yield _entry(HAZARD_MODELS[2], "all features", 0.9, risk, sample, seed)
    blend = rank_average([p for ps in kept.values() for p in ps])
    yield Entry("rank blend of hazard models", "ensemble", sample.assign(risk=blend))
    spline_boost = rank_average(
        [*kept["poisson hazard glm, splines"], *kept["boosted poisson hazard"]]
    )
    yield Entry("rank blend splines + boosting", "ensemble", sample.assign(risk=spline_boost))


def _entry(
    candidate: Candidate,
    subset: str,
    rows: float,
    risk: np.ndarray,
    sample: pd.DataFrame,
    seed: int | None = None,
) -> Entry:
    share = "" if rows >= 1.0 else f" rows={rows:.0%}"
    label = "" if seed is None else f" seed={seed}"
    return Entry(
        f"{candidate.name} [{subset}]{share}{label}",
        candidate.family,
        sample.assign(risk=np.round(risk, 8)),
    )


def _fit(
    candidate: Candidate,
    train: pd.DataFrame,
    test: pd.DataFrame,
    columns: list[str],
    rows: float,
    seed: int,
    hazard: bool,
) -> np.ndarray:
    """Risk scores: P(death) from a classifier, or a hazard rate from a Poisson model."""
    part = train.iloc[subsample(len(train), rows, seed)]
    model = make_pipeline(encoder(part[columns], candidate.encoding), candidate.make(seed))
    if not hazard:
        model.fit(part[columns], part["death"])
        return np.asarray(model.predict_proba(test[columns]))[:, 1]
    time = part["futime"].clip(lower=30).to_numpy(dtype=float)
    scale = time.mean()
    weight_name = f"{model.steps[-1][0]}__sample_weight"
    model.fit(part[columns], part["death"] / time * scale, **{weight_name: time / scale})
    return np.asarray(model.predict(test[columns]))
