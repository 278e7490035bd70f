"""smartphone-decimeter-2022 beyond the shared checks: the date split, the removed leak, the keys.

* The split holds out every drive of MLE-bench's tenth of the dates, all phones of a drive
  together, and the answers are exactly the held-out trips' ground-truth rows.
* No test trip keeps a file that carries its positions: a probe that reads every public test
  file for positions (CSV columns, NMEA sentences) finds none, while the same probe over the
  test trips as MLE-bench publishes them (``span_log.nmea`` kept) reaches gold.
* Rows pair by (``tripId``, ``UnixTimeMillis``): the original's number, which pairs by position
  inside each trip, is recorded beside ours, worked by hand and on the fixture; timestamps the
  original never compares are invalid here with the pair named.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.graders import score_submission
from pytest_mlebench.grading import grade_submission
from pytest_mlebench.medals import medal_for
from tests.full.shapes import smartphone_decimeter_2022 as shape
from tests.lite.harness import PreparedLite, perfect, prepare_from_shape, score

COMPETITION = Path(__file__).resolve().parents[2] / "competitions" / shape.COMPETITION
KEY = ["tripId", "UnixTimeMillis"]
POSITION = ["LatitudeDegrees", "LongitudeDegrees"]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> PreparedLite:
    root = tmp_path_factory.mktemp("smartphone")
    return prepare_from_shape(load_competition(COMPETITION), shape, root)


def _raw(prepared: PreparedLite) -> Path:
    return prepared.public.parent / "raw"


def test_every_drive_of_a_tenth_of_the_dates_is_held_out_whole(prepared: PreparedLite) -> None:
    drives = sorted(path.name for path in (_raw(prepared) / "train").iterdir())
    dates = sorted({drive[:10] for drive in drives})
    _, test_dates = train_test_split(dates, test_size=0.1, random_state=0)  # MLE-bench's call
    expected = sorted(drive for drive in drives if drive[:10] in test_dates)
    train, test = shape.group_values(prepared.public)
    assert test == expected and sorted(train + test) == drives
    assert any(drive.endswith("-2") for drive in test)  # a date of two drives stays together
    trips = sorted(
        f"{phone.parent.name}-{phone.name}"
        for drive in expected
        for phone in (_raw(prepared) / "train" / drive).iterdir()
    )
    answers = prepared.read_answers()
    assert sorted(set(answers["tripId"])) == trips
    assert (answers["phone"] == answers["tripId"]).all()
    truth = pd.concat(
        pd.read_csv(path, dtype={"UnixTimeMillis": str})
        for drive in expected
        for path in sorted((_raw(prepared) / "train" / drive).glob("*/ground_truth.csv"))
    )
    assert answers["UnixTimeMillis"].tolist() == truth["UnixTimeMillis"].tolist()
    sample = prepared.read_sample()
    assert sample[KEY].equals(answers[KEY])


def test_no_test_trip_keeps_a_file_that_carries_its_positions(prepared: PreparedLite) -> None:
    public = prepared.public
    test_files = {path.relative_to(public / "test") for path in (public / "test").rglob("*")}
    names = {path.name for path in test_files}
    assert "ground_truth.csv" not in names and not any(n.endswith(".nmea") for n in names)
    assert {"device_gnss.csv", "device_imu.csv", "gnss_log.txt"} <= names
    train_names = {path.name for path in (public / "train").rglob("*")}
    assert {"ground_truth.csv", "span_log.nmea"} <= train_names  # train keeps its answers
    for trip in (public / "test").glob("*/*"):
        raw_trip = _raw(prepared) / "train" / trip.relative_to(public / "test")
        kept = sorted(p.relative_to(trip) for p in trip.rglob("*") if p.is_file())
        raw = sorted(p.relative_to(raw_trip) for p in raw_trip.rglob("*") if p.is_file())
        assert kept == [p for p in raw if p.name not in ("ground_truth.csv", "span_log.nmea")]


def _positions_in(trip: Path) -> pd.DataFrame:
    """Every (time, position) a trip folder's files state: CSV position columns, NMEA fixes."""
    import pynmea2

    found = []
    for path in sorted(trip.rglob("*")):
        if path.suffix == ".csv":
            table = pd.read_csv(path)
            if {"UnixTimeMillis", *POSITION} <= set(table.columns):
                found.append(table[["UnixTimeMillis", *POSITION]])
        elif path.is_file():
            fixes = []
            for line in path.read_text("utf-8", errors="replace").splitlines():
                try:
                    sentence = pynmea2.parse(line.strip())
                except pynmea2.ParseError:
                    continue
                if isinstance(sentence, pynmea2.RMC) and sentence.datetime is not None:
                    millis = round(sentence.datetime.timestamp() * 1000)
                    fixes.append((millis, sentence.latitude, sentence.longitude))
            if fixes:
                found.append(pd.DataFrame(fixes, columns=["UnixTimeMillis", *POSITION]))
    columns = ["UnixTimeMillis", *POSITION]
    return pd.concat(found, ignore_index=True) if found else pd.DataFrame(columns=columns)


