"""The monthly revenue analysis of analysis.ipynb as a pipeline of declared stages.

Usage:
    python3 pipeline.py [--input data/orders.csv] [--out-dir out] [--min-qty 2] [--stage NAME]

Every stage reads the input export or the files earlier stages wrote to the output folder and
writes its own files there (``stages.json`` declares them). Without ``--stage`` all stages run in
the declared order. A run rewrites its files whole, so running it again changes nothing.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

FX_TO_EUR = {"EUR": 1.0, "USD": 0.92, "GBP": 1.17}
DEFAULT_MIN_QTY = 2
TOP = 5


def clean(source: Path, out: Path, min_qty: int) -> None:
    """Drop repeated orders, rows without a customer and free samples; add EUR amounts and the
    month; write clean.csv and the row counts (counts.json)."""
    orders = pd.read_csv(source, parse_dates=["date"])
    rows_in = len(orders)
    orders = orders.drop_duplicates(subset="order_id", keep="first")
    orders = orders.dropna(subset=["customer"])
    orders = orders[orders["qty"] >= min_qty].copy()
    orders["amount_eur"] = orders["qty"] * orders["unit_price"] * orders["currency"].map(FX_TO_EUR)
    orders["month"] = orders["date"].dt.strftime("%Y-%m")
    orders.to_csv(out / "clean.csv", index=False)
    counts = {"rows_in": rows_in, "rows_clean": len(orders)}
    (out / "counts.json").write_text(json.dumps(counts, indent=2) + "\n")


def _clean_orders(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "clean.csv", dtype={"month": str})


def monthly(source: Path, out: Path, min_qty: int) -> None:
    """Sum the EUR amounts per month and region, rounded to cents, into monthly.csv."""
    orders = _clean_orders(out)
    table = orders.groupby(["month", "region"], as_index=False)["amount_eur"].sum()
    table["amount_eur"] = table["amount_eur"].round(2)
    table.to_csv(out / "monthly.csv", index=False)


def top_customers(source: Path, out: Path, min_qty: int) -> None:
    """Rank customers by EUR revenue and keep the five largest, rounded to cents, in
    top_customers.json."""
    orders = _clean_orders(out)
    totals = orders.groupby("customer")["amount_eur"].sum().sort_values(ascending=False)
    best = totals.head(TOP).round(2)
    ranked = {str(name): float(value) for name, value in best.items()}
    (out / "top_customers.json").write_text(json.dumps(ranked, indent=2) + "\n")


def summary(source: Path, out: Path, min_qty: int) -> None:
    """Assemble summary.json from the counts, the total EUR revenue and the top customers
    (no run time in it, so that a rerun writes the same bytes)."""
    counts = json.loads((out / "counts.json").read_text())
    orders = _clean_orders(out)
    result = {
        "rows_in": counts["rows_in"],
        "rows_clean": counts["rows_clean"],
        "revenue_eur": round(float(orders["amount_eur"].sum()), 2),
        "top_customers": json.loads((out / "top_customers.json").read_text()),
    }
    (out / "summary.json").write_text(json.dumps(result, indent=2) + "\n")


STAGES: dict[str, Callable[[Path, Path, int], None]] = {
    "clean": clean,
    "monthly": monthly,
    "top_customers": top_customers,
    "summary": summary,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default="data/orders.csv")
    parser.add_argument("--out-dir", default="out")
    parser.add_argument("--min-qty", type=int, default=DEFAULT_MIN_QTY)
    parser.add_argument("--stage", choices=sorted(STAGES))
    args = parser.parse_args(argv)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = [args.stage] if args.stage else list(STAGES)
    for name in names:
        STAGES[name](Path(args.input), out, args.min_qty)


if __name__ == "__main__":
    main()
