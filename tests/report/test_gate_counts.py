"""What the CI gate counts: a run the harness broke (``infra``) is neither a lost valid submission
nor a drop in either mode, while the same run failed by the agent is."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mlebench.report.baseline_gate import gate_lines, run_gate
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record

BROKEN = "c03"


def session(broken_as: str | None = None) -> dict[str, Any]:
    """Fourteen competitions, one seed, percentile 80; ``BROKEN`` errs with ``broken_as``."""
    runs = [
        record(cid, 0, 0.85, percentile=80.0)
        if cid != BROKEN or broken_as is None
        else record(
            cid, 0, outcome="error", graded=False, failure_class=broken_as, reason="it broke"
        )
        for cid in (f"c{n:02d}" for n in range(14))
    ]
    return build_summary(merge_records(runs))


@pytest.mark.parametrize("mode", ["paired", "rate-drop"])
def test_an_infra_run_is_left_out_and_an_agent_crash_fails_the_gate(mode: str) -> None:
    infra = run_gate(session(), session("infra"), baseline="b", mode=mode)
    assert infra.ok and infra.lost_valid == ()
    crash = run_gate(session(), session("agent_crash"), baseline="b", mode=mode)
    assert not crash.ok
    assert crash.lost_valid == (f"{BROKEN} (dummy) 100 % -> 0 %",)


def test_the_paired_gate_names_the_infra_run_as_not_compared() -> None:
    result = run_gate(session(), session("infra"), baseline="b", mode="paired")
    assert result.agents[0].matching.only_base == ((BROKEN, 0),)
    assert f"    1 run(s) only in the baseline (not compared): {BROKEN} s0" in gate_lines(result)


def test_the_rates_the_gate_reads_leave_the_infra_run_out() -> None:
    overall = session("infra")["agents"]["dummy"]["overall"]
    assert overall["metrics"]["valid_submission"]["mean"] == pytest.approx(100.0)
    assert (overall["runs"], overall["counted_runs"], overall["excluded"]["runs"]) == (14, 13, 1)