def position_probe(test_root: Path, sample: pd.DataFrame) -> pd.DataFrame:
    """The sample submission, each row moved to the nearest-in-time position any file of its
    trip folder states (the sample's placeholder where none does)."""
    probe = sample.astype({column: float for column in POSITION})
    for trip, rows in sample.groupby("tripId"):
        drive, phone = str(trip).rsplit("-", 1)
        positions = _positions_in(test_root / drive / phone)
        if positions.empty:
            continue
        times = positions["UnixTimeMillis"].to_numpy(dtype=np.int64)
        wanted = rows["UnixTimeMillis"].astype(np.int64).to_numpy()
        nearest = np.abs(wanted[:, None] - times[None, :]).argmin(axis=1)
        probe.loc[rows.index, POSITION] = positions[POSITION].to_numpy()[nearest]
    return probe


def test_a_probe_reading_every_public_test_file_finds_no_position(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    sample = prepared.read_sample()
    probe = score(prepared, position_probe(prepared.public / "test", sample), tmp_path / "p.csv")
    baseline = score(prepared, sample, tmp_path / "s.csv")
    assert probe.valid and probe.score == baseline.score  # nothing found: the placeholder
    thresholds = prepared.competition.thresholds
    assert thresholds is not None and probe.score is not None
    assert probe.score > thresholds.median


def test_the_same_probe_reaches_gold_on_the_trips_as_mle_bench_publishes_them(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    published = tmp_path / "test"
    for drive in shape.group_values(prepared.public)[1]:  # MLE-bench: the whole drive folder,
        shutil.copytree(_raw(prepared) / "train" / drive, published / drive)
    for path in published.rglob("ground_truth.csv"):  # then only ground_truth.csv removed
        path.unlink()
    probe = score(prepared, position_probe(published, prepared.read_sample()), tmp_path / "p.csv")
    assert probe.valid and probe.score is not None
    assert probe.score < 0.01  # span_log.nmea gives every position away (MLE-bench #93)
    assert prepared.competition.thresholds is not None
    assert medal_for(probe.score, prepared.competition.thresholds).medal == "gold"


RADIUS = 6_371_000.0  # the competition's sphere


def _original_number(answers: pd.DataFrame, submission: pd.DataFrame) -> float:
    """The original's way, computed here: per trip (in the answers' order of first
    appearance), the k-th submission row against the k-th answer row, timestamps ignored."""
    scores = []
    for trip in answers["tripId"].unique():
        truth = answers[answers["tripId"] == trip][POSITION].astype(float).to_numpy()
        pred = submission[submission["tripId"] == trip][POSITION].astype(float).to_numpy()
        lat_t, lon_t, lat_p, lon_p = np.radians([truth[:, 0], truth[:, 1], pred[:, 0], pred[:, 1]])
        a = (
            np.sin((lat_p - lat_t) / 2) ** 2
            + np.cos(lat_t) * np.cos(lat_p) * np.sin((lon_p - lon_t) / 2) ** 2
        )
        distance = 2 * RADIUS * np.arcsin(np.sqrt(a))
        scores.append(np.mean([np.quantile(distance, 0.5), np.quantile(distance, 0.95)]))
    return float(np.mean(scores))


def test_worked_example_rows_of_a_trip_in_another_order(tmp_path: Path) -> None:
    """README: two epochs 0.001° of longitude apart on the equator, submitted latest first."""
    trip = "2021-04-29-US-LAX-1-GooglePixel5"
    answers = pd.DataFrame(
        {
            "tripId": [trip, trip],
            "UnixTimeMillis": [1619735725000, 1619735726000],
            "LatitudeDegrees": [0.0, 0.0],
            "LongitudeDegrees": [0.0, 0.001],
            "phone": [trip, trip],
        }
    )
    submission = answers.drop(columns=["phone"]).iloc[::-1]  # right positions, latest first
    answers.to_csv(tmp_path / "answers.csv", index=False)
    submission.to_csv(tmp_path / "submission.csv", index=False)
    competition = load_competition(COMPETITION)
    ours = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", competition.submission
    )
    assert ours.valid and ours.score == 0.0
    assert competition.original_grader is not None
    original = competition.original_grader.score(
        tmp_path / "submission.csv", tmp_path / "answers.csv"
    )
    assert original == pytest.approx(RADIUS * math.radians(0.001), rel=1e-12)  # 111.19 m
    assert original == pytest.approx(111.19493, abs=1e-5)
    assert original == pytest.approx(_original_number(answers, submission), rel=1e-12)


def test_the_record_carries_the_originals_number_for_trips_in_another_order(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    answers = perfect(prepared)
    shuffled = answers.sample(frac=1.0, random_state=3)  # every trip's rows out of order
    shuffled.to_csv(tmp_path / "shuffled.csv", index=False)
    report = grade_submission(tmp_path / "shuffled.csv", prepared.competition, prepared.answers)
    assert report.valid_submission and report.score == 0.0 and report.medal == "gold"
    expected = _original_number(prepared.read_answers(), shuffled)
    assert expected > 10.0  # metres: epochs a second apart, paired wrongly
    assert report.original_score == pytest.approx(expected, rel=1e-9)
    assert report.original_medal is None
    assert report.to_dict()["original"]["grader"] == (
        "phone-percentile-distance over 2 columns, rows paired by position"
    )
    answers.to_csv(tmp_path / "ordered.csv", index=False)  # the answers' own order: both agree
    ordered = grade_submission(tmp_path / "ordered.csv", prepared.competition, prepared.answers)
    assert ordered.original_score == 0.0 and ordered.original_medal == "gold"


def test_timestamps_the_original_never_compares_are_invalid_here(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    answers = perfect(prepared)
    shifted = answers.assign(UnixTimeMillis=answers["UnixTimeMillis"].astype(np.int64) + 1)
    shifted.to_csv(tmp_path / "shifted.csv", index=False)
    report = grade_submission(tmp_path / "shifted.csv", prepared.competition, prepared.answers)
    assert not report.valid_submission
    assert "is in the test set, but has no row at UnixTimeMillis" in str(report.invalid_reason)
    assert report.original_score == 0.0  # the original pairs by position: a perfect score


def test_timestamps_written_as_floats_say_how_to_fix_them(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    floats = perfect(prepared).astype({"UnixTimeMillis": float})  # pandas after a NaN, say
    result = score(prepared, floats, tmp_path / "floats.csv")
    assert not result.valid and result.reason is not None
    assert "UnixTimeMillis is written as a float" in result.reason
    assert ".astype('int64')" in result.reason


def test_a_duplicate_pair_is_invalid_with_the_pair_named(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    answers = perfect(prepared)
    doubled = pd.concat([answers, answers.iloc[[5]]])
    result = score(prepared, doubled, tmp_path / "doubled.csv")
    trip, time = answers.iloc[5][KEY]
    assert result.reason == (
        f"duplicate (tripId, UnixTimeMillis) pair ('{trip}', '{time}') (2 times); each "
        "(tripId, UnixTimeMillis) pair must appear once"
    )


@pytest.mark.parametrize(
    ("drives", "message"),
    [
        (["2020-05-15-US-MTV-1"], "holds 1 drive folders"),
        (["2020-05-15-US-MTV-1", "pixel-drive"], "'pixel-drive' does not start with a YYYY-MM-DD"),
        ([f"2020-05-{day:02d}-US-MTV-1" for day in range(1, 6)], "span 5 dates"),
    ],
)
def test_a_download_that_cannot_be_split_is_a_clear_error(
    drives: list[str], message: str, tmp_path: Path
) -> None:
    raw, public, private = (tmp_path / name for name in ("raw", "public", "private"))
    for folder in (public, private, *(raw / "train" / drive / "GooglePixel4" for drive in drives)):
        folder.mkdir(parents=True)
    with pytest.raises(PrepareError, match=message):
        load_prepare(load_competition(COMPETITION))(raw, public, private)
