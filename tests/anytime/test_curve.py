"""Anytime grading's pure parts: thinning the copies, the curve, the marks, the rates at marks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pytest_mlebench.anytime.copies import SubmissionCopyEntry, thin_evenly
from pytest_mlebench.anytime.curve import CurvePoint, curve_block, first_time, medal_at
from pytest_mlebench.report.anytime_rates import rates_at_marks, rates_text
from pytest_mlebench.values.marks import mark_label, marks_for, parse_marks
from tests.report.builders import record


def entries(count: int) -> list[SubmissionCopyEntry]:
    return [
        SubmissionCopyEntry(n, f"{n:04d}.csv", float(n), 10, str(n)) for n in range(1, count + 1)
    ]


@pytest.mark.parametrize(
    ("count", "keep", "kept"),
    [
        (3, 5, [1, 2, 3]),
        (6, 5, [1, 3, 5, 6]),
        (10, 4, [1, 5, 9, 10]),
        (9, 2, [1, 9]),
        (4, 0, [1, 4]),  # never fewer than the first and the latest
    ],
)
def test_thinning_keeps_the_first_and_the_latest_and_spreads_the_rest(
    count: int, keep: int, kept: list[int]
) -> None:
    assert [e.number for e in thin_evenly(entries(count), keep)] == kept


POINTS = [
    CurvePoint(5.0, None, False, None, "a"),
    CurvePoint(20.0, 0.6, True, None, "b"),
    CurvePoint(40.0, 0.95, True, "gold", "c"),
    CurvePoint(60.0, 0.9, True, "silver", "d"),  # overwritten by a worse one: gold still counts
]


@pytest.mark.parametrize(
    ("mark", "medal"), [(4.0, None), (20.0, None), (40.0, "gold"), (60.0, "gold")]
)
def test_the_medal_at_a_mark_is_the_best_held_by_then(mark: float, medal: str | None) -> None:
    assert medal_at(POINTS, mark) == medal


def test_the_curve_block_has_first_times_and_each_mark() -> None:
    assert first_time(POINTS, medal=False) == 20.0 and first_time(POINTS, medal=True) == 40.0
    block = curve_block(POINTS, [(30.0, "30s"), (60.0, "1m")])
    assert block["first_valid"] == 20.0 and block["first_medal"] == 40.0
    assert block["marks"] == [
        {"mark": 30.0, "label": "30s", "medal": None},
        {"mark": 60.0, "label": "1m", "medal": "gold"},
    ]
    assert [c["score"] for c in block["copies"]] == [None, 0.6, 0.95, 0.9]


@pytest.mark.parametrize(
    ("given", "expected"),
    [("1h,6h,12h", (3600.0, 21600.0, 43200.0)), ("90, 30s", (30.0, 90.0)), ("auto", None)],
)
def test_marks_parse_as_durations(given: str, expected: tuple[float, ...] | None) -> None:
    assert parse_marks(given) == expected


@pytest.mark.parametrize("given", ["1h,soon", "0", "1h,,2h"])
def test_a_bad_mark_is_refused_with_the_accepted_form(given: str) -> None:
    with pytest.raises(ValueError, match="give marks like 1h,6h,12h"):
        parse_marks(given)


def test_auto_marks_are_the_quarters_of_the_time_limit() -> None:
    assert marks_for(None, 86400) == (
        (21600.0, "25%"), (43200.0, "50%"), (64800.0, "75%"), (86400.0, "100%")
    )  # fmt: skip
    assert marks_for((3600.0, 90.0), 86400) == ((3600.0, "1h"), (90.0, "90s"))
    assert [mark_label(s) for s in (43200, 5400, 45, 1.5)] == ["12h", "90m", "45s", "1.5s"]


def curve(*medals: str | None) -> dict[str, object]:
    labels = ("6h", "12h")
    pairs = zip(labels, medals, strict=True)
    return {"marks": [{"mark": 0, "label": label, "medal": m} for label, m in pairs]}


def test_rates_at_marks_count_every_counted_run_and_say_how_many_had_a_curve() -> None:
    runs = [
        replace(record("alpha", 0, 0.95), anytime=curve(None, "gold")),
        replace(record("beta", 0, 0.95), anytime=curve("bronze", "silver")),
        record("gamma", 0, 0.4),  # no curve: no medal at any mark
        replace(record("delta", 0, 0.4, outcome="error"), anytime=curve("gold", "gold")),
    ]
    rates = rates_at_marks(runs)
    assert rates is not None and rates["runs"] == 3 and rates["with_curve"] == 2
    assert [(m["label"], m["medals"]) for m in rates["marks"]] == [("6h", 1), ("12h", 2)]
    assert rates_text(rates) == (
        "medal rate at marks: 6h 33.3 % · 12h 66.7 % (2 of 3 runs with a curve)"
    )
    assert rates_at_marks([record("gamma", 0, 0.4)]) is None
