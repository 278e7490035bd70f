"""report.json of the oracle: the problem, what inspection found, a 7-day backtest."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from forecast import forecast, level_shifts

HORIZON = 7


def seasonal_naive(history: pd.DataFrame, calendar: pd.DataFrame) -> np.ndarray:
    """Same series 7 days earlier, else 14 days earlier, else its last 28 recorded days' mean."""
    known = history[history["sales"].notna()]
    lookup = known.set_index(["date", "store", "item"])["sales"]
    values = []
    for row in calendar.itertuples():
        for lag in (7, 14):
            key = (row.date - pd.Timedelta(days=lag), row.store, row.item)
            if key in lookup.index:
                values.append(float(lookup[key]))
                break
        else:
            series = known[(known["store"] == row.store) & (known["item"] == row.item)]
            values.append(float(series.sort_values("date")["sales"].tail(28).mean()))
    return np.array(values)


def wape(actual: np.ndarray, predicted: np.ndarray) -> float:
    return float(np.abs(actual - predicted).sum() / np.abs(actual).sum())


def backtest(history: pd.DataFrame) -> dict[str, float]:
    cut = history["date"].max() - pd.Timedelta(days=HORIZON)
    past, held = history[history["date"] <= cut], history[history["date"] > cut]
    held = held[held["sales"].notna()].sort_values(["date", "store", "item"])
    fitted = forecast(past[past["open"] == 1], held.drop(columns=["sales"]))
    return {
        "wape": wape(held["sales"].to_numpy(float), fitted["forecast"].to_numpy()),
        "seasonal_naive_wape": wape(held["sales"].to_numpy(float), seasonal_naive(past, held)),
    }


def main() -> None:
    history = pd.read_csv("data/sales.csv", parse_dates=["date"])
    stores, items = sorted(history["store"].unique()), sorted(history["item"].unique())
    days = pd.date_range(history["date"].min(), history["date"].max(), freq="D")
    closed = history[history["open"] == 0]
    shifts = level_shifts(history[(history["open"] == 1) & history["sales"].notna()])
    store, date = max(shifts.items(), key=lambda kv: kv[0]) if shifts else (None, None)
    report = {
        "horizon": HORIZON,
        "metric": "wape",
        "series": len(stores) * len(items),
        "inspection": {
            "missing_rows": len(days) * len(stores) * len(items) - len(history),
            "closures": {
                str(s): sorted(d.strftime("%Y-%m-%d") for d in set(rows["date"]))
                for s, rows in closed.groupby("store")
            },
            "level_shift": {
                "store": store,
                "date": None if date is None else date.strftime("%Y-%m-%d"),
            },
        },
        "backtest": backtest(history),
    }
    with open("report.json", "w") as out:
        json.dump(report, out, indent=2)


if __name__ == "__main__":
    main()
