"""Prepare ``freesound-audio-tagging-2019`` from Kaggle's files and FSDKaggle2019's test labels.

No split is drawn: as in MLE-bench, the test clips are those of Kaggle's ``test.zip`` and their
labels come from the test set released after the competition, ``test_post_competition.csv`` of
``FSDKaggle2019.meta.zip`` on Zenodo (``public_sources:`` in ``config.yaml``: downloaded with
its published MD5, or taken from ``--from``, and unpacked into ``raw/FSDKaggle2019.meta/``).
The answers are its rows marked ``usage == "Private"`` (the clips of the private leaderboard,
which the board was computed on); they must be exactly the clips Kaggle's
``sample_submission.csv`` lists, as MLE-bench checks too. Each clip's comma-separated labels
become one 0/1 column per class, in the order of Kaggle's sample submission.

``public/`` holds Kaggle's ``train_curated.csv``, ``train_noisy.csv`` and
``sample_submission.csv`` unchanged, and the clips of the three zips in ``train_curated/``,
``train_noisy/`` and ``test/`` (hard-linked or copied, never decoded). Nothing of
FSDKaggle2019's metadata reaches ``public/``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.placing import place_file, place_files

ID = "fname"
LABELS_FILE = Path("FSDKaggle2019.meta") / "test_post_competition.csv"
LABEL_COLUMNS = ("fname", "labels", "usage")
TEST_CLIPS = 4481  # FSDKaggle2019's test set: the public and the private leaderboard's clips
CLASSES = 80
PRIVATE = "Private"
KAGGLE_FILES = ("train_curated.csv", "train_noisy.csv", "sample_submission.csv")
SETS = (("train_curated", "train_curated.csv"), ("train_noisy", "train_noisy.csv"))


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Kaggle's files to ``public/``; the private leaderboard's labels as ``answers.csv``."""
    sample = pd.read_csv(raw_file(raw / "sample_submission.csv"), dtype={ID: str})
    classes = [str(c) for c in sample.columns[1:]]
    require(
        sample.columns[0] == ID and len(classes) == CLASSES,
        f"sample_submission.csv has columns {list(sample.columns)[:3]}…; "
        f"expected {ID} and {CLASSES} classes",
    )
    answers = _answers(raw, sample[ID].tolist(), classes)
    check_answers(sample[[ID]], answers, sample, ID)
    clips = {name: _listed(raw / csv) for name, csv in SETS}
    clips["test"] = sample[ID].tolist()
    _require_disjoint(clips)
    for name in KAGGLE_FILES:
        place_file(raw / name, public / name)
    for folder, names in clips.items():
        place_files((_clip(raw, folder, clip), public / folder / clip) for clip in names)
    write_csv(answers, private / "answers.csv")


def _answers(raw: Path, test_clips: list[str], classes: list[str]) -> pd.DataFrame:
    """The private leaderboard's rows of ``test_post_competition.csv``, one 0/1 column a class."""
    path = raw_file(raw / LABELS_FILE)
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [column for column in LABEL_COLUMNS if column not in table.columns]
    require(not missing, f"{path} has no column {', '.join(missing)}; is it FSDKaggle2019's?")
    require(
        len(table) == TEST_CLIPS,
        f"{path} has {len(table)} rows; FSDKaggle2019's test set has {TEST_CLIPS}",
    )
    usage = set(table["usage"])
    require(usage <= {"Public", PRIVATE}, f"{path}: usage values {sorted(usage)}")
    rows = table[table["usage"] == PRIVATE]
    require(
        set(rows[ID]) == set(test_clips) and len(rows) == len(test_clips),
        f"{path}: its {len(rows)} Private clips are not the {len(test_clips)} clips of Kaggle's "
        "sample_submission.csv (MLE-bench requires them to be the same); check that both files "
        "are the published ones",
    )
    labels = rows["labels"].str.split(",")
    unknown = sorted(set().union(*map(set, labels)) - set(classes))
    require(not unknown, f"{path}: labels outside Kaggle's {CLASSES} classes: {unknown[:5]}")
    hot = pd.DataFrame(
        [[int(name in set(row)) for name in classes] for row in labels], columns=classes
    )
    hot.insert(0, ID, rows[ID].tolist())
    return hot


def _listed(path: Path) -> list[str]:
    table = pd.read_csv(raw_file(path), dtype=str, keep_default_na=False)
    require(list(table.columns) == [ID, "labels"], f"{path} has columns {list(table.columns)}")
    return table[ID].tolist()


def _require_disjoint(clips: dict[str, list[str]]) -> None:
    """The three zips are unpacked side by side: a name in two sets would be one file."""
    seen: dict[str, str] = {}
    for folder, names in clips.items():
        require(len(set(names)) == len(names), f"{folder} lists a clip twice")
        for name in names:
            require(name not in seen, f"{name} is both in {seen.get(name)} and in {folder}")
            seen[name] = folder


def _clip(raw: Path, folder: str, name: str) -> Path:
    """A clip unpacked from ``<folder>.zip`` beside it, or in a folder of that name."""
    inside = raw / folder / name
    return inside if inside.is_file() else raw / name
