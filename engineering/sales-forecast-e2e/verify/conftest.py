"""Shared pieces of sales-forecast-e2e's verifier: runs of the agent's forecast.py, WAPE, the
seasonal-naive baseline.

Every run is the verifier's own: a fresh copy of the workspace without the agent's outputs, inputs
the verifier wrote, the agent's code run as an unprivileged user (when the verifier is root, in its
container) so that it cannot read the hidden answers, through a small runner that records which
modules were imported and refuses every network connection.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from mlebench_agent_run import python_script, run_agent

RUN_TIMEOUT_S = 60
KEYS = ["date", "store", "item"]
OUTPUTS = ["forecast.csv", "report.json", "__pycache__"]
RUNNER = r"""
import json, os, runpy, socket, sys
attempts = []
def refuse(*args, **kwargs):
    attempts.append(repr(args[1:])[:200])
    raise OSError("network access is disabled in the verifier")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.socket.sendto = refuse
record, sys.argv = sys.argv[1], sys.argv[2:]
sys.path.insert(0, os.getcwd())
try:
    runpy.run_path("forecast.py", run_name="__main__")
finally:
    with open(record, "w") as out:
        json.dump({"modules": sorted({m.split(".")[0] for m in list(sys.modules)}),
                   "network": attempts}, out)
"""


@dataclass
class Run:
    """One run of ``python3 forecast.py HISTORY CALENDAR OUT`` by the verifier."""

    returncode: int
    wall_s: float
    log: str
    forecast: pd.DataFrame | None
    modules: list[str]
    network: list[str]

    def require(self) -> pd.DataFrame:
        if self.forecast is None:
            pytest.fail(f"forecast.py failed (exit {self.returncode}): {self.log}")
        return self.forecast


def read_forecast(path: Path) -> pd.DataFrame | None:
    try:
        table = pd.read_csv(path, dtype={"store": str, "item": str, "date": str})
    except (OSError, ValueError, pd.errors.ParserError):
        return None
    return table if set([*KEYS, "forecast"]) <= set(table.columns) else None


def run_forecast(work: Path, history: pd.DataFrame, calendar: pd.DataFrame) -> Run:
    """Run the agent's forecast.py in a fresh copy of ``work`` on the given inputs."""
    folder = Path(tempfile.mkdtemp(prefix="forecast-"))
    folder.chmod(0o755)  # root's: the runner and the inputs are readable, not writable
    copy, outputs = folder / "work", folder / "outputs"
    shutil.copytree(work, copy, ignore=shutil.ignore_patterns(*OUTPUTS), symlinks=True)
    outputs.mkdir()
    inputs = folder / "inputs"
    inputs.mkdir()
    history.to_csv(inputs / "history.csv", index=False)
    calendar.to_csv(inputs / "calendar.csv", index=False)
    (folder / "runner.py").write_text(RUNNER, "utf-8")
    for path in (inputs, *inputs.iterdir(), folder / "runner.py"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    record, out = outputs / "record.json", outputs / "out.csv"
    arguments = [str(inputs / "history.csv"), str(inputs / "calendar.csv"), str(out)]
    command = python_script(folder / "runner.py", str(record), "forecast.py", *arguments)
    started = time.monotonic()
    done = run_agent(command, cwd=copy, writable=(copy, outputs), timeout_s=RUN_TIMEOUT_S)
    code, log = done.returncode, done.output[-500:]
    if done.timed_out:
        code, log = -1, f"timed out after {done.limit_s:.0f} s"
    wall = time.monotonic() - started
    try:
        seen = json.loads(record.read_text("utf-8"))
    except (OSError, ValueError):
        seen = {"modules": [], "network": []}
    table = read_forecast(out) if code == 0 else None
    return Run(code, wall, log, table, list(seen.get("modules", [])), list(seen.get("network", [])))


def wape(actual: np.ndarray, predicted: np.ndarray) -> float:
    return float(np.abs(actual - predicted).sum() / np.abs(actual).sum())


def seasonal_naive(history: pd.DataFrame, calendar: pd.DataFrame) -> np.ndarray:
    """The instruction's baseline: the same series 7 days earlier, else 14 days earlier, else the
    mean of its last 28 recorded days."""
    known = history[history["sales"].notna()].copy()
    known["day"] = pd.to_datetime(known["date"])
    lookup = {
        (d, s, i): float(v)
        for d, s, i, v in known[["day", "store", "item", "sales"]].itertuples(index=False)
    }
    values = []
    for date, store, item in calendar[KEYS].itertuples(index=False):
        day = pd.Timestamp(date)
        found = [lookup.get((day - pd.Timedelta(days=lag), store, item)) for lag in (7, 14)]
        found = [v for v in found if v is not None]
        if found:
            values.append(found[0])
        else:
            series = known[(known["store"] == store) & (known["item"] == item)].sort_values("day")
            values.append(float(series["sales"].tail(28).mean()))
    return np.array(values)


def aligned(calendar: pd.DataFrame, forecast: pd.DataFrame) -> pd.DataFrame:
    """``calendar``'s keys with the forecast of each (NaN when missing)."""
    one = forecast.drop_duplicates(KEYS)[[*KEYS, "forecast"]]
    merged = calendar[KEYS].merge(one, on=KEYS, how="left")
    merged["forecast"] = pd.to_numeric(merged["forecast"], errors="coerce")
    return merged


def same_keys(calendar: pd.DataFrame, forecast: pd.DataFrame) -> str | None:
    """Why ``forecast`` does not have exactly one finite, non-negative value per calendar key."""
    if forecast.duplicated(KEYS).any():
        return "repeated keys"
    expected = set(map(tuple, calendar[KEYS].to_numpy()))
    got = set(map(tuple, forecast[KEYS].to_numpy()))
    if expected != got:
        return f"{len(expected - got)} keys missing, {len(got - expected)} unexpected"
    values = pd.to_numeric(forecast["forecast"], errors="coerce").to_numpy(float)
    if not np.all(np.isfinite(values)) or (values < 0).any():
        return "non-finite or negative forecasts"
    return None


@pytest.fixture(scope="session")
def work() -> Path:
    return Path(os.environ["WORK_DIR"])


@pytest.fixture(scope="session")
def history() -> pd.DataFrame:
    return pd.read_csv(Path(os.environ["PRISTINE_DIR"]) / "data" / "sales.csv", dtype={"date": str})


@pytest.fixture(scope="session")
def calendar() -> pd.DataFrame:
    return pd.read_csv(
        Path(os.environ["PRISTINE_DIR"]) / "data" / "calendar.csv", dtype={"date": str}
    )


@pytest.fixture(scope="session")
def truth(calendar: pd.DataFrame) -> pd.DataFrame:
    hidden = pd.read_csv(Path(os.environ["PRIVATE_DIR"]) / "truth.csv", dtype={"date": str})
    return calendar[KEYS].merge(hidden, on=KEYS, how="left")


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "facts.json").read_text("utf-8"))  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def report(work: Path) -> dict[str, Any]:
    data = json.loads((work / "report.json").read_text("utf-8"))
    assert isinstance(data, dict), "report.json is not a JSON object"
    return data


