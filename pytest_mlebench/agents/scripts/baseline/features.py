"""Feature building for tables: numeric, date-derived and category-coded columns of train and
test, with the longest free-text column set apart for the text models."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

MAX_CATEGORIES = 250  # gradient boosting's native categories must fit in its 255 bins


@dataclass
class Features:
    """Model-ready features of train and test."""

    train: pd.DataFrame
    test: pd.DataFrame
    categorical: list[str]
    text: str | None = None


def table_features(train: pd.DataFrame, test: pd.DataFrame, drop: Sequence[str]) -> Features:
    """Numeric, date-derived and category-coded columns; the longest free-text column apart."""
    columns = [c for c in test.columns if c in train.columns and c not in drop]
    both = pd.concat([train[columns], test[columns]], ignore_index=True)
    out = pd.DataFrame(index=both.index)
    categorical: list[str] = []
    text = _text_column(both)
    for column in columns:
        values = both[column]
        if column == text:
            continue
        if pd.api.types.is_bool_dtype(values) or pd.api.types.is_numeric_dtype(values):
            out[column] = values.astype(float)
        elif _looks_like_dates(values):
            out = out.join(_date_features(column, pd.to_datetime(values, errors="coerce")))
        elif values.nunique() <= min(MAX_CATEGORIES, max(50, int(0.05 * len(values)))):
            out[column] = values.astype("category").cat.codes.replace(-1, np.nan).astype(float)
            categorical.append(column)
    n = len(train)
    return Features(
        out.iloc[:n].reset_index(drop=True), out.iloc[n:].reset_index(drop=True), categorical, text
    )


def subset(features: Features, rows: np.ndarray) -> Features:
    """The features with only the train rows ``rows`` (a boolean mask) kept."""
    if rows.all():
        return features
    train = features.train[rows].reset_index(drop=True)
    return Features(train, features.test, features.categorical, features.text)


def _text_column(frame: pd.DataFrame) -> str | None:
    best, best_length = None, 40.0
    for column in frame.columns:
        if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
            values = frame[column].dropna().astype(str)
            length = float(values.str.len().mean()) if len(values) else 0.0
            if length > best_length and values.str.contains(" ").mean() > 0.5:
                best, best_length = column, length
    return best


def _looks_like_dates(values: pd.Series) -> bool:
    if not (values.dtype == object or pd.api.types.is_string_dtype(values)):
        return False
    head = values.dropna().astype(str).head(200)
    if head.empty or not head.str.match(r"^\d{4}-\d{2}-\d{2}").all():
        return False
    return bool(pd.to_datetime(head, errors="coerce").notna().all())


def _date_features(column: str, stamps: pd.Series) -> pd.DataFrame:
    """Calendar features, a trend and US public holidays (demand data depends on them)."""
    from pandas.tseries.holiday import USFederalHolidayCalendar

    days = stamps.dt.normalize()
    holidays = USFederalHolidayCalendar().holidays(days.min(), days.max())
    features = {
        "year": stamps.dt.year,
        "month": stamps.dt.month,
        "day": stamps.dt.day,
        "dayofweek": stamps.dt.dayofweek,
        "dayofyear": stamps.dt.dayofyear,
        "weekofyear": stamps.dt.isocalendar().week.astype(float),
        "trend": (stamps - stamps.min()).dt.total_seconds() / 86400.0,
        "holiday": days.isin(holidays).astype(float),
        "near_holiday": _near(days, holidays),
    }
    if (stamps.dt.hour != 0).any():
        features["hour"] = stamps.dt.hour
    return pd.DataFrame({f"{column}_{k}": np.asarray(v, dtype=float) for k, v in features.items()})


def _near(days: pd.Series, holidays: pd.DatetimeIndex) -> np.ndarray:
    near = pd.DatetimeIndex(
        sorted({h + pd.Timedelta(days=d) for h in holidays for d in (-1, 1, 2, -2)})
    )
    return days.isin(near).astype(float).to_numpy()
