"""Kaggle's download of google-research-identify-contrails-reduce-global-warming: folders of npy.

``google-research-identify-contrails-reduce-global-warming.zip`` holds ``train/<record_id>/``
(``band_08.npy`` … ``band_16.npy``, float32 ``H x W x 8``; ``human_pixel_masks.npy``, int32
``H x W x 1``; ``human_individual_masks.npy``, int32 ``H x W x 1 x R``), ``validation/`` in the
same form, ``test/<record_id>/`` (bands only), ``train_metadata.json`` and
``validation_metadata.json`` (lists of ``{"row_min", "row_size", "col_min", "col_size",
"timestamp", "projection_wkt", "record_id"}``, ids 19-digit strings) and
``sample_submission.csv`` (``record_id,encoded_pixels``). Scenes are 8 x 8 here instead of
256 x 256; a contrail is a diagonal streak, warmer in band 11; about half the records have none.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.graders.rle import encode

COMPETITION = "google-research-identify-contrails-reduce-global-warming"
EMPTY_CELL_IS_TEXT = True  # an empty cell is an empty mask, like "-"
SIDE, FRAMES = 8, 8
TRAIN_RECORDS, VALIDATION_RECORDS = 40, 8


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _mask(rng: np.random.Generator) -> np.ndarray:
    mask = np.zeros((SIDE, SIDE), dtype=np.int32)
    if rng.random() < 0.5:
        offset = int(rng.integers(-3, 4))
        mask[np.eye(SIDE, k=offset, dtype=bool)] = 1
    return mask


def _record(bundle: zipfile.ZipFile, folder: str, rng: np.random.Generator, labels: bool) -> None:
    mask = _mask(rng)
    for band in range(8, 17):
        frames = rng.normal(250.0, 2.0, (SIDE, SIDE, FRAMES)).astype(np.float32)
        if band == 11:
            frames[:, :, 4] += 10.0 * mask
        bundle.writestr(f"{folder}/band_{band:02}.npy", _npy(frames))
    if labels:
        bundle.writestr(f"{folder}/human_pixel_masks.npy", _npy(mask[:, :, None]))
        annotators = np.stack([mask, mask, np.zeros_like(mask)], axis=-1)[:, :, None, :]
        bundle.writestr(f"{folder}/human_individual_masks.npy", _npy(annotators))


def _meta(record_id: str, rng: np.random.Generator) -> dict[str, object]:
    return {
        "row_min": float(rng.uniform(-4e6, 4e6)),
        "row_size": 2000.0,
        "col_min": float(rng.uniform(-4e6, 4e6)),
        "col_size": 2000.0,
        "timestamp": float(rng.integers(1.55e9, 1.65e9)),
        "projection_wkt": 'PROJCS["unknown",GEOGCS["unknown",DATUM["WGS_1984"]]]',
        "record_id": record_id,
    }


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = [str(n) for n in rng.integers(10**18, 9 * 10**18, TRAIN_RECORDS + VALIDATION_RECORDS + 2)]
    train, validation, test = (
        ids[:TRAIN_RECORDS],
        ids[TRAIN_RECORDS : TRAIN_RECORDS + VALIDATION_RECORDS],
        ids[-2:],
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        for split, records, labels in (
            ("train", train, True),
            ("validation", validation, True),
            ("test", test, False),
        ):
            for record in records:
                _record(bundle, f"{split}/{record}", rng, labels)
        bundle.writestr("train_metadata.json", json.dumps([_meta(r, rng) for r in train]))
        bundle.writestr("validation_metadata.json", json.dumps([_meta(r, rng) for r in validation]))
        sample = pd.DataFrame({"record_id": test, "encoded_pixels": "-"})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    records = sorted(path for path in (public / "train").iterdir())
    masks = [np.load(path / "human_pixel_masks.npy")[:, :, 0] == 1 for path in records]
    return pd.DataFrame(
        {
            "record_id": [path.name for path in records],
            "encoded_pixels": [encode(mask, "column") or "-" for mask in masks],
        }
    )


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path / "band_11.npy" for path in (public / "train").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path / "band_11.npy" for path in (public / "test").iterdir()}
