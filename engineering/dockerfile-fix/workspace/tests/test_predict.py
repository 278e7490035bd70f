"""Visible test of the scorer (not of the image): run it where mlb-tinylinear is installed.

python3 -m venv /tmp/venv
/tmp/venv/bin/pip install --no-index --find-links wheels -r requirements.txt
/tmp/venv/bin/python tests/test_predict.py
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_sample_predictions() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "predictions.csv"
        done = subprocess.run(
            [sys.executable, str(ROOT / "predict.py"), "predict",
             str(ROOT / "samples" / "input.csv"), str(out)],
            capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        expected = (ROOT / "samples" / "expected.csv").read_text()
        assert out.read_text() == expected


if __name__ == "__main__":
    test_sample_predictions()
    print("sample predictions match")
