"""Per-seed data of data-leak-fix: a customer-default table with planted leaks, as CSV.

``prepare`` writes ``data/customers.csv`` (12 snapshot months, 2023-01 … 2023-12, with the label
``default``) into the workspace and the temporal hold-out (three later months, new customers, the
label) into ``private/holdout.csv``. Planted: ~8 % of the customers appear twice (a repeated
record in a later month), ``region`` has ~1,000 levels of ~12 rows each (target encoding on all
rows leaks each row's own label), and ``collections_calls_90d`` is counted over the 90 days
*after* the snapshot, so it depends on the outcome in the labelled data; in the hold-out it
is empty: at scoring time those 90 days lie ahead. Only numpy
and pandas are used; CSV is read the same by every pandas.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

N_REGIONS = 1000


def _customers(rng: np.random.Generator, n: int, first_id: int, months: list[str],
               region_effect: np.ndarray) -> pd.DataFrame:  # fmt: skip
    age = rng.integers(21, 75, size=n)
    income = np.round(np.exp(rng.normal(10.6, 0.5, size=n)), -1)
    debt_ratio = np.round(rng.beta(2, 5, size=n) * 1.5, 4)
    utilization = np.round(rng.beta(2, 3, size=n), 4)
    n_accounts = rng.poisson(4, size=n)
    region = rng.integers(0, N_REGIONS, size=n)
    logit = (
        -1.6
        + 3.2 * (utilization - 0.4)
        + 2.6 * (debt_ratio - 0.43)
        - 1.3 * (np.log(income) - 10.6)
        - 0.03 * (age - 45)
        + 0.1 * (n_accounts - 4)
        + region_effect[region]
    )
    default = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    rate = 0.5 + 5.0 * default
    return pd.DataFrame(
        {
            "customer_id": [f"C{first_id + i:06d}" for i in range(n)],
            "snapshot_month": rng.choice(months, size=n),
            "age": age,
            "income": income,
            "debt_ratio": debt_ratio,
            "utilization": utilization,
            "n_accounts": n_accounts,
            "region": [f"R{r:04d}" for r in region],
            "collections_calls_90d": rng.poisson(rate),
            "default": default,
        }
    )


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = np.random.default_rng(7000 + seed)
    region_effect = rng.normal(0.0, 0.35, size=N_REGIONS)
    months = [f"2023-{m:02d}" for m in range(1, 13)]
    given = _customers(rng, 11000, 1, months, region_effect)
    repeats = given.sample(frac=0.08, random_state=seed).copy()
    later = [
        months[min(months.index(m) + int(rng.integers(1, 6)), 11)]
        for m in repeats["snapshot_month"]
    ]
    repeats["snapshot_month"] = later
    given = pd.concat([given, repeats]).sort_values(
        ["snapshot_month", "customer_id"], kind="stable"
    )
    holdout = _customers(rng, 5000, 500000, ["2024-01", "2024-02", "2024-03"], region_effect)
    (workspace / "data").mkdir(parents=True, exist_ok=True)
    given.to_csv(workspace / "data" / "customers.csv", index=False)
    holdout["collections_calls_90d"] = np.nan  # the 90 days after a scoring date lie ahead
    holdout.to_csv(private / "holdout.csv", index=False)
    facts = {"seed": seed, "rows": len(given), "repeated_customers": len(repeats)}
    (private / "facts.json").write_text(json.dumps(facts))
    return {}
