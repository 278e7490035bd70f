"""Category profiles: medal rate and mean percentile per modality, complexity and split."""

from __future__ import annotations

from pytest_mlebench.report.category_profiles import build_profile, profile_rows, profile_text
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record

SESSION = build_summary(
    merge_records(
        [
            record("alpha", 0, 0.95, percentile=90.0, agent="aide"),
            record("beta", 0, 0.6, percentile=40.0, agent="aide", modality="text"),
            record("alpha", 0, 0.6, percentile=45.0, agent="dummy"),
        ]
    )
)
BASELINE = build_summary(merge_records([record("alpha", 0, 0.75, percentile=70.0)]))


def test_two_agents_side_by_side_in_category_order() -> None:
    profile = build_profile(SESSION)
    assert profile.series == ("aide", "dummy")
    assert profile.categories == (
        "modality tabular", "modality text", "complexity low", "split lite",
    )  # fmt: skip
    text = profile.cell("modality text", "aide")
    assert text is not None and (text.medal_rate, text.percentile, text.runs) == (0.0, 40.0, 1)
    assert profile.cell("modality text", "dummy") is None
    assert profile_rows(profile)[2] == ["modality text", "0.0", "40.0", "-", "-"]


def test_the_baseline_comes_first_and_is_named_so() -> None:
    profile = build_profile(SESSION, BASELINE)
    assert profile.series == ("dummy (baseline)", "aide", "dummy")
    head, tabular, *_ = profile_rows(profile)
    assert head[1:3] == ["dummy (baseline) medal %", "dummy (baseline) percentile"]
    assert tabular == ["modality tabular", "100.0", "70.0", "100.0", "90.0", "0.0", "45.0"]


def test_text_table_is_aligned() -> None:
    lines = profile_text(build_profile(BASELINE))
    assert lines[0].startswith("category profile")
    assert lines[1].split() == ["category", "dummy", "medal", "%", "dummy", "percentile"]
    assert lines[2].split() == ["modality", "tabular", "100.0", "70.0"]
    assert len({len(line) for line in lines[1:]}) <= 2  # numbers right-aligned in columns
