"""Seven-day sales forecast per store x item: a Poisson regression per series (numpy IRLS).

Usage: python3 forecast.py HISTORY CALENDAR OUT

Features: weekday, promotion, holiday, a yearly wave (one Fourier pair), a linear trend and, for
a store whose level jumps, a step from the detected date. Closed days are forecast 0 and never
used for fitting; rows without sales (missing or future) are ignored.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

WINDOW = 28
MIN_JUMP = 0.25
ORIGIN = pd.Timestamp("2000-01-01")


def load(history_path: str, calendar_path: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    history = pd.read_csv(history_path, parse_dates=["date"])
    history = history[history["sales"].notna() & (history["open"] == 1)]
    calendar = pd.read_csv(calendar_path, parse_dates=["date"])
    return history, calendar


def level_shifts(history: pd.DataFrame) -> dict[str, pd.Timestamp]:
    """Per store, the date where the mean log of the daily total jumps most between the 28
    days before and after, when the jump exceeds MIN_JUMP."""
    shifts = {}
    for store, rows in history.groupby("store"):
        daily = np.log(rows.groupby("date")["sales"].sum().clip(lower=1))
        values, dates = daily.to_numpy(), daily.index
        best, where = 0.0, None
        for k in range(WINDOW, len(values) - WINDOW):
            jump = abs(values[k : k + WINDOW].mean() - values[k - WINDOW : k].mean())
            if jump > best:
                best, where = jump, dates[k]
        if where is not None and best > MIN_JUMP:
            shifts[str(store)] = where
    return shifts


def design(rows: pd.DataFrame, shift: pd.Timestamp | None) -> np.ndarray:
    days = (rows["date"] - ORIGIN).dt.days.to_numpy(dtype=float)
    weekday = rows["date"].dt.dayofweek.to_numpy()
    columns = [np.ones(len(rows))]
    columns += [(weekday == d).astype(float) for d in range(1, 7)]
    columns += [rows["promo"].to_numpy(float), rows["holiday"].to_numpy(float)]
    columns += [np.sin(2 * np.pi * days / 365.25), np.cos(2 * np.pi * days / 365.25)]
    columns.append((days - 9000) / 365.25)
    if shift is not None:
        columns.append((rows["date"] >= shift).to_numpy(float))
    return np.column_stack(columns)


def poisson_fit(x: np.ndarray, y: np.ndarray, steps: int = 25) -> np.ndarray:
    """Maximum-likelihood Poisson regression by iteratively reweighted least squares."""
    beta = np.zeros(x.shape[1])
    beta[0] = np.log(max(y.mean(), 1e-3))
    for _ in range(steps):
        mu = np.exp(x @ beta)
        z = x @ beta + (y - mu) / mu
        w = np.sqrt(mu)
        beta_new = np.linalg.lstsq(x * w[:, None], z * w, rcond=None)[0]
        if np.max(np.abs(beta_new - beta)) < 1e-8:
            return beta_new
        beta = beta_new
    return beta


def forecast(history: pd.DataFrame, calendar: pd.DataFrame) -> pd.DataFrame:
    shifts = level_shifts(history)
    out = []
    for (store, item), rows in calendar.groupby(["store", "item"], sort=True):
        past = history[(history["store"] == store) & (history["item"] == item)]
        shift = shifts.get(str(store))
        beta = poisson_fit(design(past, shift), past["sales"].to_numpy(float))
        mean = np.exp(design(rows, shift) @ beta) * (rows["open"].to_numpy() == 1)
        out.append(rows[["date", "store", "item"]].assign(forecast=np.round(mean, 4)))
    result = pd.concat(out).sort_values(["date", "store", "item"])
    result["date"] = result["date"].dt.strftime("%Y-%m-%d")
    return result


def main(argv: list[str]) -> None:
    history, calendar = load(argv[1], argv[2])
    forecast(history, calendar).to_csv(argv[3], index=False)


if __name__ == "__main__":
    main(sys.argv)
