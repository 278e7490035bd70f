"""Sessions on two description variants, compared run for run: the output names the variants."""

from __future__ import annotations

from pytest_mlebench.report.baseline_gate import gate_lines, run_gate
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from pytest_mlebench.report.variant_comparison import summary_variants, variant_note
from tests.report.builders import record


def variant_session(description: str, medals: int) -> dict[str, object]:
    """Four competitions × three seeds; the first ``medals`` competitions win gold."""
    runs = [
        record(cid, seed, 1.0 if index < medals else 0.5, description=description,
               percentile=95.0 if index < medals else 40.0 + seed)
        for index, cid in enumerate(("alpha", "beta", "gamma", "delta"))
        for seed in range(3)
    ]  # fmt: skip
    return build_summary(merge_records(runs))


def test_the_summary_and_each_run_say_which_variant_was_read() -> None:
    summary = variant_session("obfuscated", 1)
    assert summary["description"] == ["obfuscated"]
    assert {run["description"] for c in summary["competitions"] for run in c["runs"]} == {
        "obfuscated"
    }
    assert summary_variants({"agents": {}}) == ["standard"]  # written before variants


def test_the_paired_gate_across_variants_names_them() -> None:
    standard, obfuscated = variant_session("standard", 2), variant_session("obfuscated", 1)
    result = run_gate(standard, obfuscated, baseline="standard.json", mode="paired")
    lines = gate_lines(result)
    assert (
        "  note: description variant: standard (baseline) -> obfuscated (this session): the "
        "paired numbers measure the effect of the variant on the same runs"
    ) in lines
    (agent,) = result.agents
    assert agent.result.pairs == 12
    assert (agent.result.medals.gained, agent.result.medals.lost) == (0, 3)


def test_no_note_when_both_sides_read_the_same_variant() -> None:
    assert variant_note(variant_session("standard", 1), variant_session("standard", 2)) is None
