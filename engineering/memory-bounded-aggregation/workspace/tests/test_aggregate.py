"""Visible test: aggregate.py gives the expected totals and counts on data/sample.csv."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_sample_totals_and_counts(tmp_path: Path) -> None:
    output = tmp_path / "out.csv"
    done = subprocess.run(
        [sys.executable, "aggregate.py", "data/sample.csv", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    expected = (ROOT / "data" / "sample_expected.csv").read_text()
    assert output.read_text() == expected
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    data_lines = len((ROOT / "data" / "sample.csv").read_text().splitlines()) - 1
    kept = sum(int(line.split(",")[-1]) for line in expected.splitlines()[1:])
    assert counts == {"accepted": kept, "rejected": data_lines - kept}
