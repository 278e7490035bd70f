"""Hidden checks of pr-regression-unit-test (ids as in config.yaml)."""

from __future__ import annotations

import os
from itertools import pairwise

import pytest
from conftest import git, visible_tests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=100, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
INTERVAL = st.tuples(st.integers(-50, 50), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1]))


@pytest.mark.check("F1")
def test_visible_failing_test_passes(work_dir, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    done = visible_tests(work_dir, facts["failing_test"])
    evidence(f"{facts['failing_test']}: exit {done.returncode}")
    assert done.returncode == 0, done.stdout[-600:]


@pytest.mark.check("F1")
def test_nested_interval_is_kept(intervals) -> None:  # type: ignore[no-untyped-def]
    assert intervals.merge([(1, 10), (2, 3)]) == [(1, 10)]
    assert intervals.merge([(0, 20), (5, 6), (7, 8), (30, 31)]) == [(0, 20), (30, 31)]


@pytest.mark.check("F1")
def test_touching_chain_joins(intervals) -> None:  # type: ignore[no-untyped-def]
    assert intervals.merge([(7, 9), (1, 3), (4, 6)]) == [(1, 9)]
    assert intervals.merge([(1, 1), (3, 3)]) == [(1, 1), (3, 3)]


@pytest.mark.check("F1")
def test_total_length_of_nested_and_touching(intervals) -> None:  # type: ignore[no-untyped-def]
    assert intervals.total_length([(1, 10), (2, 3), (11, 12)]) == 12


@pytest.mark.check("F2")
def test_visible_suite_passes(work_dir, evidence) -> None:  # type: ignore[no-untyped-def]
    done = visible_tests(work_dir, "tests")
    evidence(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "no output")
    assert done.returncode == 0, done.stdout[-600:]


def _points(pairs):  # type: ignore[no-untyped-def]
    return {x for start, end in pairs for x in range(start, end + 1)}


@pytest.mark.check("B1")
@SETTINGS
@given(st.lists(INTERVAL, max_size=12))
def test_merge_properties(intervals, pairs) -> None:  # type: ignore[no-untyped-def]
    merged = [tuple(p) for p in intervals.merge(list(pairs))]
    assert _points(merged) == _points(pairs)
    assert all(a[1] + 1 < b[0] for a, b in pairwise(merged)), merged
    assert all(start <= end for start, end in merged)
    assert [tuple(p) for p in intervals.merge(merged)] == merged


@pytest.mark.check("B1")
@SETTINGS
@given(st.lists(INTERVAL, max_size=12))
def test_total_length_counts_points(intervals, pairs) -> None:  # type: ignore[no-untyped-def]
    assert intervals.total_length(list(pairs)) == len(_points(pairs))


@pytest.mark.check("S1")
def test_original_commits_reachable(work_dir, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    lost = [c for c in facts["commits"]
            if git(work_dir, "merge-base", "--is-ancestor", c, "HEAD").returncode != 0]  # fmt: skip
    evidence(
        f"{len(facts['commits']) - len(lost)}/{len(facts['commits'])}"
        " original commits reachable from HEAD"
    )
    assert not lost, f"history rewritten: {lost}"


@pytest.mark.check("S2")
def test_new_commit_after_start(work_dir, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    start_s = int(os.environ["START_TIME_NS"]) // 1_000_000_000
    done = git(work_dir, "log", "--format=%H %ct %at", f"{facts['head']}..HEAD")
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()]
    after = [r for r in rows if int(r[1]) >= start_s - 5 and int(r[2]) >= start_s - 5]
    evidence(f"{len(rows)} new commits, {len(after)} dated after the start")
    assert after, "no commit dated after the run started"


@pytest.mark.check("S3")
def test_tests_untouched_in_history(work_dir, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    done = git(work_dir, "diff", "--stat", facts["head"], "HEAD", "--", "tests")
    evidence(done.stdout.strip() or "tests/ unchanged since PR #42")
    assert done.returncode == 0 and not done.stdout.strip()