@pytest.fixture(scope="session")
def baseline_wape(history: pd.DataFrame, truth: pd.DataFrame) -> float:
    return wape(truth["sales"].to_numpy(float), seasonal_naive(history, truth))


@pytest.fixture(scope="session")
def backtest_split(history: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The history cut 7 recorded days before its end, and those 7 days."""
    dates = sorted(history["date"].unique())
    cut = dates[-8]
    return history[history["date"] <= cut], history[history["date"] > cut].sort_values(KEYS)


@pytest.fixture(scope="session")
def backtest_calendar(backtest_split: tuple[pd.DataFrame, pd.DataFrame]) -> pd.DataFrame:
    return backtest_split[1].drop(columns=["sales"]).reset_index(drop=True)


def padded_history(history: pd.DataFrame, calendar: pd.DataFrame) -> pd.DataFrame:
    """The history with rows after its last day whose sales are empty: the calendar's week (same
    promotions, holidays, opening) and the week after it (random promotions)."""
    later = calendar.copy()
    later["date"] = (pd.to_datetime(later["date"]) + pd.Timedelta(days=7)).dt.strftime("%Y-%m-%d")
    later["promo"] = np.random.default_rng(11).integers(0, 2, len(later))
    future = pd.concat([calendar, later]).assign(sales=np.nan)
    return pd.concat([history, future])[list(history.columns)]


def thinner_history(history: pd.DataFrame) -> pd.DataFrame:
    """The history without one store's whole last week and three more dates of every store."""
    dates = sorted(history["date"].unique())
    rng = np.random.default_rng(5)
    store = sorted(history["store"].unique())[int(rng.integers(0, 3))]
    gone = (history["store"] == store) & history["date"].isin(dates[-7:])
    gone |= history["date"].isin(list(rng.choice(dates[-60:-7], 3, replace=False)))
    return history[~gone]


@pytest.fixture(scope="session")
def runs(
    work: Path,
    history: pd.DataFrame,
    calendar: pd.DataFrame,
    backtest_split: tuple[pd.DataFrame, pd.DataFrame],
    backtest_calendar: pd.DataFrame,
) -> dict[str, Run]:
    """Every run of forecast.py the checks need. The main run goes alone (it is timed); the
    others share the two CPUs, two at a time, to keep the verifier short."""
    others = {
        "again": (history, calendar),
        "padded": (padded_history(history, calendar), calendar),
        "thinner": (thinner_history(history), calendar),
        "backtest": (backtest_split[0], backtest_calendar),
    }
    done = {"main": run_forecast(work, history, calendar)}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            name: pool.submit(run_forecast, work, *inputs) for name, inputs in others.items()
        }
        done.update({name: future.result() for name, future in futures.items()})
    return done


def skill(forecast: pd.DataFrame, truth: pd.DataFrame, baseline: float) -> float:
    """1 - WAPE / seasonal-naive WAPE on the hidden week (0 = the baseline, 1 = perfect)."""
    values = aligned(truth, forecast)["forecast"].fillna(0).to_numpy(float)
    return 1 - wape(truth["sales"].to_numpy(float), values) / baseline
