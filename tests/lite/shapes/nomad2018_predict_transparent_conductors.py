"""Kaggle's download of nomad2018-predict-transparent-conductors: five nested zips.

``nomad2018-predict-transparent-conductors.zip`` holds ``train.csv.zip`` (``train.csv``),
``test.csv.zip`` (``test.csv``, without the two targets), ``sample_submission.csv.zip``,
``train.zip`` (``train/<id>/geometry.xyz``) and ``test.zip`` (``test/<id>/geometry.xyz``); ids
number the materials from 1 in each file. The synthetic energies follow the composition, so the
content predicts them; the geometry files' sizes follow the atom count, which does not.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "nomad2018-predict-transparent-conductors"
TARGETS = ("formation_energy_ev_natom", "bandgap_energy_ev")
TRAIN_ROWS = 200
TEST_ROWS = 20
HEADER = "#" + "=" * 55 + "\n#Created using the Atomic Simulation Environment (ASE)\n#" + "=" * 55


def _materials(rng: np.random.Generator, count: int) -> pd.DataFrame:
    al = np.round(rng.uniform(0, 1, size=count), 4)
    ga = np.round((1 - al) * rng.uniform(0, 1, size=count), 4)
    frame = pd.DataFrame(
        {
            "spacegroup": rng.choice([12, 33, 167, 194, 206, 227], size=count),
            "number_of_total_atoms": rng.choice([10, 20, 30, 40, 60, 80], size=count),
            "percent_atom_al": al,
            "percent_atom_ga": ga,
            "percent_atom_in": np.round(1 - al - ga, 4),
        }
    )
    for axis in (1, 2, 3):
        frame[f"lattice_vector_{axis}_ang"] = np.round(rng.uniform(3, 25, size=count), 4)
    for angle in ("alpha", "beta", "gamma"):
        frame[f"lattice_angle_{angle}_degree"] = np.round(rng.uniform(80, 120, size=count), 4)
    return frame


def _geometry(rng: np.random.Generator, atoms: int) -> str:
    lines = [HEADER] + [
        "lattice_vector " + " ".join(f"{v:.8f}" for v in rng.uniform(0, 10, 3)) + " "
        for _ in range(3)
    ]
    elements = rng.choice(["Al", "Ga", "In", "O"], size=atoms)
    lines += [
        "atom " + " ".join(f"{v:.8f}" for v in rng.uniform(0, 10, 3)) + f" {element}"
        for element in elements
    ]
    return "\n".join(lines) + "\n"


def _zip_of(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, text in files.items():
            bundle.writestr(name, text)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train, test = _materials(rng, TRAIN_ROWS), _materials(rng, TEST_ROWS)
    for frame in (train, test):
        frame.insert(0, "id", np.arange(1, len(frame) + 1))
    train["formation_energy_ev_natom"] = np.round(0.05 + 0.3 * train["percent_atom_al"], 4)
    train["bandgap_energy_ev"] = np.round(
        0.5 + 4 * train["percent_atom_al"] + train["percent_atom_ga"], 4
    )
    sample = pd.DataFrame(
        {"id": test["id"], "formation_energy_ev_natom": 0.1779, "bandgap_energy_ev": 1.8892}
    )
    geometries = {
        part: {
            f"{part}/{row.id}/geometry.xyz": _geometry(rng, row.number_of_total_atoms)
            for row in frame.itertuples()
        }
        for part, frame in (("train", train), ("test", test))
    }
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv.zip", _zip_of({"train.csv": train.to_csv(index=False)}))
        bundle.writestr("test.csv.zip", _zip_of({"test.csv": test.to_csv(index=False)}))
        bundle.writestr(
            "sample_submission.csv.zip",
            _zip_of({"sample_submission.csv": sample.to_csv(index=False)}),
        )
        bundle.writestr("train.zip", _zip_of(geometries["train"]))
        bundle.writestr("test.zip", _zip_of(geometries["test"]))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["id", *TARGETS])


def _geometry_files(public: Path, part: str) -> dict[str, Path]:
    return {path.parent.name: path for path in (public / part).glob("*/geometry.xyz")}


def train_files(public: Path) -> dict[str, Path]:
    return _geometry_files(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _geometry_files(public, "test")
