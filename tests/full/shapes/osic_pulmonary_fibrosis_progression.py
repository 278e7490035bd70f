"""Kaggle's download of osic-pulmonary-fibrosis-progression: CSVs and a DICOM folder per patient.

``osic-pulmonary-fibrosis-progression.zip`` holds ``train.csv`` (``Patient, Weeks, FVC,
Percent, Age, Sex, SmokingStatus``; 6 to 10 visits per patient, one patient with two visits in
one week), ``test.csv`` (five patients' first visits), ``sample_submission.csv``
(``Patient_Week, FVC, Confidence``) and ``train/<Patient>/<n>.dcm`` / ``test/<Patient>/<n>.dcm``
(stand-in bytes: the prepare only places them). Patient ids are ``ID`` and 20 digits. The
synthetic FVC falls from a patient-specific baseline by a patient-specific slope, so the first
visit predicts the rest.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "osic-pulmonary-fibrosis-progression"
GROUP_COLUMN = "Patient"
FEATURE_COLUMNS = ("FVC",)
"""test.csv gives each test patient's baseline FVC, as on Kaggle (never a scored week)."""
TRAIN_PATIENTS = 30
TEST_PATIENTS = 5


def _patients(rng: np.random.Generator, count: int) -> pd.DataFrame:
    rows = []
    for _ in range(count):
        patient = "ID" + "".join(str(d) for d in rng.integers(0, 10, 20))
        base, slope = rng.uniform(1500, 4500), rng.uniform(2, 15)
        age, sex = int(rng.integers(50, 85)), str(rng.choice(["Male", "Female"]))
        smoking = str(rng.choice(["Ex-smoker", "Never smoked", "Currently smokes"]))
        weeks = np.sort(rng.choice(np.arange(-5, 70), int(rng.integers(6, 11)), replace=False))
        for week in weeks:
            fvc = int(base - slope * week + rng.normal(0, 40))
            rows.append((patient, int(week), fvc, round(fvc / base * 80, 6), age, sex, smoking))
    return pd.DataFrame(
        rows, columns=["Patient", "Weeks", "FVC", "Percent", "Age", "Sex", "SmokingStatus"]
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _patients(rng, TRAIN_PATIENTS)
    repeat = train.iloc[[3]].assign(FVC=train["FVC"].iloc[3] + 20)  # two visits in one week
    train = pd.concat([train.iloc[:4], repeat, train.iloc[4:]], ignore_index=True)
    test = _patients(rng, TEST_PATIENTS).groupby("Patient").head(1)
    sample = pd.DataFrame(
        [(f"{p}_{w}", 2000, 100) for p in test["Patient"] for w in range(-12, 134)],
        columns=["Patient_Week", "FVC", "Confidence"],
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for part, frame in (("train", train), ("test", test)):
            for patient in frame["Patient"].unique():
                for index in range(1, int(rng.integers(2, 4)) + 1):
                    bundle.writestr(f"{part}/{patient}/{index}.dcm", b"DICM" + rng.bytes(64))


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv")
    train = train.groupby(["Patient", "Weeks"], as_index=False)["FVC"].mean()
    return pd.DataFrame(
        {
            "Patient_Week": train["Patient"] + "_" + train["Weeks"].astype(str),
            "FVC": train["FVC"],
            "Confidence": 100,
        }
    )
