"""Kaggle's download of tensorflow-speech-recognition-challenge: three 7-Zip archives.

``tensorflow-speech-recognition-challenge.zip`` holds ``train.7z`` (``train/audio/<word>/
<8 hex digits>_nohash_<n>.wav`` for the 10 commands and other words,
``train/audio/_background_noise_/*.wav`` with its ``README.md``, ``train/testing_list.txt``,
``train/validation_list.txt``, ``train/LICENSE``), ``test.7z`` (``test/audio/clip_<hex>.wav``) and
``sample_submission.7z`` (``sample_submission.csv``: ``fname,label``), plus
``link_to_gcp_credits_form.txt``. The synthetic clips are real 16 kHz mono WAVs of 20 ms, a tone
whose pitch is the word's, so the sound predicts the class; every clip has the same size.
"""

from __future__ import annotations

import io
import wave
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import py7zr

from tests.lite.synthetic_images import random_hex

COMPETITION = "tensorflow-speech-recognition-challenge"
EMPTY_CELL_IS_TEXT = True  # accuracy reads an empty label as the text "", a wrong answer
WORDS = ("yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "bed", "cat", "dog")
PER_WORD = 16
NOISE_FILES = ("white_noise.wav", "pink_noise.wav", "running_tap.wav", "doing_the_dishes.wav")


def _wav(rng: np.random.Generator, pitch: float) -> bytes:
    time = np.arange(320) / 16_000
    samples = 8000 * np.sin(2 * np.pi * pitch * time) + rng.normal(0, 300, time.size)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(16_000)
        audio.writeframes(samples.astype("<i2").tobytes())
    return buffer.getvalue()


def _seven_zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(data, name)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    speakers = [random_hex(rng, 8) for _ in range(12)]
    train: dict[str, bytes] = {}
    for index, word in enumerate(WORDS):
        for n in range(PER_WORD):
            speaker = speakers[int(rng.integers(len(speakers)))]
            train[f"train/audio/{word}/{speaker}_nohash_{n}.wav"] = _wav(rng, 200 + 150 * index)
    for name in NOISE_FILES:
        train[f"train/audio/_background_noise_/{name}"] = _wav(rng, 0)
    train["train/audio/_background_noise_/README.md"] = b"Background noise recordings.\n"
    listed = sorted(name.removeprefix("train/audio/") for name in train if name.endswith(".wav"))
    train["train/testing_list.txt"] = "\n".join(listed[::10]).encode()
    train["train/validation_list.txt"] = "\n".join(listed[5::10]).encode()
    train["train/LICENSE"] = b"Creative Commons BY 4.0\n"
    kaggle_test = [f"clip_{random_hex(rng, 9)}.wav" for _ in range(4)]
    test = {f"test/audio/{name}": _wav(rng, 500) for name in kaggle_test}
    sample = pd.DataFrame({"fname": kaggle_test, "label": "silence"}).to_csv(index=False)
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.7z", _seven_zip(train))
        bundle.writestr("test.7z", _seven_zip(test))
        bundle.writestr(
            "sample_submission.7z", _seven_zip({"sample_submission.csv": sample.encode()})
        )
        bundle.writestr("link_to_gcp_credits_form.txt", "https://example.org/form\n")


def public_train_labels(public: Path) -> pd.DataFrame:
    """The train clips with Kaggle's class of their folder, by ``<folder>/<file>``."""
    clips = sorted((public / "train" / "audio").rglob("*.wav"))
    commands = WORDS[:10]
    folders = [clip.parent.name for clip in clips]
    labels = [
        f if f in commands else ("silence" if f.startswith("_") else "unknown") for f in folders
    ]
    return pd.DataFrame({"fname": [f"{c.parent.name}/{c.name}" for c in clips], "label": labels})


def train_files(public: Path) -> dict[str, Path]:
    audio = public / "train" / "audio"
    return {f"{path.parent.name}/{path.name}": path for path in audio.rglob("*.wav")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "test" / "audio").iterdir()}
