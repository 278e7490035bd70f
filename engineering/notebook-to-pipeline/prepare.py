"""Per-seed data of notebook-to-pipeline: an orders export and the notebook's results on it.

``prepare`` writes ``data/orders.csv`` (the export the notebook reads), sets the notebook's
``MIN_QTY`` parameter for the seed, stores the notebook's printed summary as its last cell's
output, and writes the notebook's results on that export to ``reference/`` (``monthly.csv``,
``summary.json`` without the run time). Into ``private/`` go a hidden export of other months and
customers (``hidden_orders.csv``) and the notebook's results on it for the default ``MIN_QTY`` and
for another value (``expected.json``).

The results are computed here in plain Python, step for step as the notebook's pandas code does
(first of each ``order_id``, rows without a customer dropped, ``qty >= MIN_QTY``, EUR amounts,
sums per month and region rounded to cents, the five largest customers), so that no pandas
version is involved. Only numpy and the standard library are used.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

FX_TO_EUR = {"EUR": 1.0, "USD": 0.92, "GBP": 1.17}
REGIONS = ["north", "south", "east", "west"]
COLUMNS = ["order_id", "date", "customer", "region", "qty", "unit_price", "currency"]
TOP = 5


def orders(rng: np.random.Generator, n: int, year: int, months: list[int], prefix: str) -> str:
    """A CSV export of ``n`` orders, with repeated orders and rows missing their customer."""
    customers = [f"{prefix}{i:03d}" for i in rng.choice(900, size=40, replace=False)]
    rows: list[list[str]] = []
    for index in range(n):
        month = int(rng.choice(months))
        qty = int(rng.integers(1, 10))
        rows.append(
            [
                f"{prefix}-{year}-{index + 1:05d}",
                f"{year}-{month:02d}-{int(rng.integers(1, 29)):02d}",
                "" if rng.random() < 0.03 else str(rng.choice(customers)),
                str(rng.choice(REGIONS)),
                str(qty),
                f"{rng.uniform(2, 180):.2f}",
                str(rng.choice(list(FX_TO_EUR), p=[0.6, 0.3, 0.1])),
            ]
        )
    for copy in rng.choice(n, size=max(3, n // 30), replace=False):
        rows.insert(int(rng.integers(copy, len(rows) + 1)), list(rows[copy]))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return buffer.getvalue()


def results(text: str, min_qty: int) -> dict[str, Any]:
    """The notebook's ``monthly`` table and ``summary`` (without ``generated_at``) for ``text``."""
    records = list(csv.DictReader(io.StringIO(text)))
    seen: set[str] = set()
    kept = []
    for record in records:
        if record["order_id"] in seen:
            continue
        seen.add(record["order_id"])
        if record["customer"] and int(record["qty"]) >= min_qty:
            kept.append(record)
    amounts = [int(r["qty"]) * float(r["unit_price"]) * FX_TO_EUR[r["currency"]] for r in kept]
    monthly: dict[tuple[str, str], float] = {}
    by_customer: dict[str, float] = {}
    for record, amount in zip(kept, amounts, strict=True):
        key = (record["date"][:7], record["region"])
        monthly[key] = monthly.get(key, 0.0) + amount
        by_customer[record["customer"]] = by_customer.get(record["customer"], 0.0) + amount
    best = sorted(by_customer.items(), key=lambda item: -item[1])[:TOP]
    return {
        "monthly": [
            {"month": m, "region": r, "amount_eur": float(np.round(v, 2))}
            for (m, r), v in sorted(monthly.items())
        ],
        "summary": {
            "rows_in": len(records),
            "rows_clean": len(kept),
            "revenue_eur": round(float(sum(amounts)), 2),
            "top_customers": {name: float(np.round(value, 2)) for name, value in best},
        },
    }


def monthly_csv(rows: list[dict[str, Any]]) -> str:
    lines = ["month,region,amount_eur"]
    lines += [f"{row['month']},{row['region']},{row['amount_eur']}" for row in rows]
    return "\n".join(lines) + "\n"


def _patch_notebook(path: Path, min_qty: int, summary: dict[str, Any]) -> None:
    """Set the seed's MIN_QTY and store the summary the notebook printed on the shipped export."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if "MIN_QTY = 2" in source:
            cell["source"] = [
                line.replace("MIN_QTY = 2", f"MIN_QTY = {min_qty}") for line in cell["source"]
            ]
        if source.startswith("OUT.mkdir"):
            printed = dict(summary, generated_at="2024-07-03T09:14:52")
            cell["outputs"] = [
                {
                    "output_type": "execute_result",
                    "execution_count": cell["execution_count"],
                    "metadata": {},
                    "data": {"text/plain": json.dumps(printed, indent=1)},
                }
            ]
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = np.random.default_rng(4200 + seed)
    min_qty = 2 + seed % 2
    shipped = orders(rng, 300, 2024, [1, 2, 3, 4, 5, 6], "C")
    hidden = orders(rng, 420, 2025, [3, 4, 5, 6, 7, 8, 9], "K")
    (workspace / "data").mkdir(parents=True, exist_ok=True)
    (workspace / "data" / "orders.csv").write_text(shipped)
    visible = results(shipped, min_qty)
    reference = workspace / "reference"
    reference.mkdir(exist_ok=True)
    (reference / "monthly.csv").write_text(monthly_csv(visible["monthly"]))
    (reference / "summary.json").write_text(json.dumps(visible["summary"], indent=2) + "\n")
    _patch_notebook(workspace / "analysis.ipynb", min_qty, visible["summary"])
    private.mkdir(parents=True, exist_ok=True)
    (private / "hidden_orders.csv").write_text(hidden)
    other = min_qty + 2
    expected = {
        "min_qty": min_qty,
        "other_min_qty": other,
        "default": results(hidden, min_qty),
        "other": results(hidden, other),
    }
    (private / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")
    return {}
