"""Rerun selection from a summary: exactly the (competition, seed) pairs of the asked kinds."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_mlebench.handover import CASE_KEY, RunKind, RunTicket
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.rerun import plan_rerun, run_is, select_pairs, split_items
from pytest_mlebench.report.summary_json import build_summary
from pytest_mlebench.run.case import RunCase
from tests.report.builders import record

SUMMARY = build_summary(
    merge_records(
        [
            record("alpha", 0, 0.95),  # gold
            record("alpha", 1, 0.6),  # valid, no medal
            record("beta", 0, None, outcome="failed"),  # invalid
            record("beta", 1, outcome="error", graded=False),  # infrastructure
            record("gamma", 0, 0.3, outcome="failed", timed_out=True),  # timeout, below gate
            record("delta", 0, outcome="skipped"),
            record("alpha", 1, None, outcome="failed", agent="other"),
        ]
    )
)


@pytest.mark.parametrize(
    ("kinds", "pairs"),
    [
        ({"failed"}, {("beta", 0), ("gamma", 0)}),
        ({"error"}, {("beta", 1)}),
        ({"invalid"}, {("beta", 0)}),
        ({"no-medal"}, {("alpha", 1), ("beta", 0), ("beta", 1), ("gamma", 0)}),
        ({"timeout"}, {("gamma", 0)}),
        ({"skipped"}, {("delta", 0)}),
        ({"error", "timeout"}, {("beta", 1), ("gamma", 0)}),
        # the failure classes: gamma timed out but left a valid submission (its class)
        ({"infra"}, {("beta", 1)}),
        ({"medal"}, {("alpha", 0)}),
        ({"valid_no_medal"}, {("alpha", 1), ("gamma", 0)}),
        ({"invalid_submission", "agent_crash"}, {("beta", 0)}),
        ({"no_submission", "oom"}, set()),
    ],
)
def test_select_pairs(kinds: set[str], pairs: set[tuple[str, int]]) -> None:
    assert select_pairs(SUMMARY, kinds, "dummy") == pairs


def test_only_the_current_agents_runs_are_selected() -> None:
    assert select_pairs(SUMMARY, {"failed"}, "other") == {("alpha", 1)}


def test_unknown_kind_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown rerun kind"):
        run_is({"outcome": "failed"}, "flaky")


def test_plan_notes_what_this_session_cannot_collect() -> None:
    plan = plan_rerun(
        SUMMARY, Path("s.json"), frozenset({"no-medal"}), "dummy", ["alpha", "beta"], seeds=1
    )
    assert plan.header() == "rerun no-medal from s.json: 4 run(s) selected"
    assert plan.notes == (
        "gamma seed 0: not in this registry, cannot rerun",
        "2 run(s) need seeds up to 1: add --mle-seeds 2",
    )


def test_a_summary_without_classes_selects_none_by_class_and_says_so() -> None:
    old = {
        **SUMMARY,
        "competitions": [
            {**entry, "runs": [{k: v for k, v in run.items() if k != "failure_class"}]}
            for entry in SUMMARY["competitions"]
            for run in entry["runs"]
        ],
    }
    plan = plan_rerun(old, Path("old.json"), frozenset({"infra"}), "dummy", ["beta"], 2)
    assert plan.pairs == frozenset()
    assert any("before failure classes existed" in note for note in plan.notes)
    fresh = plan_rerun(SUMMARY, Path("s.json"), frozenset({"infra"}), "dummy", ["beta"], 2)
    assert fresh.pairs == {("beta", 1)} and fresh.notes == ()


def test_plan_for_an_agent_not_in_the_file_names_the_agents() -> None:
    with pytest.raises(ValueError, match=r"no runs of agent 'aide' \(it has: dummy, other\)"):
        plan_rerun(SUMMARY, Path("s.json"), frozenset({"failed"}), "aide", [], seeds=1)


@dataclass
class FakeItem:
    """A named fake of a collected item: its name and its stash."""

    name: str
    stash: pytest.Stash = field(default_factory=pytest.Stash)


def run_item(subject: str, seed: int, kind: RunKind = "competition") -> FakeItem:
    item = FakeItem(f"{subject}{seed}")
    item.stash[CASE_KEY] = RunTicket(kind, RunCase(subject, seed), f"{subject}-s{seed}", 60)
    return item


def test_split_items_keeps_other_tests() -> None:
    bench = [
        run_item(c, s, "engineering" if c == "b" else "competition") for c in "ab" for s in (0, 1)
    ]
    other = FakeItem("test_unrelated")
    kept, deselected = split_items([*bench, other], frozenset({("a", 1), ("b", 0)}))
    assert [i.name for i in kept] == ["a1", "b0", "test_unrelated"]
    assert [i.name for i in deselected] == ["a0", "b1"]
