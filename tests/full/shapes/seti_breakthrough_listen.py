"""Kaggle's download of seti-breakthrough-listen: one zip of two CSVs and three cadence folders.

``seti-breakthrough-listen.zip`` holds ``train_labels.csv`` (``id,target``),
``sample_submission.csv`` (the same columns for Kaggle's test ids), ``train/<c>/<id>.npy`` and
``test/<c>/<id>.npy`` (``<c>`` is the id's first character) and ``old_leaky_data/`` (the withdrawn
first release: ``train_labels_old.csv``, ``train_old/<c>/<id>.npy``, ``test_old/<c>/<id>.npy``).
Ids are 15 lowercase hex digits. Each ``.npy`` is a ``float16`` cadence of six pointings (Kaggle's
are ``(6, 273, 256)``; these are ``(6, 4, 8)``); a positive carries a brighter band in the three
"on" pointings (0, 2, 4), so the content predicts the target and the file size does not.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "seti-breakthrough-listen"
TRAIN_CADENCES = 60
TEST_CADENCES = 4
OLD_CADENCES = 6
SHAPE = (6, 4, 8)


def _ids(rng: np.random.Generator, count: int) -> list[str]:
    return [f"{int(value):015x}" for value in rng.integers(16**14, 16**15, size=count)]


def _cadence(rng: np.random.Generator, target: int) -> bytes:
    values = rng.normal(0, 1, SHAPE)
    if target:
        values[0::2, :, 3] += 4.0
    buffer = io.BytesIO()
    np.save(buffer, values.astype(np.float16))
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = _ids(rng, TRAIN_CADENCES + TEST_CADENCES + OLD_CADENCES)
    targets = (rng.random(len(ids)) < 0.3).astype(int)
    train = slice(0, TRAIN_CADENCES)
    test = slice(TRAIN_CADENCES, TRAIN_CADENCES + TEST_CADENCES)
    old = slice(TRAIN_CADENCES + TEST_CADENCES, None)
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        labels = pd.DataFrame({"id": ids[train], "target": targets[train]})
        bundle.writestr("train_labels.csv", labels.to_csv(index=False))
        sample = pd.DataFrame({"id": ids[test], "target": 0.5})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        # The old release overlaps the current one: two current train ids, with their labels.
        old_ids = [*ids[old], *ids[:2]]
        old_labels = pd.DataFrame({"id": old_ids, "target": [*targets[old], *targets[:2]]})
        bundle.writestr("old_leaky_data/train_labels_old.csv", old_labels.to_csv(index=False))
        for part, names, labels_of in (
            ("train", ids[train], targets[train]),
            ("test", ids[test], targets[test]),
            ("old_leaky_data/train_old", old_ids, old_labels["target"].to_numpy()),
            ("old_leaky_data/test_old", ids[test], targets[test]),
        ):
            for name, target in zip(names, labels_of, strict=True):
                bundle.writestr(f"{part}/{name[0]}/{name}.npy", _cadence(rng, int(target)))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train_labels.csv", dtype={"id": str})


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*/*.npy")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*/*.npy")}
