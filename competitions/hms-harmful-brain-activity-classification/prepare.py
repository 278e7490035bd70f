"""Prepare ``hms-harmful-brain-activity-classification`` from Kaggle's files.

Kaggle's test votes were never published, so the labelled ``train.csv`` (106,800 windows of
17,089 EEGs) is split again as MLE-bench does, by spectrogram (coarser than EEG, which is
coarser than window, so nothing of a test recording is in train): the ``spectrogram_id``s in
order of first appearance go through scikit-learn's ``train_test_split(test_size=0.1,
random_state=0)``, so the same recordings are held out and scores compare with published
MLE-bench results.

The answers have one row per test EEG, as Kaggle's test has: the votes of all its labelled
windows summed and divided by their total (the experts' vote distribution for the EEG, in the
submission's form). MLE-bench keeps one answer row per window and pairs them with a
submission by sorting ``eeg_id``, so its submissions repeat each EEG; the answers also carry a
per-EEG summary of the windows from which the original's number is computed (see the README). The
public ``test.csv`` has one row per test EEG (``spectrogram_id, eeg_id, patient_id``); the
EEG and spectrogram parquet files and ``example_figures/`` are placed unchanged, never decoded.
The sample submission gives each class 1/6.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_files

ID, SPECTROGRAM, PATIENT = "eeg_id", "spectrogram_id", "patient_id"
VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
COLUMNS = [
    ID, "eeg_sub_id", "eeg_label_offset_seconds", SPECTROGRAM, "spectrogram_sub_id",
    "spectrogram_label_offset_seconds", "label_id", PATIENT, "expert_consensus", *VOTES,
]  # fmt: skip
WINDOW_PLOGP, WINDOWS = "window_plogp", "windows"
TEST_SIZE = 0.1
SEED = 0


def _window_summary(votes: pd.DataFrame) -> pd.DataFrame:
    """Per EEG (in order of first appearance): the mean window vote shares ``window_<vote>``,
    the mean of ``Σ y·log y`` over its windows (``window_plogp``) and its window count
    (``windows``): what the original-compatible score (``window-kl-divergence``) reads."""
    shares = votes[VOTES].div(votes[VOTES].sum(axis=1), axis=0)
    positive = shares.where(shares > 0, 1.0)
    plogp = (shares * np.log(positive)).sum(axis=1)
    frame = pd.concat(
        [votes[[ID]], shares.add_prefix("window_"), plogp.rename(WINDOW_PLOGP)], axis=1
    )
    grouped = frame.groupby(ID, sort=False)
    summary = grouped.mean().reset_index(drop=True)
    summary[WINDOWS] = grouped.size().to_numpy()
    return summary


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` by spectrogram; one answer row per test EEG; place the recordings."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns are {list(source.columns)}")
    spectrograms = pd.unique(source[SPECTROGRAM].to_numpy(dtype=object))
    require(len(spectrograms) >= 10, f"train.csv has {len(spectrograms)} spectrograms")
    train_ids, test_ids = train_test_split(spectrograms, test_size=TEST_SIZE, random_state=SEED)
    train = source[source[SPECTROGRAM].isin(set(train_ids))]
    held_out = source[source[SPECTROGRAM].isin(set(test_ids))]
    overlap = set(train[ID]) & set(held_out[ID])
    require(not overlap, f"EEGs {sorted(overlap)[:3]} have windows in train and test spectrograms")
    votes = held_out[[ID, *VOTES]].astype({name: "int64" for name in VOTES})
    summed = votes.groupby(ID, sort=False, as_index=False)[VOTES].sum()
    require(bool((votes[VOTES].sum(axis=1) > 0).all()), "a test window has no votes")
    shares = summed[VOTES].div(summed[VOTES].sum(axis=1), axis=0)
    answers = pd.concat([summed[[ID]], shares, _window_summary(votes)], axis=1)
    test = held_out[[SPECTROGRAM, ID, PATIENT]].drop_duplicates(ID)
    sample = answers[[ID, *VOTES]].assign(**{name: 1 / len(VOTES) for name in VOTES})
    check_disjoint_ids(train[ID].unique(), test[ID])
    check_answers(test, answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for side, part in (("train", train), ("test", held_out)):
        for folder, column in ((f"{side}_eegs", ID), (f"{side}_spectrograms", SPECTROGRAM)):
            files = raw_folder(raw / f"train_{folder.split('_', 1)[1]}")
            place_files(
                (files / f"{name}.parquet", public / folder / f"{name}.parquet")
                for name in part[column].unique()
            )
    figures = raw_folder(raw / "example_figures")
    place_files(
        (path, public / "example_figures" / path.relative_to(figures))
        for path in sorted(figures.rglob("*"))
        if path.is_file()
    )
