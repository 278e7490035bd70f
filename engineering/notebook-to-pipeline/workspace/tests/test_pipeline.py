"""Visible check: the pipeline run on the shipped export gives the notebook's results."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_pipeline_reproduces_the_reference(tmp_path):
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, "pipeline.py", "--input", "data/orders.csv", "--out-dir", str(out)],
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    summary = json.loads((out / "summary.json").read_text())
    reference = json.loads((ROOT / "reference" / "summary.json").read_text())
    for key in ("rows_in", "rows_clean"):
        assert summary[key] == reference[key]
    assert summary["revenue_eur"] == pytest.approx(reference["revenue_eur"], abs=0.011)
    assert list(summary["top_customers"]) == list(reference["top_customers"])
    with (
        open(out / "monthly.csv", newline="") as ours,
        open(ROOT / "reference" / "monthly.csv", newline="") as theirs,
    ):
        got, want = list(csv.DictReader(ours)), list(csv.DictReader(theirs))
    assert [(r["month"], r["region"]) for r in got] == [(r["month"], r["region"]) for r in want]
    for a, b in zip(got, want, strict=True):
        assert float(a["amount_eur"]) == pytest.approx(float(b["amount_eur"]), abs=0.011)
