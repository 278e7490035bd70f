"""Merging shards by recorded ids: duplicates and missing seeds are reported, never padded."""

from __future__ import annotations

from pathlib import Path

from pytest_mlebench.records.run_record import RunRecord, append_record
from pytest_mlebench.report.merge import merge_files, merge_records
from tests.report.builders import record


def write(path: Path, records: list[RunRecord]) -> Path:
    for item in records:
        append_record(path, item)
    return path


def test_two_shards_merge_into_one_set_in_any_file_order(tmp_path: Path) -> None:
    one = write(tmp_path / "m1.jsonl", [record("beta", 1), record("alpha", 0)])
    two = write(tmp_path / "m2.jsonl", [record("alpha", 1), record("beta", 0)])
    forward, backward = merge_files([one, two]), merge_files([two, one])
    keys = [(r.competition_id, r.seed) for r in forward.records]
    assert keys == [("alpha", 0), ("alpha", 1), ("beta", 0), ("beta", 1)]
    assert forward.records == backward.records
    assert forward.duplicates == () and forward.missing == ()
    assert forward.sources == (str(one), str(two))


def test_the_same_record_in_two_files_is_one_record(tmp_path: Path) -> None:
    same = record("alpha", 0)
    merged = merge_files([write(tmp_path / "a.jsonl", [same]), write(tmp_path / "b.jsonl", [same])])
    assert (merged.read, merged.copies, len(merged.records)) == (2, 1, 1)
    assert merged.duplicates == ()


def test_a_rerun_supersedes_the_older_record_and_is_reported() -> None:
    old = record("alpha", 0, 0.1, run_id="old", finished_at="2026-01-01T10:00:00+00:00")
    new = record("alpha", 0, 0.95, run_id="new", finished_at="2026-01-02T08:00:00+01:00")
    merged = merge_records([new, old])
    assert [r.run_id for r in merged.records] == ["new"]
    (dup,) = merged.duplicates
    assert (dup.competition_id, dup.seed, dup.kept, dup.superseded) == ("alpha", 0, "new", ("old",))
    assert merged.findings() == ["duplicate alpha seed 0 (dummy): kept new, superseded old"]


def test_newest_is_decided_by_time_not_by_text() -> None:
    # 09:30 in UTC+2 is 07:30 UTC: earlier than 08:00 UTC although it sorts later as text.
    east = record("alpha", 0, run_id="east", finished_at="2026-01-01T09:30:00+02:00")
    utc = record("alpha", 0, run_id="utc", finished_at="2026-01-01T08:00:00+00:00")
    assert merge_records([east, utc]).records[0].run_id == "utc"


def test_a_skip_never_replaces_a_run_that_happened() -> None:
    ran = record("alpha", 0, run_id="ran", finished_at="2026-01-01T10:00:00+00:00")
    skip = record("alpha", 0, outcome="skipped", run_id="skip", finished_at="2026-01-03T10:00:00")
    assert merge_records([ran, skip]).records[0].run_id == "ran"


def test_agents_are_different_runs() -> None:
    merged = merge_records([record("alpha", 0, agent="a"), record("alpha", 0, agent="b")])
    assert len(merged.records) == 2 and merged.duplicates == ()


def test_missing_seeds_are_reported_not_padded() -> None:
    records = [record("alpha", s) for s in range(3)] + [record("beta", 0), record("beta", 2)]
    merged = merge_records(records)
    assert len(merged.records) == 5
    (gap,) = merged.missing
    assert (gap.competition_id, gap.missing, gap.expected) == ("beta", (1,), 3)
    assert merged.findings() == ["missing seeds 1 of 3 for beta (dummy)"]


def test_expected_seeds_from_the_session() -> None:
    merged = merge_records([record("alpha", 0)], expected_seeds=3)
    assert [m.missing for m in merged.missing] == [(1, 2)]


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    path = write(tmp_path / "r.jsonl", [record("alpha", 0)])
    with path.open("a") as handle:
        handle.write('{"session_id": "s1", "run_id": "half')
    assert len(merge_files([path]).records) == 1
