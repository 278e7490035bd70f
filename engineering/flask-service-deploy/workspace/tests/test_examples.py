"""A visible check of the model itself: it predicts the labels of ``examples.json``.

Run with ``python3 -m pytest tests`` (after ``python3 model/build.py``). It does not start the
service; the hidden checks do (see instruction.md).
"""

import json
import pickle
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_model_predicts_examples() -> None:
    examples = json.loads((ROOT / "examples.json").read_text("utf-8"))
    with (ROOT / "model.pkl").open("rb") as handle:
        model = pickle.load(handle)
    assert [str(p) for p in model.predict(examples["rows"])] == examples["predictions"]
