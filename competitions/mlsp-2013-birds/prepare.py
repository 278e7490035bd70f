"""Prepare ``mlsp-2013-birds`` from Kaggle's files.

Kaggle's download holds ``mlsp_contest_dataset.zip`` (extracted to ``mlsp_contest_dataset/``).
``essential_data/CVfolds_2.txt`` marks each recording as training (fold 0) or Kaggle's test
(fold 1, whose labels were never published), so only the fold-0 recordings are used: 20 % of
them, drawn with pandas' ``DataFrame.sample(frac=0.2, random_state=0)`` over the fold-0 rows in
file order, become the new test set — the split MLE-bench uses, so scores here compare with
published MLE-bench results. The kept recordings are renumbered 0, 1, … in their original order
(``rec_id`` of every table is rewritten), the test recordings' labels become ``?`` as on Kaggle,
and the other essential and supplemental files keep only the kept recordings. A submission has
one row per test recording and species, ``Id = rec_id * 100 + species``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.placing import place_file

DATASET = "mlsp_contest_dataset"
SPECIES = 19
TEST_FRACTION = 0.2
SEED = 0
HIDDEN = "?"
LABELS_FILE = "rec_labels_test_hidden.txt"
PER_RECORDING_IMAGES = ("filtered_spectrograms", "spectrograms", "supervised_segmentation")
OPTIONAL_IMAGES = ("segmentation_examples",)  # only a few training recordings have one
SHARED_IMAGES = ("segment_clusters.bmp", "segment_mosaic.bmp")
SEGMENT_TABLES = ("histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's fold-0 recordings into train and test and write the renumbered files."""
    source = raw / DATASET
    require(source.is_dir(), f"{source} is missing; is {DATASET}.zip in the download?")
    essential, out = source / "essential_data", public / "essential_data"
    folds = _split_folds(essential / "CVfolds_2.txt")
    new_ids = {int(old): new for new, old in enumerate(folds["rec_id"])}
    test_ids = [new_ids[int(old)] for old in folds.loc[folds["fold"] == 1, "rec_id"]]
    write_csv(folds.assign(rec_id=range(len(folds))), out / "CVfolds_2.txt")
    filenames = _read_table(essential / "rec_id2filename.txt", ["rec_id", "filename"])
    filenames = filenames[filenames["rec_id"].isin(new_ids)]
    require(len(filenames) == len(new_ids), "rec_id2filename.txt lacks training recordings")
    filenames = filenames.assign(rec_id=filenames["rec_id"].map(new_ids)).sort_values("rec_id")
    write_csv(filenames, out / "rec_id2filename.txt")
    labels = _read_labels(essential / LABELS_FILE, new_ids)
    _write_labels(out / LABELS_FILE, labels, set(test_ids))
    _write_answers(public, private, labels, test_ids)
    place_file(essential / "species_list.txt", out / "species_list.txt")
    _place_recordings(source, public, filenames["filename"])
    for table in SEGMENT_TABLES:
        supplemental = Path("supplemental_data") / table
        _renumber(source / supplemental, public / supplemental, new_ids)


def _split_folds(path: Path) -> pd.DataFrame:
    """Kaggle's fold-0 rows, with the new test recordings marked fold 1."""
    folds = _read_table(path, ["rec_id", "fold"])
    folds = folds[folds["fold"] == 0].reset_index(drop=True)
    require(len(folds) > 0, f"{path.name} has no training (fold 0) recordings")
    folds.loc[folds.sample(frac=TEST_FRACTION, random_state=SEED).index, "fold"] = 1
    return folds


def _read_table(path: Path, columns: list[str]) -> pd.DataFrame:
    raw_file(path)
    frame = pd.read_csv(path, dtype={"filename": str})
    require(list(frame.columns) == columns, f"{path.name}: columns {list(frame.columns)}")
    return frame


def _lines(path: Path) -> Iterator[str]:
    """The lines of a text file after its header, read lazily."""
    raw_file(path)
    with path.open(encoding="utf-8") as lines:
        next(lines, None)
        for line in lines:
            if line.strip():
                yield line.rstrip("\r\n")


def _read_labels(path: Path, new_ids: dict[int, int]) -> dict[int, list[int]]:
    """Species per kept recording, by new ``rec_id`` (a recording may have none)."""
    labels = {}
    for line in _lines(path):
        old, *species = line.split(",")
        if int(old) not in new_ids:
            continue
        require(HIDDEN not in species, f"{path.name}: training recording {old} has no labels")
        numbers = [int(value) for value in species if value != ""]
        require(all(0 <= n < SPECIES for n in numbers), f"{path.name}: bad species in {line!r}")
        labels[new_ids[int(old)]] = numbers
    require(len(labels) == len(new_ids), f"{path.name} lacks training recordings")
    return dict(sorted(labels.items()))


def _write_labels(path: Path, labels: dict[int, list[int]], test_ids: set[int]) -> None:
    rows = []
    for rec_id, species in labels.items():
        values = [HIDDEN] if rec_id in test_ids else [str(n) for n in species]
        rows.append(",".join([str(rec_id), *values]))
    path.write_text("rec_id,[labels]\n" + "".join(f"{row}\n" for row in rows), "utf-8")


def _write_answers(
    public: Path, private: Path, labels: dict[int, list[int]], test_ids: list[int]
) -> None:
    pairs = [(rec_id, n) for rec_id in sorted(test_ids) for n in range(SPECIES)]
    ids = [rec_id * 100 + n for rec_id, n in pairs]
    answers = pd.DataFrame(
        {"Id": ids, "Probability": [int(n in labels[rec_id]) for rec_id, n in pairs]}
    )
    sample = pd.DataFrame({"Id": ids, "Probability": 0})
    check_answers(pd.DataFrame({"Id": ids}), answers, sample, "Id")
    require(answers["Probability"].nunique() == 2, "the test recordings need both 0 and 1 labels")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _place_recordings(source: Path, public: Path, filenames: pd.Series) -> None:
    supplemental = source / "supplemental_data"
    for name in filenames:
        place_file(
            source / "essential_data" / "src_wavs" / f"{name}.wav",
            public / "essential_data" / "src_wavs" / f"{name}.wav",
        )
        for folder in PER_RECORDING_IMAGES + OPTIONAL_IMAGES:
            image = supplemental / folder / f"{name}.bmp"
            if folder in PER_RECORDING_IMAGES or image.is_file():
                place_file(image, public / "supplemental_data" / folder / f"{name}.bmp")
    for name in SHARED_IMAGES:
        place_file(supplemental / name, public / "supplemental_data" / name)


def _renumber(source: Path, target: Path, new_ids: dict[int, int]) -> None:
    """Copy a table whose first field is ``rec_id``: kept recordings only, renumbered."""
    raw_file(source)
    with source.open(encoding="utf-8") as lines:
        header = next(lines, "").rstrip("\r\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8", newline="\n") as out:
        out.write(header + "\n")
        for line in _lines(source):
            old, _, rest = line.partition(",")
            if int(old) in new_ids:
                out.write(f"{new_ids[int(old)]},{rest}\n")
