"""Reference population for ``ames-house-prices`` (RMSE of log price): medians to tuned blends.

The strong tier works on engineered features (total area, ages, bathrooms, log areas) with the
log price as target: lasso on splines of the numerics, a support-vector regressor, polynomial
kernel ridge and Huber-loss gradient boosting, each over three row samples, then the classic
house-price blends of linear and boosted models (averaged in log space).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingRegressor,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import LassoCV, LinearRegression, Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.svm import SVR
from sklearn.tree import DecisionTreeRegressor

from leaderboard_population.common import (
    Candidate,
    Entry,
    Variant,
    log_target,
    mean_of,
    read_public,
    tabular_predictions,
)

TARGET = "Sale_Price"


def _hgb(lr: float, leaves: int, iters: int, log: bool) -> Candidate:
    def make(s: int) -> object:
        model = HistGradientBoostingRegressor(
            learning_rate=lr, max_leaf_nodes=leaves, max_iter=iters, random_state=s
        )
        return log_target(model) if log else model

    scale = "log " if log else ""
    return Candidate(
        f"{scale}hgb lr={lr} leaves={leaves} iters={iters}",
        "gradient boosting",
        make,
        encoding="tree",
    )


CANDIDATES = [
    Candidate("knn k=10", "knn", lambda s: KNeighborsRegressor(10)),
    Candidate(
        "tree depth=6",
        "decision tree",
        lambda s: DecisionTreeRegressor(max_depth=6, random_state=s),
    ),
    Candidate("ridge alpha=10", "linear", lambda s: Ridge(alpha=10.0)),
    Candidate("log ridge alpha=10", "linear", lambda s: log_target(Ridge(alpha=10.0))),
    Candidate(
        "random forest 300",
        "forest",
        lambda s: RandomForestRegressor(300, max_features=0.4, random_state=s, n_jobs=1),
        encoding="tree",
    ),
    Candidate(
        "log extra trees 300",
        "forest",
        lambda s: log_target(ExtraTreesRegressor(300, max_features=0.4, random_state=s, n_jobs=1)),
        encoding="tree",
    ),
    _hgb(0.1, 31, 200, log=False),
    _hgb(0.1, 31, 200, log=True),
]
VARIANTS = [
    Variant(rows=0.1, seed=1),
    Variant(rows=0.3, seed=2),
    Variant(columns=0.3, seed=3),
    Variant(rows=0.9, seed=4),
    Variant(seed=0),
]
STRONG = [
    Candidate(
        "engineered log lasso",
        "linear",
        lambda s: log_target(LassoCV(cv=5, alphas=30, max_iter=5000, random_state=s)),
    ),
    Candidate(
        "engineered log hgb lr=0.03 leaves=15 iters=1500",
        "gradient boosting",
        lambda s: log_target(
            HistGradientBoostingRegressor(
                learning_rate=0.03,
                max_leaf_nodes=15,
                max_iter=1500,
                min_samples_leaf=10,
                l2_regularization=1.0,
                random_state=s,
            )
        ),
        encoding="tree",
    ),
    Candidate(
        "engineered log spline lasso",
        "linear",
        lambda s: log_target(LassoCV(cv=5, alphas=30, max_iter=5000, random_state=s)),
        encoding="spline",
    ),
    Candidate(
        "engineered log svr C=3",
        "svm",
        lambda s: log_target(SVR(C=3.0, epsilon=0.01, gamma=0.0005)),
    ),
    Candidate(
        "engineered log kernel ridge poly",
        "linear",
        lambda s: log_target(KernelRidge(alpha=0.6, kernel="polynomial", degree=2, coef0=2.5)),
    ),
    Candidate(
        "engineered log huber gbm depth=4 iters=1500",
        "gradient boosting",
        lambda s: log_target(
            GradientBoostingRegressor(
                n_estimators=1500,
                learning_rate=0.03,
                max_depth=4,
                max_features="sqrt",
                min_samples_leaf=15,
                loss="huber",
                subsample=0.8,
                random_state=s,
            )
        ),
    ),
]

LASSO, HGB, SPLINE_LASSO, SVR_RBF, KERNEL_RIDGE, HUBER_GBM = (c.name for c in STRONG)


def engineer(frame: pd.DataFrame) -> pd.DataFrame:
    """Total living area, age at sale, bathrooms and logs of the areas."""
    out = frame.copy()
    out["Total_SF"] = frame["Total_Bsmt_SF"] + frame["First_Flr_SF"] + frame["Second_Flr_SF"]
    out["Age"] = frame["Year_Sold"] - frame["Year_Built"]
    out["Remod_Age"] = frame["Year_Sold"] - frame["Year_Remod_Add"]
    out["Baths"] = (
        frame["Full_Bath"]
        + 0.5 * frame["Half_Bath"]
        + frame["Bsmt_Full_Bath"]
        + 0.5 * frame["Bsmt_Half_Bath"]
    )
    for column in ("Gr_Liv_Area", "Lot_Area", "Total_SF", "First_Flr_SF"):
        out[f"log_{column}"] = np.log1p(out[column])
    return out


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``ames-house-prices``."""
    train, test, sample = read_public(public)
    yield Entry("median price", "constant", sample.assign(**{TARGET: train[TARGET].median()}))
    yield Entry("mean price", "constant", sample.assign(**{TARGET: train[TARGET].mean()}))
    by_area = LinearRegression().fit(np.log(train[["Gr_Liv_Area"]]), np.log(train[TARGET]))
    area_price = np.exp(by_area.predict(np.log(test[["Gr_Liv_Area"]])))
    yield Entry("log price ~ log living area", "linear", sample.assign(**{TARGET: area_price}))
    kept: dict[str, list[np.ndarray]] = {}
    for name, family, price in tabular_predictions(
        CANDIDATES, VARIANTS, train, TARGET, test, "value"
    ):
        kept.setdefault(name.split(" seed=")[0], []).append(price)
        yield Entry(name, family, sample.assign(**{TARGET: np.clip(price, 1000.0, None)}))
    strong_variants = [Variant(seed=0), Variant(rows=0.9, seed=5), Variant(rows=0.9, seed=6)]
    for name, family, price in tabular_predictions(
        STRONG, strong_variants, engineer(train), TARGET, engineer(test), "value"
    ):
        kept.setdefault(name.split(" seed=")[0], []).append(price)
        yield Entry(name, family, sample.assign(**{TARGET: np.clip(price, 1000.0, None)}))
    blends = {
        "log ridge + log hgb": ["log ridge alpha=10", "log hgb lr=0.1 leaves=31 iters=200"],
        "engineered lasso + hgb": [LASSO, HGB],
        "spline lasso + huber gbm": [SPLINE_LASSO, HUBER_GBM],
        "spline lasso + engineered hgb": [SPLINE_LASSO, HGB],
        "spline lasso + kernel ridge + svr + huber gbm": [
            SPLINE_LASSO,
            SVR_RBF,
            KERNEL_RIDGE,
            HUBER_GBM,
        ],
        "every engineered model": [c.name for c in STRONG],
        "engineered lasso + hgb + log extra trees": [LASSO, HGB, "log extra trees 300"],
    }
    for label, names in blends.items():
        logs = [np.log(np.clip(p, 1000.0, None)) for n in names for p in kept[n]]
        price = np.exp(mean_of(logs))
        yield Entry(f"blend {label}", "ensemble", sample.assign(**{TARGET: price}))
