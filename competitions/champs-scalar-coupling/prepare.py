"""Prepare ``champs-scalar-coupling`` from Kaggle's files.

Kaggle's test couplings were never published, so the labelled ``train.csv`` (4,658,147 atom
pairs of 85,003 molecules) is split again by molecule, as MLE-bench does: the sorted molecule
names go through scikit-learn's ``train_test_split(test_size=0.1, random_state=0)`` (MLE-bench
splits the ``groupby("molecule_name")`` groups, which come in that order), so the same molecules
are held out and scores compare with published MLE-bench results. Rows keep Kaggle's ids and
come molecule by molecule in the split's order.

The files that describe a molecule's quantum properties (dipole moments, magnetic shielding,
Mulliken charges, potential energy, the coupling's four contributions) are kept for the train
molecules only, as on Kaggle. ``structures.csv`` and ``structures/<molecule>.xyz`` are kept for
train **and** test molecules: a test coupling cannot be predicted without its molecule's atoms,
which is what MLE-bench's later fix (its PR #70) restores. The sample submission predicts 0.
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

ID, GROUP, TARGET = "id", "molecule_name", "scalar_coupling_constant"
COLUMNS = [ID, GROUP, "atom_index_0", "atom_index_1", "type", TARGET]
TRAIN_ONLY = (
    "dipole_moments.csv",
    "magnetic_shielding_tensors.csv",
    "mulliken_charges.csv",
    "potential_energy.csv",
    "scalar_coupling_contributions.csv",
)
"""Per-molecule quantum properties: Kaggle gives them for train molecules only."""
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` by molecule; filter the per-molecule files to each side."""
    source = pd.read_csv(raw_file(raw / "train.csv"))
    require(list(source.columns) == COLUMNS, f"train.csv columns are {list(source.columns)}")
    molecules = np.unique(source[GROUP].to_numpy(dtype=str))
    require(len(molecules) >= 10, f"train.csv has {len(molecules)} molecules; expected 85,003")
    train_molecules, test_molecules = train_test_split(
        molecules, test_size=TEST_SIZE, random_state=SEED
    )
    train, answers = _rows_of(source, train_molecules), _rows_of(source, test_molecules)
    del source
    test = answers.drop(columns=[TARGET])
    sample = pd.DataFrame({ID: test[ID], TARGET: 0})
    check_disjoint_ids(train[ID], test[ID])
    check_answers(test, answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    kept = set(train_molecules) | set(test_molecules)
    _filter(raw / "structures.csv", public / "structures.csv", kept)
    for name in TRAIN_ONLY:
        _filter(raw / name, public / name, set(train_molecules))
    structures = raw_folder(raw / "structures")
    place_files(
        (structures / f"{name}.xyz", public / "structures" / f"{name}.xyz") for name in sorted(kept)
    )


def _rows_of(source: pd.DataFrame, molecules: np.ndarray) -> pd.DataFrame:
    """The rows of ``molecules``, molecule by molecule in the given order, each in file order."""
    rank = pd.Series(np.arange(len(molecules)), index=molecules)
    rows = source[source[GROUP].isin(molecules)]
    order = np.argsort(rank.loc[rows[GROUP]].to_numpy(), kind="stable")
    return rows.iloc[order].reset_index(drop=True)


def _filter(source: Path, target: Path, molecules: set[str]) -> None:
    """Copy the rows of ``source`` whose molecule is in ``molecules``, in file order."""
    frame = pd.read_csv(raw_file(source))
    require(GROUP in frame.columns, f"{source.name} has no {GROUP!r} column")
    write_csv(frame[frame[GROUP].isin(molecules)], target)
