"""Kaggle's download of AI4Code: one zip of two folders of notebook JSON and three CSVs.

``AI4Code.zip`` holds ``train/<id>.json`` and ``test/<id>.json`` (each ``{"cell_type": {cell:
"code"|"markdown"}, "source": {cell: text}}``, code cells in order, then the markdown cells
shuffled), ``train_orders.csv`` (``id,cell_order``), ``train_ancestors.csv``
(``id,ancestor_id,parent_id``, ``parent_id`` often blank) and ``sample_submission.csv``
(``id,cell_order``). Notebook ids are 14 hex digits, cell ids 8; some notebooks are forks of one
ancestor. Each synthetic markdown cell names the code cell it precedes ("## step 3"), so the text
predicts the order; cell ids are random, so sorting them tells nothing.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.harness import PreparedLite
from tests.lite.synthetic_images import random_hex

COMPETITION = "AI4Code"
NOTEBOOKS = 80
KAGGLE_TEST = 4


def _notebook(rng: np.random.Generator) -> tuple[dict[str, dict[str, str]], str]:
    """One notebook's JSON content and its true cell order."""
    steps = int(rng.integers(2, 7))
    order, kinds, sources = [], {}, {}
    for step in range(steps):
        for kind in ("markdown", "code") if rng.random() < 0.7 else ("code",):
            cell = random_hex(rng, 8)
            order.append(cell)
            kinds[cell] = kind
            sources[cell] = f"## step {step}" if kind == "markdown" else f"x{step} = f({step})"
    code = [cell for cell in order if kinds[cell] == "code"]
    markdown = [cell for cell in order if kinds[cell] == "markdown"]
    listed = code + list(rng.permutation(markdown))
    content = {
        "cell_type": {cell: kinds[cell] for cell in listed},
        "source": {cell: sources[cell] for cell in listed},
    }
    return content, " ".join(order)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = [random_hex(rng, 14) for _ in range(NOTEBOOKS + KAGGLE_TEST)]
    founders = ids[: NOTEBOOKS // 2]
    ancestors = [founders[int(rng.integers(0, len(founders)))] for _ in range(NOTEBOOKS)]
    lineage = pd.DataFrame(
        {
            "id": ids[:NOTEBOOKS],
            "ancestor_id": [a[:8] for a in ancestors],
            "parent_id": [a if rng.random() < 0.3 else "" for a in ancestors],
        }
    )
    orders = []
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for index, notebook in enumerate(ids):
            content, order = _notebook(rng)
            part = "train" if index < NOTEBOOKS else "test"
            bundle.writestr(f"{part}/{notebook}.json", json.dumps(content))
            if part == "train":
                orders.append({"id": notebook, "cell_order": order})
            else:
                orders.append({"id": notebook, "cell_order": " ".join(content["cell_type"])})
        train_orders = pd.DataFrame(orders[:NOTEBOOKS])
        bundle.writestr("train_orders.csv", train_orders.to_csv(index=False))
        bundle.writestr("train_ancestors.csv", lineage.to_csv(index=False))
        bundle.writestr(
            "sample_submission.csv", pd.DataFrame(orders[NOTEBOOKS:]).to_csv(index=False)
        )


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train_orders.csv", dtype=str)


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*.json")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*.json")}


def leak_probe(prepared: PreparedLite) -> pd.DataFrame:
    """What metadata alone can order: each test notebook's cells sorted by cell id."""
    sample = prepared.read_sample()
    cells = sample["cell_order"].str.split()
    return sample.assign(cell_order=[" ".join(sorted(listed)) for listed in cells])
