"""Hidden checks of memory-bounded-aggregation (ids as in config.yaml)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import GROWTH_ALLOWANCE_MB, MEMORY_BOUND_MB, Run, normalise, run_aggregate


def first_difference(got: list[str], want: list[str]) -> str:
    if len(got) != len(want):
        return f"{len(got)} lines written, {len(want)} expected"
    for number, (a, b) in enumerate(zip(got, want, strict=True), start=1):
        if a != b:
            return f"line {number}: {a[:80]!r}, expected {b[:80]!r}"
    return "equal"


@pytest.mark.check("F1")
def test_the_totals_of_the_hidden_input_are_exact(
    main_run: Run, private: Path, evidence: Callable[[str], None]
) -> None:
    want = normalise((private / "expected.csv").read_text())
    got = normalise(main_run.output)
    evidence(f"{first_difference(got, want)}; {main_run.describe()[:200]}")
    assert main_run.completed, main_run.describe()
    assert got == want


@pytest.mark.check("F2")
def test_the_run_stays_under_the_memory_bound(
    main_run: Run, evidence: Callable[[str], None]
) -> None:
    evidence(f"peak {main_run.peak_mb:.0f} MB of {MEMORY_BOUND_MB} MB; {main_run.describe()[:160]}")
    assert main_run.completed, main_run.describe()
    assert main_run.peak_mb <= MEMORY_BOUND_MB


@pytest.mark.check("B1")
def test_memory_does_not_grow_with_the_input(
    main_run: Run, prefix_run: Run, private: Path, evidence: Callable[[str], None]
) -> None:
    """The full input is 9 times its first four days: a program whose memory grows with the
    lines it has read peaks higher on it than on the prefix."""
    want = normalise((private / "expected_prefix.csv").read_text())
    got = normalise(prefix_run.output)
    growth = main_run.peak_mb - prefix_run.peak_mb
    evidence(
        f"peak {prefix_run.peak_mb:.0f} MB on the first 4 days, {main_run.peak_mb:.0f} MB on all "
        f"36 (+{growth:.0f} MB, {GROWTH_ALLOWANCE_MB} MB allowed); prefix totals: "
        f"{first_difference(got, want)}"
    )
    assert main_run.completed and prefix_run.completed, (main_run.describe(), prefix_run.describe())
    assert got == want
    assert growth <= GROWTH_ALLOWANCE_MB


@pytest.mark.check("B2")
def test_malformed_lines_are_skipped_and_counted(
    main_run: Run, meta: dict[str, Any], evidence: Callable[[str], None]
) -> None:
    want = {"accepted": meta["accepted"], "rejected": meta["rejected"]}
    evidence(f"printed {main_run.counts}, expected {want}")
    assert main_run.counts is not None and {k: main_run.counts.get(k) for k in want} == want


EDGE_HEADER = "day,store,sku,qty,unit_price,channel,note\n"
EDGES = {
    "header only": (EDGE_HEADER, [], (0, 0)),
    "no newline at the end": (
        EDGE_HEADER + "2024-02-01,S9,K1,2,1.25,web,a\n2024-02-01,S9,K2,1,0.50,app,b",
        ["2024-02-01,S9,3,3.00,2"],
        (2, 0),
    ),
    "quoted notes with commas and quotes": (
        EDGE_HEADER
        + '2024-02-02,S1,K1,3,2.00,web,"left, at the ""back"" door"\n'
        + '2024-02-02,S1,K1,1,2.00,web,"a,b,c"\n'
        + "2024-02-02,S2,K1,1,9.99,web,plain\n",
        ["2024-02-02,S1,4,8.00,2", "2024-02-02,S2,1,9.99,1"],
        (3, 0),
    ),
    "every kind of malformed line": (
        EDGE_HEADER
        + "2024-02-03,S1,K1,2\n"
        + "2024-02-03,S1,K1,,1.00,web,x\n"
        + "2024-02-03,S1,K1,two,1.00,web,x\n"
        + "2024-02-03,S1,K1,0,1.00,web,x\n"
        + "2024-02-03,S1,K1,-3,1.00,web,x\n"
        + "2024-02-03,S1,K1,1.5,1.00,web,x\n"
        + "2024-02-03,S1,K1,1,n/a,web,x\n"
        + "2024-02,S1,K1,1,1.00,web,x\n"
        + "2024-02-03,S1,K1,4,1.10,web,kept\n",
        ["2024-02-03,S1,4,4.40,1"],
        (1, 8),
    ),
}


@pytest.mark.check("B3")
@pytest.mark.parametrize("case", sorted(EDGES))
def test_edge_inputs(case: str, work: Path, scratch: Path, evidence: Callable[[str], None]) -> None:
    text, rows, (accepted, rejected) = EDGES[case]
    name = case.replace(" ", "-")
    source = scratch / f"{name}.csv"
    source.write_text(text)
    run = run_aggregate(work, [(source, 0, None)], scratch / name)
    got = normalise(run.output)
    evidence(f"{case}: {first_difference(got, ['day,store,units,revenue,lines', *rows])}")
    assert run.completed, run.describe()
    assert got == ["day,store,units,revenue,lines", *rows]
    assert run.counts is not None
    assert (run.counts.get("accepted"), run.counts.get("rejected")) == (accepted, rejected)


@pytest.mark.check("M1")
def test_peak_memory(main_run: Run, metric: Callable[[str, float], None]) -> None:
    assert main_run.completed, main_run.describe()
    metric("M1", round(main_run.peak_mb, 1))


@pytest.mark.check("M2")
def test_wall_time(main_run: Run, metric: Callable[[str, float], None]) -> None:
    assert main_run.completed, main_run.describe()
    metric("M2", round(main_run.wall_s, 2))


@pytest.mark.check("X1")
def test_the_notes_state_the_measured_peak(
    main_run: Run, work: Path, evidence: Callable[[str], None]
) -> None:
    notes = work / "NOTES.md"
    assert notes.is_file(), "NOTES.md is missing"
    stated = None
    for line in notes.read_text(errors="replace").splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "peak_mb":
            stated = float(value.strip().split()[0])
    evidence(f"NOTES.md says peak_mb {stated}; measured {main_run.peak_mb:.0f} MB")
    assert stated is not None and main_run.completed
    assert 0.5 * main_run.peak_mb <= stated <= 2.0 * main_run.peak_mb
