"""Prepare ``osic-pulmonary-fibrosis-progression`` from Kaggle's files.

Kaggle's test measurements were never published, so the labelled ``train.csv`` (1,549 visits
of 176 patients) is split again by patient, as MLE-bench does: the sorted patient ids go through
scikit-learn's ``train_test_split(test_size=0.1, random_state=0)`` (MLE-bench splits the
``groupby("Patient")`` groups, which come sorted), so the same 18 patients are held out and
scores compare with published MLE-bench results.

As on Kaggle, ``test.csv`` gives each test patient's first visit (baseline FVC included) and a
submission predicts every week from the test set's first to its last week, for every test
patient (``Patient_Week``), with an FVC and a confidence. Only each patient's last three
measured weeks are scored: the answers carry ``scored`` (1 on those rows). A week measured twice
(a few patients have two visits in one week) is one ``Patient_Week``: its FVC is the visits'
mean. Weeks never measured carry FVC 0 and are never scored. Each patient's CT scan folder
(DICOM files) is placed under ``public/train/`` or ``public/test/`` unchanged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, raw_folder, require, write_csv
from pytest_mlebench.placing import place_files

GROUP, WEEK, TARGET, SPREAD, ID = "Patient", "Weeks", "FVC", "Confidence", "Patient_Week"
COLUMNS = [GROUP, WEEK, TARGET, "Percent", "Age", "Sex", "SmokingStatus"]
SCORED_WEEKS = 3
SAMPLE_FVC, SAMPLE_CONFIDENCE = 2000, 100
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split by patient; write the baseline visits, the week grid and the scored flags."""
    source = pd.read_csv(raw_file(raw / "train.csv"))
    require(list(source.columns) == COLUMNS, f"train.csv columns are {list(source.columns)}")
    patients = np.unique(source[GROUP].to_numpy(dtype=str))
    require(len(patients) >= 10, f"train.csv has {len(patients)} patients; expected 176")
    train_patients, test_patients = train_test_split(
        patients, test_size=TEST_SIZE, random_state=SEED
    )
    train, visits = _rows_of(source, train_patients), _rows_of(source, test_patients)
    baseline = (
        visits.sort_values([GROUP, WEEK], kind="stable").groupby(GROUP, sort=True).head(1)
    ).reset_index(drop=True)
    answers = _answers(visits)
    sample = pd.DataFrame({ID: answers[ID], TARGET: SAMPLE_FVC, SPREAD: SAMPLE_CONFIDENCE})
    check_answers(answers[[ID]], answers, sample, ID)
    baseline_ids = set(baseline[GROUP] + "_" + baseline[WEEK].astype(str))
    scored_ids = set(answers.loc[answers["scored"] == 1, ID])
    require(not baseline_ids & scored_ids, "a baseline visit in test.csv is a scored week")
    write_csv(train, public / "train.csv")
    write_csv(baseline, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    scans = raw_folder(raw / "train")
    place_files(
        (path, public / part / patient / path.name)
        for part, chosen in (("train", train_patients), ("test", test_patients))
        for patient in sorted(chosen)
        for path in _scan_files(scans / patient)
    )


def _scan_files(folder: Path) -> list[Path]:
    """The DICOM files of one patient's scan (the folder must be there)."""
    return sorted(path for path in raw_folder(folder).iterdir() if path.is_file())


def _rows_of(source: pd.DataFrame, patients: np.ndarray) -> pd.DataFrame:
    """The rows of ``patients``, patient by patient in the given order, each in file order."""
    rank = pd.Series(np.arange(len(patients)), index=patients)
    rows = source[source[GROUP].isin(patients)]
    order = np.argsort(rank.loc[rows[GROUP]].to_numpy(), kind="stable")
    return rows.iloc[order].reset_index(drop=True)


def _answers(visits: pd.DataFrame) -> pd.DataFrame:
    """Every (test patient, week) of the test set's week range, with the measured FVC."""
    measured = visits.groupby([GROUP, WEEK], sort=True)[TARGET].mean().reset_index()
    measured["scored"] = (
        measured.groupby(GROUP)[WEEK].rank(method="first", ascending=False) <= SCORED_WEEKS
    ).astype(int)
    weeks = range(int(visits[WEEK].min()), int(visits[WEEK].max()) + 1)
    grid = pd.DataFrame(
        [(patient, week) for patient in sorted(set(visits[GROUP])) for week in weeks],
        columns=[GROUP, WEEK],
    )
    answers = grid.merge(measured, on=[GROUP, WEEK], how="left")
    answers.insert(0, ID, answers[GROUP] + "_" + answers[WEEK].astype(str))
    answers["measured"] = answers[TARGET].notna().astype(int)
    answers[TARGET] = answers[TARGET].fillna(0)
    answers["scored"] = answers["scored"].fillna(0).astype(int)
    answers[SPREAD] = SAMPLE_CONFIDENCE
    return answers[[ID, GROUP, WEEK, TARGET, SPREAD, "measured", "scored"]]
