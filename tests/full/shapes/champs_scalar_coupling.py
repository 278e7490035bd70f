"""Kaggle's download of champs-scalar-coupling: one zip of nine CSVs and a folder of XYZ files.

``champs-scalar-coupling.zip`` holds ``train.csv`` (``id, molecule_name, atom_index_0,
atom_index_1, type, scalar_coupling_constant``), ``test.csv`` (without the target; its ids
continue after train's), ``sample_submission.csv``, ``structures.csv`` (``molecule_name,
atom_index, atom, x, y, z``), ``structures/<molecule>.xyz``, and the train-only
``dipole_moments.csv``, ``magnetic_shielding_tensors.csv``, ``mulliken_charges.csv``,
``potential_energy.csv`` and ``scalar_coupling_contributions.csv``. Molecule names are
``dsgdb9nsd_`` and six digits; ids number the pairs from 0 in molecule order. The synthetic
constant follows the type and the pair's distance, so the content predicts it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "champs-scalar-coupling"
GROUP_COLUMN = "molecule_name"
FEATURE_COLUMNS = ("type",)
TYPES = {"1JHC": 90.0, "2JHH": -10.0, "3JHC": 3.0, "1JHN": 45.0}
TRAIN_MOLECULES = 30
TEST_MOLECULES = 4


def _molecules(
    rng: np.random.Generator, names: list[str], first_id: int
) -> tuple[pd.DataFrame, ...]:
    atoms, pairs = [], []
    for name in names:
        count = int(rng.integers(4, 8))
        kinds = ["C", "N", *rng.choice(["H", "C"], count - 2)]
        xyz = rng.normal(0, 1.2, (count, 3))
        for index, (atom, (x, y, z)) in enumerate(zip(kinds, xyz, strict=True)):
            atoms.append((name, index, atom, round(x, 6), round(y, 6), round(z, 6)))
        for _ in range(int(rng.integers(3, 7))):
            a, b = (int(i) for i in rng.choice(count, 2, replace=False))
            kind = str(rng.choice(list(TYPES)))
            distance = float(np.linalg.norm(xyz[a] - xyz[b]))
            constant = TYPES[kind] / (1 + distance) + rng.normal(0, 0.3)
            pairs.append((name, a, b, kind, round(constant, 5)))
    structures = pd.DataFrame(atoms, columns=["molecule_name", "atom_index", "atom", "x", "y", "z"])
    frame = pd.DataFrame(
        pairs,
        columns=[
            "molecule_name",
            "atom_index_0",
            "atom_index_1",
            "type",
            "scalar_coupling_constant",
        ],
    )
    frame.insert(0, "id", np.arange(first_id, first_id + len(frame)))
    return frame, structures


def _xyz(structures: pd.DataFrame) -> str:
    lines = [str(len(structures)), ""]
    lines += [f"{r.atom} {r.x} {r.y} {r.z}" for r in structures.itertuples()]
    return "\n".join(lines) + "\n"


def make_download(folder: Path, rng: np.random.Generator) -> None:
    numbers = np.sort(rng.choice(np.arange(1, 133_886), TRAIN_MOLECULES + TEST_MOLECULES, False))
    names = [f"dsgdb9nsd_{number:06d}" for number in numbers]
    test_names = set(rng.choice(names, TEST_MOLECULES, replace=False))
    train, train_atoms = _molecules(rng, [n for n in names if n not in test_names], 0)
    test, test_atoms = _molecules(rng, sorted(test_names), len(train))
    structures = pd.concat([train_atoms, test_atoms]).sort_values(["molecule_name", "atom_index"])
    by_molecule = train.groupby("molecule_name")
    per_atom = train_atoms[["molecule_name", "atom_index"]]
    extra = {
        "dipole_moments.csv": pd.DataFrame(
            {"molecule_name": list(by_molecule.groups), "X": 0.1, "Y": -0.2, "Z": 0.3}
        ),
        "potential_energy.csv": pd.DataFrame(
            {"molecule_name": list(by_molecule.groups), "potential_energy": -100.5}
        ),
        "mulliken_charges.csv": per_atom.assign(mulliken_charge=0.1),
        "magnetic_shielding_tensors.csv": per_atom.assign(
            **{f"{a}{b}": 1.0 for a in "XYZ" for b in "XYZ"}
        ),
        "scalar_coupling_contributions.csv": train[
            ["molecule_name", "atom_index_0", "atom_index_1", "type"]
        ].assign(fc=1.0, sd=0.1, pso=0.2, dso=-0.1),
    }
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr(
            "test.csv", test.drop(columns=["scalar_coupling_constant"]).to_csv(index=False)
        )
        sample = pd.DataFrame({"id": test["id"], "scalar_coupling_constant": 0})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        bundle.writestr("structures.csv", structures.to_csv(index=False))
        for name, frame in extra.items():
            bundle.writestr(name, frame.to_csv(index=False))
        for name, atoms in structures.groupby("molecule_name"):
            bundle.writestr(f"structures/{name}.xyz", _xyz(atoms))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["id", "scalar_coupling_constant"])
