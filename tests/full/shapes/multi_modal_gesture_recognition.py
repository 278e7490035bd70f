"""Kaggle's download of multi-modal-gesture-recognition: tar.gz archives of sample zips, 7z files.

``multi-modal-gesture-recognition.zip`` holds ``training1.tar.gz`` … ``training4.tar.gz`` and
``validation1.tar.gz`` … ``validation3.tar.gz`` (each a tar of ``SampleNNNNN.zip`` files; a sample
zip holds ``SampleNNNNN_color.mp4``, ``_depth.mp4``, ``_user.mp4``, ``_audio.wav`` and
``_data.mat``, whose ``Video`` struct has ``NumFrames``, ``FrameRate``, ``MaxDepth``, the skeleton
``Frames`` and, for training samples, the ``Labels`` struct array — ``Name``, ``Begin``, ``End`` of
each gesture), ``training.csv`` (``Id,Sequence``: four-digit ids, space-separated gesture numbers
1 to 20), ``randomPredictions.csv``, ``devel01-40.7z``, ``valid_all_files_combined.7z`` and
``sample_code_mmrgc.zip``. The synthetic videos are a few bytes behind an MP4 ``ftyp`` box, the
audio a real 10 ms WAV; every sample performs 8 to 12 of the 20 gestures.
"""

from __future__ import annotations

import functools
import gzip
import io
import tarfile
import wave
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import py7zr
import scipy.io

COMPETITION = "multi-modal-gesture-recognition"
PER_ARCHIVE = 10
GESTURES = 20
MTIME = 1_371_000_000  # June 2013, when the challenge's files were made
MAT_HEADER = b"MATLAB 5.0 MAT-file, Platform: GLNXA64, Created on: Tue Jun 11 12:00:00 2013"
KINDS = ("color", "depth", "user")
MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"


def _wav() -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(16_000)
        audio.writeframes(b"\x00\x00" * 160)
    return buffer.getvalue()


def _mat(rng: np.random.Generator, gestures: list[int] | None) -> bytes:
    video: dict[str, object] = {
        "NumFrames": 40 * (len(gestures or [1]) + 1),
        "FrameRate": 20,
        "MaxDepth": 2500,
        "Frames": rng.normal(0, 1, (4, 3)).round(4),
    }
    if gestures is not None:
        labels = np.zeros((1, len(gestures)), dtype=[("Name", "O"), ("Begin", "O"), ("End", "O")])
        for position, gesture in enumerate(gestures):
            labels[0, position] = (f"gesture{gesture:02d}", 40 * position + 1, 40 * position + 30)
        video["Labels"] = labels
    buffer = io.BytesIO()
    scipy.io.savemat(buffer, {"Video": video})
    return MAT_HEADER.ljust(116) + buffer.getvalue()[116:]  # a fixed text instead of the time


def _sample_zip(rng: np.random.Generator, number: int, gestures: list[int] | None) -> bytes:
    name = f"Sample{number:05d}"
    buffer = io.BytesIO()
    members = {f"{name}_{kind}.mp4": MP4 + rng.bytes(int(rng.integers(20, 60))) for kind in KINDS}
    members[f"{name}_audio.wav"] = _wav()
    members[f"{name}_data.mat"] = _mat(rng, gestures)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as sample:
        for member, data in members.items():
            # A fixed time: writestr with a bare name stamps the time of writing.
            sample.writestr(zipfile.ZipInfo(member, date_time=(2013, 6, 11, 12, 0, 0)), data)
    return buffer.getvalue()


def _tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), MTIME
            archive.addfile(info, io.BytesIO(data))
    return gzip.compress(buffer.getvalue(), mtime=MTIME)


@functools.cache
def _seven_zip(name: str) -> bytes:
    """A 7z archive of one small file (made once: py7zr stamps the time of writing)."""
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        archive.writestr(b"RIFF recording of " + name.encode(), name)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    rows, archives = [], {}
    for part in range(1, 5):
        samples = {}
        for number in range(PER_ARCHIVE * (part - 1) + 1, PER_ARCHIVE * part + 1):
            gestures = [int(g) for g in rng.permutation(GESTURES)[: int(rng.integers(8, 13))] + 1]
            rows.append((f"{number:04d}", " ".join(map(str, gestures))))
            samples[f"Sample{number:05d}.zip"] = _sample_zip(rng, number, gestures)
        archives[f"training{part}.tar.gz"] = _tar_gz(samples)
    for part in range(1, 4):
        number = 400 + part
        archives[f"validation{part}.tar.gz"] = _tar_gz(
            {f"Sample{number:05d}.zip": _sample_zip(rng, number, None)}
        )
    training = pd.DataFrame(rows, columns=["Id", "Sequence"])
    guesses = training.assign(Sequence=" ".join(str(g) for g in range(1, GESTURES + 1)))
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        for name, data in archives.items():
            bundle.writestr(name, data)
        bundle.writestr("training.csv", training.to_csv(index=False))
        bundle.writestr("randomPredictions.csv", guesses.iloc[:3].to_csv(index=False))
        bundle.writestr("devel01-40.7z", _seven_zip("devel01/K_1.avi"))
        bundle.writestr("valid_all_files_combined.7z", _seven_zip("valid/K_1.avi"))
        code = io.BytesIO()
        with zipfile.ZipFile(code, "w") as sample_code:
            sample_code.writestr("sample_code_mmrgc/main.m", "% the organisers' starter code\n")
        bundle.writestr("sample_code_mmrgc.zip", code.getvalue())


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "training.csv", dtype=str)
