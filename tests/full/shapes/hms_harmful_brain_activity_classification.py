"""Kaggle's download of hms-harmful-brain-activity-classification: one zip of CSVs and parquet.

``hms-harmful-brain-activity-classification.zip`` holds ``train.csv`` (15 columns: ``eeg_id,
eeg_sub_id, eeg_label_offset_seconds, spectrogram_id, spectrogram_sub_id,
spectrogram_label_offset_seconds, label_id, patient_id, expert_consensus`` and six ``*_vote``
counts; several windows per EEG, several EEGs per spectrogram), ``test.csv`` (``spectrogram_id,
eeg_id, patient_id``), ``sample_submission.csv``, ``train_eegs/<eeg_id>.parquet`` (electrode
columns ``Fp1`` … ``EKG``, float32), ``train_spectrograms/<spectrogram_id>.parquet`` (``time``
and ``LL_0.59`` … columns), ``test_eegs/``, ``test_spectrograms/`` and ``example_figures/*.png``.
Ids are random nine- or ten-digit numbers. An EEG's signal level follows its dominant pattern,
so the content predicts the votes and the file size does not.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "hms-harmful-brain-activity-classification"
GROUP_COLUMN = "spectrogram_id"
VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
CONSENSUS = ["Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"]
ELECTRODES = ["Fp1", "F3", "C3", "P3", "F7", "T3", "T5", "O1", "Fz", "Cz", "EKG"]
SPECTRA = ["LL_0.59", "LL_0.78", "RL_0.59", "RL_0.78"]
SPECTROGRAMS, EEGS_PER, WINDOWS_PER = 30, 2, 2
SAMPLES = 16


def _parquet(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def _eeg(rng: np.random.Generator, pattern: int) -> bytes:
    values = rng.normal(0, 1, (SAMPLES, len(ELECTRODES))) + 10 * pattern
    return _parquet(pd.DataFrame(values.astype(np.float32), columns=ELECTRODES))


def _spectrogram(rng: np.random.Generator) -> bytes:
    frame = pd.DataFrame(rng.random((SAMPLES, len(SPECTRA))).astype(np.float32), columns=SPECTRA)
    frame.insert(0, "time", np.arange(1, 2 * SAMPLES, 2))
    return _parquet(frame)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = rng.permutation(np.unique(rng.integers(10**8, 4 * 10**9, size=400)))
    spectrogram_ids = ids[:SPECTROGRAMS]
    eeg_ids = ids[SPECTROGRAMS : SPECTROGRAMS * (1 + EEGS_PER)]
    rows, recordings = [], {}
    label_id = 100_000
    for s, spectrogram in enumerate(spectrogram_ids):
        patient = int(rng.integers(1, 60_000))
        for e in range(EEGS_PER):
            eeg = int(eeg_ids[s * EEGS_PER + e])
            pattern = int(rng.integers(0, len(VOTES)))
            recordings[eeg] = pattern
            for window in range(WINDOWS_PER):
                votes = rng.integers(0, 3, len(VOTES))
                votes[pattern] += int(rng.integers(3, 10))
                label_id += int(rng.integers(1, 9999))
                rows.append(
                    (eeg, window, 10.0 * window, int(spectrogram), e * WINDOWS_PER + window,
                     600.0 * e + 10.0 * window, label_id, patient,
                     CONSENSUS[int(np.argmax(votes))], *(int(v) for v in votes))
                )  # fmt: skip
    columns = [
        "eeg_id", "eeg_sub_id", "eeg_label_offset_seconds", "spectrogram_id",
        "spectrogram_sub_id", "spectrogram_label_offset_seconds", "label_id", "patient_id",
        "expert_consensus", *VOTES,
    ]  # fmt: skip
    train = pd.DataFrame(rows, columns=columns)
    kaggle_test = {"spectrogram_id": [853520], "eeg_id": [3911565283], "patient_id": [6885]}
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", pd.DataFrame(kaggle_test).to_csv(index=False))
        sample = pd.DataFrame({"eeg_id": [3911565283], **{v: [1 / 6] for v in VOTES}})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for eeg, pattern in recordings.items():
            bundle.writestr(f"train_eegs/{eeg}.parquet", _eeg(rng, pattern))
        for spectrogram in spectrogram_ids:
            bundle.writestr(f"train_spectrograms/{spectrogram}.parquet", _spectrogram(rng))
        bundle.writestr("test_eegs/3911565283.parquet", _eeg(rng, 0))
        bundle.writestr("test_spectrograms/853520.parquet", _spectrogram(rng))
        for name in CONSENSUS:
            bundle.writestr(f"example_figures/{name}.png", b"\x89PNG\r\n\x1a\n" + bytes(16))


def public_train_labels(public: Path) -> pd.DataFrame:
    """One row per train EEG, its summed votes as shares (the answers' form)."""
    train = pd.read_csv(public / "train.csv", dtype={"eeg_id": str})
    summed = train.groupby("eeg_id", sort=False, as_index=False)[VOTES].sum()
    shares = summed[VOTES].div(summed[VOTES].sum(axis=1), axis=0)
    return pd.concat([summed[["eeg_id"]], shares], axis=1)


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train_eegs").glob("*.parquet")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test_eegs").glob("*.parquet")}
