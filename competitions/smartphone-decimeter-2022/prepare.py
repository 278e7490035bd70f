"""Prepare ``smartphone-decimeter-2022`` from Kaggle's files.

Kaggle's test positions were never published, so the labelled ``train/<drive>/<phone>/`` trips
are split again by date, as MLE-bench does: the sorted distinct dates of the drive folders
(``YYYY-MM-DD`` from the start of each name) go through scikit-learn's
``train_test_split(test_size=0.1, random_state=0)``, and every drive of a held-out date becomes
a test drive, so the same trips are held out and scores compare with published MLE-bench
results. All phones of one drive rode in one car, so a drive is never split.

The trip folders are placed unchanged (hard links where possible): train drives whole, test
drives without the files that carry the answers: ``ground_truth.csv`` (MLE-bench removes it too)
and ``supplemental/span_log.nmea``, the reference receiver's log that ``ground_truth.csv`` is
interpolated from (MLE-bench keeps it: its issue #93; every ``span*.nmea`` is left out here).
``metadata/`` is copied. The answers are the test trips' ground-truth rows, trip by trip in the
sorted order of their folders, keyed by ``tripId`` (``<drive>-<phone>``, as MLE-bench writes
it) and ``UnixTimeMillis``; the sample submission has the same rows at MLE-bench's placeholder
position. Kaggle's own ``test/`` trips (no ground truth) and its sample submission are not used.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, raw_folder, require, write_csv
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_files

TRIP, TIME, LATITUDE, LONGITUDE, PHONE = (
    "tripId",
    "UnixTimeMillis",
    "LatitudeDegrees",
    "LongitudeDegrees",
    "phone",
)
GROUND_TRUTH = "ground_truth.csv"
SAMPLE_POSITION = (37.904611315634504, -86.48107806249548)
"""MLE-bench's placeholder position for every row of the sample submission."""
TEST_SIZE = 0.1
SEED = 0
_DATE = re.compile(r"(\d+)-(\d+)-(\d+)(?:-|$)")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out the drives of 10 % of the dates; strip the test trips' ground truth."""
    drives = sorted(path.name for path in raw_folder(raw / "train").iterdir() if path.is_dir())
    require(len(drives) >= 2, f"{raw / 'train'} holds {len(drives)} drive folders")
    dates = sorted({_date(drive) for drive in drives})
    require(len(dates) >= 10, f"the drives span {len(dates)} dates; at least 10 are needed")
    _, test_dates = train_test_split(dates, test_size=TEST_SIZE, random_state=SEED)
    held_out = set(test_dates)
    test_drives = [drive for drive in drives if _date(drive) in held_out]
    train_drives = [drive for drive in drives if _date(drive) not in held_out]
    answers = _answers(raw / "train", test_drives)
    sample = answers[[TRIP, TIME]].assign(
        **{LATITUDE: SAMPLE_POSITION[0], LONGITUDE: SAMPLE_POSITION[1]}
    )
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    place_files(
        (path, public / part / path.relative_to(raw / "train"))
        for part, chosen in (("train", train_drives), ("test", test_drives))
        for drive in chosen
        for path in _trip_files(raw / "train" / drive, keep_answers=part == "train")
    )
    metadata = raw_folder(raw / "metadata")
    place_files(
        (path, public / "metadata" / path.relative_to(metadata))
        for path in sorted(metadata.rglob("*"))
        if path.is_file()
    )


def _date(drive: str) -> str:
    """``2020-05-15`` of the drive folder ``2020-05-15-US-MTV-1`` (month and day zero-padded)."""
    match = _DATE.match(drive)
    if match is None:
        raise PrepareError(f"drive folder {drive!r} does not start with a YYYY-MM-DD date")
    year, month, day = match.groups()
    return f"{year}-{month.zfill(2)}-{day.zfill(2)}"


def is_answer_file(path: Path) -> bool:
    """Whether a trip file carries the positions: ground truth, or the reference receiver's log."""
    name = path.name.lower()
    return name == GROUND_TRUTH or (name.startswith("span") and name.endswith(".nmea"))


def _trip_files(drive: Path, *, keep_answers: bool) -> list[Path]:
    """Every file of a drive's trips; without the answer files for a test drive."""
    files = sorted(path for path in raw_folder(drive).rglob("*") if path.is_file())
    return [path for path in files if keep_answers or not is_answer_file(path)]


def _answers(train: Path, test_drives: list[str]) -> pd.DataFrame:
    """The test trips' ground-truth positions, keyed by trip and epoch."""
    frames = []
    for drive in test_drives:
        phones = sorted(path for path in raw_folder(train / drive).iterdir() if path.is_dir())
        require(bool(phones), f"{train / drive} holds no phone folder")
        for phone in phones:
            truth = pd.read_csv(raw_file(phone / GROUND_TRUTH), dtype={TIME: str})
            missing = {TIME, LATITUDE, LONGITUDE} - set(truth.columns)
            require(not missing, f"{phone / GROUND_TRUTH} lacks {sorted(missing)}")
            trip = f"{drive}-{phone.name}"
            frames.append(
                pd.DataFrame(
                    {
                        TRIP: trip,
                        TIME: truth[TIME].str.strip(),
                        LATITUDE: truth[LATITUDE].astype(float),
                        LONGITUDE: truth[LONGITUDE].astype(float),
                        PHONE: trip,
                    }
                )
            )
    answers = pd.concat(frames, ignore_index=True)
    require(bool(answers[TIME].str.fullmatch(r"\d+").all()), f"a {TIME} is not a whole number")
    require(not answers[[LATITUDE, LONGITUDE]].isna().any().any(), "a test position is missing")
    require(
        not answers.duplicated([TRIP, TIME]).any(),
        f"a test trip repeats a {TIME}; every ({TRIP}, {TIME}) pair must be unique",
    )
    return answers
