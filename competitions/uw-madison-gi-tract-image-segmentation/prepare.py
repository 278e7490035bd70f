"""Prepare ``uw-madison-gi-tract-image-segmentation`` from Kaggle's files.

Kaggle's test scans were only ever shown to submitted notebooks, so the labelled scans of
``train.csv`` (one row per slice and organ: ``id`` = ``case<N>_day<M>_slice_<XXXX>``, ``class``,
``segmentation``) are split again exactly as MLE-bench splits them, so the same scans are held
out: scikit-learn's ``train_test_split(test_size=0.1, random_state=42)`` over the cases in order
of first appearance; then, of every train case scanned on more than four days, the days after the
fourth (by day number) go to test too, as Kaggle's test held later days of known cases.

Slices are 16-bit PNGs, placed, never decoded: each case-day folder
(``<case>/<case>_<day>/scans/slice_<XXXX>_<width>_<height>_<pw>_<ph>.png``) under ``public/train``
or ``public/test``. The answers carry each test slice's width and height (read from its file
name), its organ, case-day and slice number, which the metric needs to bound the runs and stack the
volumes. ``test.csv`` lists the rows to predict (``id,class``); the sample submission is
MLE-bench's ``1 1 5 2`` for every row.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, raw_folder, require, write_csv
from pytest_mlebench.placing import place_files

ID, CLASS, SOURCE, TARGET = "id", "class", "segmentation", "predicted"
KEY = [ID, CLASS]
SAMPLE_MASK = "1 1 5 2"
ANSWER_EXTRAS = ["image_width", "image_height", "organ", "case_day", "slice"]
"""What the metric reads beside the mask: the slice's size, the organ (``class`` again, since a
key column is no answer column), the case-day and the slice number."""
TEST_SHARE, SEED, KEPT_DAYS = 0.1, 42, 4


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out a tenth of the cases and the later days of the others, as MLE-bench."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(
        list(source.columns) == [ID, CLASS, SOURCE], f"train.csv columns are {list(source.columns)}"
    )
    require(not source.duplicated(KEY).any(), "train.csv repeats an (id, class) pair")
    parts = source[ID].str.extract(r"^(case\d+)_(day\d+)_slice_(\d+)$")
    require(parts.notna().all().all(), "train.csv has an id not of the form caseN_dayM_slice_XXXX")
    case, day, number = parts[0], parts[1], parts[2]
    test = _test_rows(case, day)
    images = raw_folder(raw / "train")
    case_days = (case + "_" + day).rename("case_day")
    answers = source[test].assign(organ=source[CLASS], case_day=case_days[test], slice=number[test])
    sizes = _slice_sizes(images, answers)
    answers = pd.concat([answers.reset_index(drop=True), sizes], axis=1)
    answers = answers[[ID, CLASS, SOURCE, *ANSWER_EXTRAS]]
    train = source[~test]
    sample = answers[KEY].assign(**{TARGET: SAMPLE_MASK})
    require(not set(train[ID]) & set(answers[ID]), "train and test share slices")
    require(len(answers) > 0 and len(train) > 0, "the split left one side empty")
    write_csv(train, public / "train.csv")
    write_csv(answers[KEY], public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for side, rows in (("train", ~test), ("test", test)):
        folders = sorted(set(zip(case[rows], case_days[rows], strict=True)))
        place_files(
            (png, public / side / name / folder / "scans" / png.name)
            for name, folder in folders
            for png in sorted(raw_folder(images / name / folder / "scans").glob("*.png"))
        )


def _test_rows(case: pd.Series, day: pd.Series) -> pd.Series:
    """MLE-bench's test rows: the held-out cases, then the days after the fourth of the others."""
    cases = list(case.unique())  # in order of first appearance, as MLE-bench
    _, test_cases = train_test_split(cases, test_size=TEST_SHARE, random_state=SEED)
    test = case.isin(set(test_cases))
    for name, days in day[~test].groupby(case[~test]):
        ordered = sorted(set(days), key=lambda value: int(value[len("day") :]))
        test |= case.eq(name) & day.isin(ordered[KEPT_DAYS:])
    return test


def _slice_sizes(images: Path, answers: pd.DataFrame) -> pd.DataFrame:
    """Each answer row's slice width and height, from the numbers in its PNG's file name."""
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for case_day in sorted(set(answers["case_day"])):
        scans = raw_folder(images / case_day.split("_")[0] / case_day / "scans")
        for png in scans.glob("slice_*.png"):
            fields = png.stem.split("_")
            require(len(fields) == 6, f"{png.name}: not slice_XXXX_width_height_pw_ph.png")
            require((case_day, fields[1]) not in found, f"{scans}: two files for slice {fields[1]}")
            found[(case_day, fields[1])] = (fields[2], fields[3])
    sizes = []
    for case_day, number in zip(answers["case_day"], answers["slice"], strict=True):
        require((case_day, number) in found, f"{case_day}: no PNG for slice {number}")
        sizes.append(found[(case_day, number)])
    return pd.DataFrame(sizes, columns=["image_width", "image_height"])
