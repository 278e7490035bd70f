"""Kaggle's download of the-icml-2013-whale-challenge-right-whale-redux: two zips of AIFF clips.

``the-icml-2013-whale-challenge-right-whale-redux.zip`` holds ``train2.zip`` (``train2/`` with
four days of clips named ``<YYYYMMDD>_<HHMMSS>_<offset>_TRAIN<n>_<label>.aif``, the label last)
and ``test2.zip`` (``test2/`` with three later days, ``..._Test<n>.aif``). Clips are mono
16-bit AIFF at 2 kHz. A synthetic whale call is a rising tone over noise, a noise clip is noise
alone; every clip has the same length, so the same size. The real clips last two seconds;
these last a tenth of one.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_media import aiff_bytes

COMPETITION = "the-icml-2013-whale-challenge-right-whale-redux"
RATE = 2_000
SAMPLES = 200
TRAIN_DAYS = ("20090328", "20090329", "20090330", "20090331")
TEST_DAYS = ("20090401", "20090402", "20090403")
CLIPS_PER_TRAIN_DAY = 20
CLIPS_PER_TEST_DAY = 3
LABEL = re.compile(r"_([01])\.aif$")


def _clip(rng: np.random.Generator, call: bool) -> bytes:
    time = np.arange(SAMPLES) / RATE
    noise = rng.normal(0.0, 0.05, SAMPLES)
    upcall = np.sin(2 * np.pi * (100 + 1_000 * time) * time) if call else 0.0
    return aiff_bytes(noise + 0.3 * upcall, RATE)


def _offsets(rng: np.random.Generator, count: int) -> list[str]:
    tenths = np.sort(rng.choice(864_000, size=count, replace=False))
    return [f"{t // 10:03d}s{t % 10}ms" for t in tenths]


def _zip(folder: str, clips: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for name, content in clips.items():
            bundle.writestr(f"{folder}/{name}", content)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train, test, index = {}, {}, 0
    for day in TRAIN_DAYS:
        for offset in _offsets(rng, CLIPS_PER_TRAIN_DAY):
            label = int(rng.random() < 0.5)
            train[f"{day}_000000_{offset}_TRAIN{index}_{label}.aif"] = _clip(rng, bool(label))
            index += 1
    index = 0
    for day in TEST_DAYS:
        for offset in _offsets(rng, CLIPS_PER_TEST_DAY):
            test[f"{day}_000000_{offset}_Test{index}.aif"] = _clip(rng, rng.random() < 0.5)
            index += 1
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train2.zip", _zip("train2", train))
        bundle.writestr("test2.zip", _zip("test2", test))


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in sorted((public / "train2").glob("*.aif"))}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in sorted((public / "test2").glob("*.aif"))}


def public_train_labels(public: Path) -> pd.DataFrame:
    clips = list(train_files(public))
    labels = [int(match.group(1)) for match in map(LABEL.search, clips) if match]
    return pd.DataFrame({"clip": clips, "probability": labels})
