"""Prepare ``nomad2018-predict-transparent-conductors`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (2,400 materials) is
split again: 10 % of its rows become the test set, drawn with scikit-learn's
``train_test_split`` at ``random_state=0``, the split MLE-bench uses, so scores here compare with
published MLE-bench results. Ids are renumbered in the split's (random) order: test materials get
``1 … n_test``, the ids MLE-bench gives them, and train materials continue from ``n_test + 1``
(MLE-bench numbers both from 1, so its train and test ids collide). Each material's
``geometry.xyz`` goes to ``train/<id>/`` or ``test/<id>/`` under its new id, placed by hard link
where possible. The sample submission holds constant energies.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared
from pytest_mlebench.placing import place_file

ID = "id"
TARGETS = ("formation_energy_ev_natom", "bandgap_energy_ev")
SAMPLE_ENERGIES = {"formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892}
GEOMETRY = "geometry.xyz"
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``, renumber the materials and place their geometry files."""
    source = _read_train(raw)
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    test = test.assign(new_id=np.arange(1, len(test) + 1))
    train = train.assign(new_id=np.arange(len(test) + 1, len(test) + len(train) + 1))
    for part, name in ((train, "train"), (test, "test")):
        for old_id, new_id in zip(part[ID], part["new_id"], strict=True):
            place_file(
                raw / "train" / str(old_id) / GEOMETRY, public / name / str(new_id) / GEOMETRY
            )
    train, test = (_renumbered(part) for part in (train, test))
    write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=list(TARGETS)),
        answers=test[[ID, *TARGETS]],
        sample=pd.DataFrame({ID: test[ID], **SAMPLE_ENERGIES}),
        id_column=ID,
    )


def _read_train(raw: Path) -> pd.DataFrame:
    path = raw / "train.csv"
    raw_file(path)
    require((raw / "train").is_dir(), f"{raw / 'train'} (the geometry files) is missing")
    source = pd.read_csv(path)
    missing = [name for name in (ID, *TARGETS) if name not in source.columns]
    require(not missing, f"train.csv lacks the columns {missing}")
    require(source[ID].is_unique, "train.csv ids are not unique")
    return source


def _renumbered(part: pd.DataFrame) -> pd.DataFrame:
    return part.assign(**{ID: part["new_id"]}).drop(columns=["new_id"]).reset_index(drop=True)
