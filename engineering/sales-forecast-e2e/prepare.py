"""Per-seed data of sales-forecast-e2e: daily unit sales of 3 stores x 4 items, 104 weeks.

The series are synthetic (drawn here from a fixed generative model, original to this project):
mean = level x weekly profile x yearly wave x promotion uplift x holiday factor, Poisson counts.
Planted per seed: a promotions calendar (runs of 2-5 days), holidays shared by every store,
store closures (open = 0, sales = 0), one store's level shift (x0.6 or x1.5 from a date in the
last year), data outages (a store's rows missing for 2-4 days) and scattered missing rows.

Workspace: ``data/sales.csv`` (the 728 days of history) and ``data/calendar.csv`` (the next 7
days' promotions, holidays and opening, no sales). Private: ``truth.csv`` (those 7 days' sales)
and ``facts.json`` (the planted counts and dates). Only numpy and pandas are used.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

STORES = ["S1", "S2", "S3"]
ITEMS = ["I1", "I2", "I3", "I4"]
HISTORY_DAYS = 728
HORIZON = 7
START = np.datetime64("2023-01-02")  # a Monday
WEEKLY = np.array([0.85, 0.9, 0.95, 1.0, 1.15, 1.35, 0.75])
HOLIDAYS = ["01-01", "01-06", "04-07", "05-01", "08-15", "10-12", "11-01", "12-06", "12-25"]


def holiday_dates(dates: pd.DatetimeIndex, rng: np.random.Generator) -> set[pd.Timestamp]:
    """Fixed-date holidays, plus one inside the forecast week so that it matters there."""
    fixed = {d for d in dates if d.strftime("%m-%d") in HOLIDAYS}
    fixed.add(dates[HISTORY_DAYS + int(rng.integers(1, HORIZON - 1))])
    return fixed


def promotions(rng: np.random.Generator, n_days: int) -> np.ndarray:
    """Runs of 2-5 promotion days, about one run every three weeks, plus one in the horizon."""
    flags = np.zeros(n_days, dtype=int)
    day = int(rng.integers(0, 20))
    while day < n_days:
        flags[day : day + int(rng.integers(2, 6))] = 1
        day += int(rng.integers(12, 30))
    if rng.random() < 0.7:
        start = HISTORY_DAYS + int(rng.integers(0, HORIZON - 2))
        flags[start : start + 3] = 1
    return flags


def generate(seed: int) -> tuple[pd.DataFrame, dict[str, object]]:
    """The full table (history + horizon) and the planted facts."""
    rng = np.random.default_rng(7300 + seed)
    dates = pd.date_range(pd.Timestamp(START), periods=HISTORY_DAYS + HORIZON, freq="D")
    holidays = holiday_dates(dates, rng)
    is_holiday = np.array([d in holidays for d in dates], dtype=int)
    shift_store = str(rng.choice(STORES))
    shift_day = int(rng.integers(HISTORY_DAYS - 300, HISTORY_DAYS - 90))
    shift_factor = float(rng.choice([0.6, 1.5]))
    closed: dict[str, np.ndarray] = {}
    for store in STORES:
        flags = np.zeros(len(dates), dtype=bool)
        flags[rng.choice(HISTORY_DAYS, 6, replace=False)] = True
        flags[[i for i, d in enumerate(dates) if d.strftime("%m-%d") == "12-25"]] = True
        closed[store] = flags
    horizon_closed = str(rng.choice(STORES))
    closed[horizon_closed][HISTORY_DAYS + int(rng.integers(0, HORIZON))] = True
    t = np.arange(len(dates))
    frames = []
    for store in STORES:
        weekly = WEEKLY * rng.uniform(0.95, 1.05, 7)
        holiday_factor = rng.uniform(0.55, 0.7)
        for item in ITEMS:
            level = rng.uniform(15, 70) * (1 + 0.05 * t / 365.25)
            if store == shift_store:
                level = np.where(t >= shift_day, level * shift_factor, level)
            yearly = 1 + rng.uniform(0.1, 0.25) * np.sin(
                2 * np.pi * (t - rng.uniform(0, 365)) / 365.25
            )
            promo = promotions(rng, len(dates))
            mean = (
                level * weekly[dates.dayofweek] * yearly
                * np.where(promo == 1, rng.uniform(1.3, 1.8), 1.0)
                * np.where(is_holiday == 1, holiday_factor, 1.0)
            )  # fmt: skip
            open_ = (~closed[store]).astype(int)
            sales = np.where(open_ == 1, rng.poisson(mean), 0)
            frames.append(pd.DataFrame({
                "date": dates.strftime("%Y-%m-%d"), "store": store, "item": item,
                "sales": sales, "promo": promo, "holiday": is_holiday, "open": open_,
            }))  # fmt: skip
    table = pd.concat(frames, ignore_index=True)
    facts = {
        "level_shift": {"store": shift_store, "date": str(dates[shift_day].date()),
                        "factor": shift_factor},
        "horizon_closed_store": horizon_closed,
    }  # fmt: skip
    return table, facts


def drop_rows(history: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Outages (a store's rows missing for 2-4 days, one of them in the last week) and scattered
    single missing rows."""
    dates = history["date"].unique()
    drop = np.zeros(len(history), dtype=bool)
    starts = [*rng.choice(np.arange(30, HISTORY_DAYS - 30), 3, replace=False), HISTORY_DAYS - 5]
    for start in starts:
        store = rng.choice(STORES)
        window = set(dates[int(start) : int(start) + int(rng.integers(2, 5))])
        drop |= history["date"].isin(window).to_numpy() & (history["store"] == store).to_numpy()
    drop[rng.choice(len(history), 60, replace=False)] = True
    return history[~drop]


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    table, facts = generate(seed)
    last = sorted(table["date"].unique())[HISTORY_DAYS - 1]
    history = drop_rows(
        table[table["date"] <= last].reset_index(drop=True), np.random.default_rng(seed)
    )
    future = table[table["date"] > last]
    data = workspace / "data"
    data.mkdir(parents=True, exist_ok=True)
    history.to_csv(data / "sales.csv", index=False)
    future.drop(columns=["sales"]).to_csv(data / "calendar.csv", index=False)
    future[["date", "store", "item", "sales"]].to_csv(private / "truth.csv", index=False)
    closures = (
        history[history["open"] == 0].groupby("store")["date"].apply(lambda d: sorted(set(d)))
    )
    facts.update({
        "missing_rows": HISTORY_DAYS * len(STORES) * len(ITEMS) - len(history),
        "closures": {store: list(days) for store, days in closures.items()},
        "last_history_date": last,
    })  # fmt: skip
    (private / "facts.json").write_text(json.dumps(facts, indent=2), "utf-8")
    return {}
