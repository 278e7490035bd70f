"""Visible smoke test: run it with the environment's Python after installing requirements.txt.

python3 -m venv /tmp/venv
/tmp/venv/bin/pip install --no-index --find-links wheelhouse -r requirements.txt
/tmp/venv/bin/python tests/test_smoke.py
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_app_runs() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "app.py")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("|") == 3


if __name__ == "__main__":
    test_app_runs()
    print("smoke test passed")
