"""Kaggle's download of freesound-audio-tagging-2019, and FSDKaggle2019's metadata from Zenodo.

``freesound-audio-tagging-2019.zip`` holds ``train_curated.csv`` and ``train_noisy.csv``
(``fname,labels``: ``<8 hex digits>.wav`` and comma-separated class names),
``sample_submission.csv`` (``fname`` and the 80 class columns, zeros) and three flat zips of
WAV clips: ``train_curated.zip``, ``train_noisy.zip`` and ``test.zip``. The second source,
``FSDKaggle2019.meta.zip``, holds ``FSDKaggle2019.meta/`` with ``test_post_competition.csv``
(``fname,labels,usage,freesound_id,license``: all 4,481 test clips, ``usage`` Public or
Private), the two ``train_*_post_competition.csv`` and ``vocabulary.csv``. Kaggle's test clips
are the Private rows (as MLE-bench's prepare requires); the other rows label clips that are in
no file of the download. The clips are real 44.1 kHz mono WAVs of 10 ms, all of one size, their
sound unrelated to their labels.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.definition import load_competition
from tests.lite.synthetic_images import random_hex
from tests.lite.synthetic_media import wav_bytes

COMPETITION = "freesound-audio-tagging-2019"
ROOT = Path(__file__).resolve().parents[3]
CLASSES = list(load_competition(ROOT / "competitions" / COMPETITION).submission.target_columns)
META = "FSDKaggle2019.meta.zip"
TEST_CLIPS = 4481
PRIVATE_CLIPS = 40
TRAIN_CLIPS = 48
LICENCE = "http://creativecommons.org/publicdomain/zero/1.0/"


def _labels(rng: np.random.Generator, count: int) -> list[str]:
    picks = [
        rng.choice(len(CLASSES), size=int(rng.integers(1, 3)), replace=False) for _ in range(count)
    ]
    return [",".join(CLASSES[int(i)] for i in sorted(pick)) for pick in picks]


def _names(rng: np.random.Generator, count: int) -> list[str]:
    names: dict[str, None] = {}
    while len(names) < count:
        names[f"{random_hex(rng, 8)}.wav"] = None
    return list(names)


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in files.items():
            bundle.writestr(name, data)
    return buffer.getvalue()


def _clip(rng: np.random.Generator) -> bytes:
    return wav_bytes(rng.uniform(-0.5, 0.5, 441), 44_100)


def meta_zip(test: pd.DataFrame, rng: np.random.Generator) -> bytes:
    """``FSDKaggle2019.meta.zip`` for the test rows ``test`` (``fname,labels,usage``)."""
    table = test.assign(freesound_id=rng.integers(1000, 500_000, len(test)), license=LICENCE)
    train = pd.DataFrame({"fname": ["0006ae4e.wav"], "labels": [CLASSES[4]]})
    vocabulary = pd.DataFrame({"index": range(len(CLASSES)), "label": CLASSES})
    return _zip(
        {
            "FSDKaggle2019.meta/test_post_competition.csv": table.to_csv(index=False).encode(),
            "FSDKaggle2019.meta/train_curated_post_competition.csv": train.to_csv(
                index=False
            ).encode(),
            "FSDKaggle2019.meta/train_noisy_post_competition.csv": train.to_csv(
                index=False
            ).encode(),
            "FSDKaggle2019.meta/vocabulary.csv": vocabulary.to_csv(
                index=False, header=False
            ).encode(),
        }
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    names = _names(rng, TEST_CLIPS + 2 * TRAIN_CLIPS)
    test_names, curated, noisy = (
        names[:TEST_CLIPS],
        names[TEST_CLIPS : TEST_CLIPS + TRAIN_CLIPS],
        names[TEST_CLIPS + TRAIN_CLIPS :],
    )
    usage = np.array(["Public"] * TEST_CLIPS, dtype=object)
    usage[rng.choice(TEST_CLIPS, size=PRIVATE_CLIPS, replace=False)] = "Private"
    test = pd.DataFrame({"fname": test_names, "labels": _labels(rng, TEST_CLIPS), "usage": usage})
    kaggle_test = test.loc[test["usage"] == "Private", "fname"].sort_values().tolist()
    sample = pd.DataFrame(0, index=range(len(kaggle_test)), columns=CLASSES)
    sample.insert(0, "fname", kaggle_test)
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        for name, clips in (("train_curated", curated), ("train_noisy", noisy)):
            table = pd.DataFrame({"fname": clips, "labels": _labels(rng, len(clips))})
            bundle.writestr(f"{name}.csv", table.to_csv(index=False))
            bundle.writestr(f"{name}.zip", _zip({clip: _clip(rng) for clip in clips}))
        bundle.writestr("test.zip", _zip({clip: _clip(rng) for clip in kaggle_test}))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
    (folder / META).write_bytes(meta_zip(test, rng))


def public_train_labels(public: Path) -> pd.DataFrame:
    """The curated train clips, one 0/1 column a class."""
    table = pd.read_csv(public / "train_curated.csv", dtype=str)
    labels = table["labels"].str.split(",")
    hot = pd.DataFrame([[int(c in row) for c in CLASSES] for row in labels], columns=CLASSES)
    hot.insert(0, "fname", table["fname"])
    return hot


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "train_curated").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "test").iterdir()}
