"""Reference population for ``chicago-ridership`` (SMAPE): seasonal rules to holiday boosting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.tseries.holiday import USFederalHolidayCalendar
from sklearn.ensemble import (
    ExtraTreesRegressor,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor

from leaderboard_population.common import Entry, read_public

TARGET = "ridership"
WEATHER = [
    "temp_min",
    "temp",
    "temp_max",
    "humidity",
    "wind",
    "percip",
    "weather_rain",
    "weather_snow",
    "weather_cloud",
    "weather_storm",
]
GAMES = ["Blackhawks_Home", "Bulls_Home", "Bears_Home", "WhiteSox_Home", "Cubs_Home"]
MODELS = {
    "knn k=10": ("knn", lambda s: KNeighborsRegressor(10)),
    "ridge": ("linear", lambda s: Ridge(alpha=1.0)),
    "random forest 200": (
        "forest",
        lambda s: RandomForestRegressor(200, min_samples_leaf=2, random_state=s, n_jobs=1),
    ),
    "extra trees 300": (
        "forest",
        lambda s: ExtraTreesRegressor(300, min_samples_leaf=2, random_state=s, n_jobs=1),
    ),
    "hgb": (
        "gradient boosting",
        lambda s: HistGradientBoostingRegressor(max_iter=300, random_state=s),
    ),
    "hgb lr=0.03 iters=1500": (
        "gradient boosting",
        lambda s: HistGradientBoostingRegressor(
            learning_rate=0.03, max_iter=1500, max_leaf_nodes=15, random_state=s
        ),
    ),
}


def calendar(dates: pd.Series, holidays: bool) -> pd.DataFrame:
    """Day of week, month, day of year, year; with US federal holidays and their neighbours."""
    stamp = pd.Series(pd.to_datetime(dates).to_numpy())
    out = pd.DataFrame(
        {
            "dow": stamp.dt.dayofweek,
            "month": stamp.dt.month,
            "doy": stamp.dt.dayofyear,
            "year": stamp.dt.year,
        }
    )
    if holidays:
        days = USFederalHolidayCalendar().holidays(stamp.min(), stamp.max() + pd.Timedelta(days=7))
        out["holiday"] = stamp.isin(days).astype(int)
        out["after_holiday"] = stamp.isin(days + pd.Timedelta(days=1)).astype(int)
        out["before_holiday"] = stamp.isin(days - pd.Timedelta(days=1)).astype(int)
        christmas = (stamp.dt.month == 12) & (stamp.dt.day >= 24) | (stamp.dt.month == 1) & (
            stamp.dt.day <= 2
        )
        out["christmas_week"] = christmas.astype(int)
    return out


def features(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    parts = [calendar(frame["date"], holidays="holidays" in name)]
    if "weather" in name:
        parts.append(frame[WEATHER].reset_index(drop=True))
    if "games" in name:
        parts.append(frame[GAMES].reset_index(drop=True))
    return pd.concat(parts, axis=1)


FEATURE_SETS = [
    "calendar",
    "calendar + weather",
    "calendar + holidays",
    "calendar + holidays + weather + games",
]


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``chicago-ridership``."""
    train, test, sample = read_public(public)
    yield from _rules(train, test, sample)
    logs: dict[str, list[np.ndarray]] = {}
    for feature_set in FEATURE_SETS:
        x_test = features(test, feature_set)
        fill = features(train, feature_set).median()
        x_test = x_test.fillna(fill)
        for years in (2, 15):
            recent = train[
                pd.to_datetime(train["date"])
                >= pd.Timestamp("2015-08-30") - pd.DateOffset(years=years)
            ]
            x_train = features(recent, feature_set).fillna(fill)
            for name, (family, make) in MODELS.items():
                for log in (False, True):
                    y = np.log(recent[TARGET]) if log else recent[TARGET]
                    pred = make(0).fit(x_train, y).predict(x_test)
                    pred = np.exp(pred) if log else np.clip(pred, 0.01, None)
                    label = f"{'log ' if log else ''}{name} on {feature_set}, last {years} years"
                    if log and "holidays" in feature_set and years == 15:
                        logs.setdefault(feature_set, []).append(np.log(pred))
                    yield Entry(label, family, sample.assign(**{TARGET: np.round(pred, 4)}))
    yield from _tuned(train, test, sample, logs)
    for feature_set, members in logs.items():
        blend = np.exp(np.mean(members, axis=0))
        yield Entry(
            f"blend of log models on {feature_set}",
            "ensemble",
            sample.assign(**{TARGET: np.round(blend, 4)}),
        )


def _rules(train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame) -> Iterator[Entry]:
    yield Entry("mean of all history", "constant", sample.assign(**{TARGET: train[TARGET].mean()}))
    last_year = train.iloc[-365:]
    yield Entry(
        "mean of last year", "constant", sample.assign(**{TARGET: last_year[TARGET].mean()})
    )
    dow_train = pd.to_datetime(last_year["date"]).dt.dayofweek
    by_dow = last_year.groupby(dow_train.to_numpy())[TARGET].median()
    dow_test = pd.to_datetime(test["date"]).dt.dayofweek
    yield Entry(
        "last year's median by weekday",
        "rule",
        sample.assign(**{TARGET: dow_test.map(by_dow).to_numpy()}),
    )
    # Seasonal naive: the same weekday 52 weeks (364 days) earlier.
    history = train.set_index(pd.to_datetime(train["date"]))[TARGET]
    earlier = pd.to_datetime(test["date"]) - pd.Timedelta(days=364)
    lagged = history.reindex(earlier).to_numpy()
    lagged = np.where(np.isnan(lagged), by_dow.reindex(dow_test).to_numpy(), lagged)
    yield Entry(
        "seasonal naive (same weekday last year)", "rule", sample.assign(**{TARGET: lagged})
    )


def _tuned(
    train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame, logs: dict[str, list[np.ndarray]]
) -> Iterator[Entry]:
    """Tuned log-scale boosting on every feature, over several settings and row samples."""
    feature_set = FEATURE_SETS[-1]
    fill = features(train, feature_set).median()
    x_train, x_test = (
        features(train, feature_set).fillna(fill),
        features(test, feature_set).fillna(fill),
    )
    y = np.log(train[TARGET].to_numpy())
    settings = [(0.02, 15, 2500), (0.05, 15, 1000), (0.05, 31, 800), (0.03, 7, 3000)]
    for rate, leaves, iterations in settings:
        for seed in (1, 2):
            rows = np.random.default_rng(seed).random(len(y)) < 0.9
            model = HistGradientBoostingRegressor(
                learning_rate=rate, max_leaf_nodes=leaves, max_iter=iterations, random_state=seed
            )
            pred = model.fit(x_train[rows], y[rows]).predict(x_test)
            logs.setdefault("tuned", []).append(pred)
            label = (
                f"tuned log hgb lr={rate} leaves={leaves} iters={iterations} rows=90% seed={seed}"
            )
            yield Entry(
                label, "gradient boosting", sample.assign(**{TARGET: np.round(np.exp(pred), 4)})
            )
