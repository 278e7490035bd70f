"""Kaggle's download of uw-madison-gi-tract-image-segmentation: MRI slices as 16-bit PNGs.

``uw-madison-gi-tract-image-segmentation.zip`` holds ``train.csv`` (``id,class,segmentation``:
three rows per slice, ``large_bowel``, ``small_bowel`` and ``stomach``, ids
``case<N>_day<M>_slice_<XXXX>``, an empty cell where the organ is not on the slice, masks
run-length encoded row-major), Kaggle's placeholder ``sample_submission.csv`` (the header
``id,class,predicted`` only: the real test set was hidden) and
``train/case<N>/case<N>_day<M>/scans/slice_<XXXX>_<width>_<height>_<pw>_<ph>.png``. Here: 11
cases on one to five days (one case on five days, so a day moves to test), four slices a day,
slices of 16 x 16 pixels except one case of 20 x 16 (Kaggle's 360 x 310 is not square either).
Each organ is a block placed at random per case and day, on the slices it spans.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.graders.rle import encode
from tests.lite.harness import PreparedLite
from tests.lite.synthetic_images import encoded

COMPETITION = "uw-madison-gi-tract-image-segmentation"
EMPTY_CELL_IS_TEXT = True  # an empty mask is a valid prediction: the organ is not on the slice
CLASSES = ("large_bowel", "small_bowel", "stomach")
DAYS = (1, 2, 1, 5, 2, 1, 3, 1, 2, 1, 1)
SLICES = 4
SIDE = 16


def _size(case: int) -> tuple[int, int]:
    """(width, height) of a case's slices."""
    return (20, SIDE) if case == 7 else (SIDE, SIDE)


def _organ(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """One organ's voxels over a day's slices: a block on a run of consecutive slices."""
    volume = np.zeros((SLICES, height, width), dtype=bool)
    if rng.random() < 0.15:
        return volume
    first = int(rng.integers(0, SLICES - 1))
    last = int(rng.integers(first + 1, SLICES + 1))
    top, left = int(rng.integers(0, height - 5)), int(rng.integers(0, width - 5))
    tall, wide = int(rng.integers(3, 6)), int(rng.integers(3, 6))
    volume[first:last, top : top + tall, left : left + wide] = True
    return volume


def make_download(folder: Path, rng: np.random.Generator) -> None:
    rows, members = [], {}
    for case, days in enumerate(DAYS, start=1):
        width, height = _size(case)
        for day in sorted(rng.choice(np.arange(1, 30), size=days, replace=False)):
            case_day = f"case{case}_day{day}"
            organs = {name: _organ(rng, width, height) for name in CLASSES}
            for number in range(1, SLICES + 1):
                slice_id = f"{case_day}_slice_{number:04d}"
                for name in CLASSES:
                    mask = organs[name][number - 1]
                    rows.append((slice_id, name, encode(mask, "row")))
                pixels = rng.integers(0, 900, size=(height, width)).astype(np.uint16)
                for mask in organs.values():
                    pixels[mask[number - 1]] += 2000
                name = f"slice_{number:04d}_{width}_{height}_1.50_1.50.png"
                members[f"train/case{case}/{case_day}/scans/{name}"] = encoded(pixels, "PNG")
    train = pd.DataFrame(rows, columns=["id", "class", "segmentation"])
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("sample_submission.csv", "id,class,predicted\n")
        for name, content in members.items():
            bundle.writestr(name, content)


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)


def train_files(public: Path) -> dict[str, Path]:
    return _slice_files(public / "train")


def test_files(public: Path) -> dict[str, Path]:
    return _slice_files(public / "test")


def _slice_files(side: Path) -> dict[str, Path]:
    """Each slice's PNG by its ``id`` (``<case>_<day>_slice_<XXXX>``)."""
    files = {}
    for png in side.glob("*/*/scans/*.png"):
        number = png.stem.split("_")[1]
        files[f"{png.parents[1].name}_slice_{number}"] = png
    return files


def perfect_submission(prepared: PreparedLite) -> pd.DataFrame:
    answers = prepared.read_answers()
    return answers[["id", "class", "segmentation"]].rename(columns={"segmentation": "predicted"})


def leak_probe(prepared: PreparedLite) -> pd.DataFrame:
    """Metadata only: for each test row, the training mask most often seen for its organ on
    slices of the same number (file names and sizes alike say nothing of where an organ is)."""
    train = public_train_labels(prepared.public)
    number = train["id"].str.rsplit("_", n=1).str[-1]
    usual = train.assign(number=number).groupby(["class", "number"])["segmentation"]
    common = usual.agg(lambda masks: masks.value_counts().index[0]).to_dict()
    sample = prepared.read_sample()
    keys = zip(sample["class"], sample["id"].str.rsplit("_", n=1).str[-1], strict=True)
    sample["predicted"] = [common.get(key, "") for key in keys]
    return sample
