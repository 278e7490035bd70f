"""Per-seed data of credit-risk-e2e: a synthetic table shaped like modeldata's credit_data.

The real ``credit_data`` (4,454 applicants, 28 % bad) cannot be fetched offline, so ``prepare``
draws a table with the same columns, sizes, class balance and missingness (Income 381, Assets 47,
Debt 18 of the full 4,454 rows) from a fixed generative model, then plants the issues the task is
about: 5 exact duplicate rows, Amount outliers (×15–25), PII columns ``email`` and ``phone``,
``app_date`` written half as ISO dates and half as Unix seconds, and a sensitive attribute
``gender`` that the outcome does not depend on.

Workspace: ``data/credit.csv`` (labelled, with the duplicates), ``data/test.csv`` (900 applicants,
no label), ``data/validation_ids.txt``. Private: ``test_labels.csv``, ``extra.csv`` (15,000 more
labelled applicants of the same model, for the noise and fairness checks) and ``facts.json`` (the
exact planted counts). Only numpy and pandas are used; CSV is read the same by every pandas.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

N_ROWS = 4454
N_TEST = 900
MISSING = {"Income": 381, "Assets": 47, "Debt": 18}
EPOCH_ISO_SPLIT = 0.5


def applicants(rng: np.random.Generator, n: int, first_id: int) -> pd.DataFrame:
    seniority = rng.poisson(7.5, n)
    home = rng.choice(
        ["owner", "rent", "parents", "priv", "other", "ignore"],
        n,
        p=[0.47, 0.22, 0.18, 0.06, 0.05, 0.02],
    )
    time = rng.choice([12, 18, 24, 36, 48, 60], n, p=[0.07, 0.04, 0.1, 0.17, 0.22, 0.4])
    age = np.clip(rng.normal(37, 11, n).round(), 18, 70).astype(int)
    marital = rng.choice(
        ["married", "single", "separated", "widow", "divorced"], n, p=[0.73, 0.22, 0.03, 0.01, 0.01]
    )
    records = rng.choice(["no", "yes"], n, p=[0.83, 0.17])
    job = rng.choice(["fixed", "freelance", "partime", "others"], n, p=[0.63, 0.23, 0.10, 0.04])
    expenses = np.clip(rng.normal(56, 20, n).round(), 35, 180).astype(int)
    income = np.clip(np.exp(rng.normal(4.9, 0.45, n)).round(), 6, 959)
    assets = np.where(rng.random(n) < 0.35, 0, np.exp(rng.normal(8.4, 0.9, n)).round(-2))
    debt = np.where(rng.random(n) < 0.8, 0, np.exp(rng.normal(7.2, 0.8, n)).round(-1))
    price = np.clip(rng.normal(1460, 600, n), 105, 11000).round()
    amount = np.clip(price * rng.beta(6, 2, n), 100, 5000).round(-1)
    gender = rng.choice(["F", "M"], n)
    logit = (
        -1.45
        - 0.09 * (seniority - 7.5)
        + 1.5 * (records == "yes")
        + 1.1 * (job == "partime")
        + 0.45 * (job == "freelance")
        + 0.55 * (home == "rent")
        - 0.35 * (home == "owner")
        + 3.0 * (amount / price - 0.75)
        - 1.0 * (np.log(income) - 4.9)
        + 0.008 * (expenses - 56)
        - 0.12 * (np.log1p(assets) > 8)
        + 0.012 * (time - 45)
    )
    bad = rng.random(n) < 1 / (1 + np.exp(-logit))
    dates = np.datetime64("2019-01-01") + rng.integers(0, 3 * 365, n).astype("timedelta64[D]")
    unix = (dates - np.datetime64("1970-01-01")).astype("timedelta64[s]").astype(np.int64)
    iso = pd.Series(pd.to_datetime(dates).strftime("%Y-%m-%d"))
    app_date = np.where(rng.random(n) < EPOCH_ISO_SPLIT, iso.to_numpy(), unix.astype(str))
    ids = np.arange(first_id, first_id + n)
    return pd.DataFrame(
        {
            "id": ids, "Status": np.where(bad, "bad", "good"), "Seniority": seniority, "Home": home,
            "Time": time, "Age": age, "Marital": marital, "Records": records, "Job": job,
            "Expenses": expenses, "Income": income, "Assets": assets, "Debt": debt,
            "Amount": amount, "Price": price,
            "email": [f"applicant{i}@mail.example" for i in ids],
            "phone": [f"+34 6{(i * 7919) % 100000000:08d}" for i in ids],
            "app_date": app_date, "gender": gender,
        }
    )  # fmt: skip


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = np.random.default_rng(9100 + seed)
    table = applicants(rng, N_ROWS, 1)
    for column, count in MISSING.items():
        table.loc[rng.choice(N_ROWS, count, replace=False), column] = np.nan
    outliers = rng.choice(N_ROWS, 8, replace=False)
    table.loc[outliers, "Amount"] = (table.loc[outliers, "Amount"] * rng.uniform(15, 25, 8)).round(
        -1
    )
    test_rows = rng.choice(N_ROWS, N_TEST, replace=False)
    in_test = np.zeros(N_ROWS, bool)
    in_test[test_rows] = True
    test, labelled = table[in_test], table[~in_test]
    duplicates = labelled.sample(5, random_state=seed)
    labelled = pd.concat([labelled, duplicates]).sort_values("id", kind="stable")
    validation = labelled.drop_duplicates()["id"].sample(frac=0.2, random_state=seed).sort_values()
    data = workspace / "data"
    data.mkdir(parents=True, exist_ok=True)
    labelled.to_csv(data / "credit.csv", index=False)
    test.drop(columns=["Status"]).to_csv(data / "test.csv", index=False)
    (data / "validation_ids.txt").write_text("".join(f"{i}\n" for i in validation), "utf-8")
    test[["id", "Status"]].to_csv(private / "test_labels.csv", index=False)
    applicants(np.random.default_rng(9900 + seed), 15000, 100000).to_csv(
        private / "extra.csv", index=False
    )
    facts = {
        "rows": len(labelled),
        "positive_rate": float((labelled["Status"] == "bad").mean()),
        "missing": {c: int(v) for c, v in labelled.isna().sum().items() if v},
        "duplicates": int(labelled.duplicated().sum()),
        "amount_outlier_ids": sorted(
            int(i) for i in table.loc[outliers, "id"] if i in set(labelled["id"])
        ),
    }
    (private / "facts.json").write_text(json.dumps(facts, indent=2), "utf-8")
    return {}
