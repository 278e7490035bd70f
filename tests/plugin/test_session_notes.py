"""The header's counts, the selection line after collection, and no GPU warning nobody asked for."""

from __future__ import annotations

import pytest

from pytest_mlebench.session_notes import seeds_text, selection_line
from tests.plugin.conftest import ExampleProject


@pytest.mark.parametrize(
    ("seeds", "text"), [(1, "1 seed (s0)"), (2, "2 seeds (s0-s1)"), (3, "3 seeds (s0-s2)")]
)
def test_seeds_are_counted_and_named_as_the_tables_name_them(seeds: int, text: str) -> None:
    assert seeds_text(seeds) == text


def test_the_selection_line() -> None:
    assert selection_line(14, 28, 36, 2) == (
        "mlebench: 14 of 36 competitions selected: 28 run(s), 2 seeds (s0-s1) each"
    )


def test_header_counts_what_is_available_and_collection_what_is_selected(
    project: ExampleProject,
) -> None:
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-seeds", "2", "--co")
    header = next(line for line in result.stdout.lines if line.startswith("mlebench: agent"))
    assert "competitions available, 2 seeds (s0-s1), gate" in header
    result.stdout.fnmatch_lines(["mlebench: 2 of * competitions selected: 4 run(s), 2 seeds*"])
    # (on a machine without GPUs) --mle-gpus auto finding none is no warning
    assert "GPUs: none found" not in result.stdout.str()
