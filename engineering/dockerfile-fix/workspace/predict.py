"""Batch scoring of a small linear model: ``python3 predict.py predict IN.csv OUT.csv``.

The model is ``model.json`` beside this file (``{"features": [...], "weights": [...], "bias":
b}``); the scores come from ``mlb_tinylinear`` (``requirements.txt``, a wheel in ``wheels/``).
``IN.csv`` has a header with ``id`` and the model's features; ``OUT.csv`` gets ``id,score``, one
row per input row, the score with six decimals.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import mlb_tinylinear

MODEL = Path(__file__).resolve().with_name("model.json")


def predict(source: Path, target: Path) -> int:
    model = json.loads(MODEL.read_text("utf-8"))
    scorer = mlb_tinylinear.LinearScorer(model["weights"], model["bias"])
    rows = 0
    with (
        source.open(newline="", encoding="utf-8") as inp,
        target.open("w", newline="", encoding="utf-8") as out,
    ):
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", "score"])
        for row in csv.DictReader(inp):
            values = [float(row[name]) for name in model["features"]]
            writer.writerow([row["id"], f"{scorer.score(values):.6f}"])
            rows += 1
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] != "predict":
        print("usage: predict.py predict IN.csv OUT.csv", file=sys.stderr)
        return 2
    rows = predict(Path(argv[2]), Path(argv[3]))
    print(f"scored {rows} rows into {argv[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
