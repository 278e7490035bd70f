"""Kaggle's download of stanford-covid-vaccine: one zip of two JSON-lines files, a CSV, ``bpps/``.

``stanford-covid-vaccine.zip`` holds ``train.json`` (one record per line: ``index, id,
sequence, structure, predicted_loop_type, signal_to_noise, SN_filter, seq_length, seq_scored``,
the five error lists and the five target lists of ``seq_scored`` numbers), ``test.json``
(without targets, errors and filters), ``sample_submission.csv`` (``id_seqpos`` and the five
targets) and ``bpps/<id>.npy``. Ids are ``id_`` and nine hex digits. A quarter of the synthetic
sequences fail the filter. The synthetic rates follow each base's letter and pairing, so the
content predicts them.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "stanford-covid-vaccine"
TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
ERRORS = [
    "reactivity_error",
    "deg_error_Mg_pH10",
    "deg_error_pH10",
    "deg_error_Mg_50C",
    "deg_error_50C",
]
SCORED_TARGETS = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]
LENGTH, SCORED = 20, 12
TRAIN_SEQUENCES, TEST_SEQUENCES = 40, 4
LETTER_RATE = {"A": 0.9, "G": 0.6, "U": 0.4, "C": 0.2}


def _record(rng: np.random.Generator, index: int, labelled: bool) -> dict[str, object]:
    sequence = "".join(rng.choice(list(LETTER_RATE), LENGTH))
    structure = "".join(rng.choice(list("(.)"), LENGTH))
    record: dict[str, object] = {
        "index": index,
        "id": "id_" + "".join(rng.choice(list("0123456789abcdef"), 9)),
        "sequence": sequence,
        "structure": structure,
        "predicted_loop_type": "".join(rng.choice(list("SMIBHEX"), LENGTH)),
        "seq_length": LENGTH,
        "seq_scored": SCORED,
    }
    if labelled:
        base = np.array(
            [
                LETTER_RATE[c] * (0.5 if s != "." else 1.0)
                for c, s in zip(sequence, structure, strict=True)
            ]
        )
        record |= {
            "signal_to_noise": round(float(rng.uniform(0, 10)), 3),
            "SN_filter": int(rng.random() > 0.25),
        }
        for name in ERRORS:
            record[name] = np.round(rng.uniform(0.05, 0.3, SCORED), 4).tolist()
        for number, name in enumerate(TARGETS):
            values = base[:SCORED] * (1 + 0.1 * number) + rng.normal(0, 0.05, SCORED)
            record[name] = np.round(values, 4).tolist()
    return record


def _lines(records: list[dict[str, object]]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = [_record(rng, i, True) for i in range(TRAIN_SEQUENCES)]
    test = [_record(rng, i, False) for i in range(TEST_SEQUENCES)]
    sample = pd.DataFrame(
        [(f"{r['id']}_{p}", *([0.0] * 5)) for r in test for p in range(LENGTH)],
        columns=["id_seqpos", *TARGETS],
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.json", _lines(train))
        bundle.writestr("test.json", _lines(test))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for record in train + test:
            buffer = io.BytesIO()
            np.save(buffer, rng.random((LENGTH, LENGTH)).astype(np.float32))
            bundle.writestr(f"bpps/{record['id']}.npy", buffer.getvalue())


def _read(public: Path, name: str) -> pd.DataFrame:
    return pd.read_json(public / name, lines=True)


def public_train_labels(public: Path) -> pd.DataFrame:
    rows = []
    for record in _read(public, "train.json").itertuples(index=False):
        for position in range(int(record.seq_scored)):
            values = [getattr(record, name)[position] for name in SCORED_TARGETS]
            rows.append((f"{record.id}_{position}", *values))
    return pd.DataFrame(rows, columns=["id_seqpos", *SCORED_TARGETS])


def group_values(public: Path) -> tuple[list[str], list[str]]:
    """The sequence ids of the public train and test records."""
    return _read(public, "train.json")["id"].tolist(), _read(public, "test.json")["id"].tolist()
