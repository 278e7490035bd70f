"""Why a selection left no benchmark test: the words of an expression and the closest names."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.registry import Registry, load_registry
from pytest_mlebench.selection import (
    SelectionCount,
    empty_selection_lines,
    expression_words,
    marker_names,
)
from pytest_mlebench.suggest import closest
from tests.factories import write_competition

MARKERS = {"mlebench", "complexity", "embedded", "kaggle", "tabular", "image", "toys", "future"}


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    defs = tmp_path_factory.mktemp("defs")
    write_competition(defs, "titanic-toy", splits={"toys": ["titanic-toy"]})
    (defs / "splits" / "future.txt").write_text("ghost-a\nghost-b\n")
    (defs / "splits" / "blank.txt").write_text("# nothing yet\n")
    return load_registry([defs])


@pytest.mark.parametrize(
    ("expression", "words"),
    [
        ("lite", ["lite"]),
        ("not lite and (image or text)", ["lite", "image", "text"]),
        ("not(lite)", ["lite"]),
        ("complexity(level='low') and toys", ["complexity", "toys"]),
        ("titanic-s1 or titanic-s1", ["titanic-s1"]),
        ("", []),
    ],
)
def test_expression_words(expression: str, words: list[str]) -> None:
    assert expression_words(expression) == words


def test_marker_names_from_ini_lines() -> None:
    lines = ["complexity(level): competition complexity", "lite: competition in the lite split"]
    assert marker_names(lines) == {"complexity", "lite"}


@pytest.mark.parametrize(
    ("count", "emptied"),
    [
        (SelectionCount(collected=5, selected=0, kept=0), True),
        (SelectionCount(collected=5, selected=0, kept=3), False),  # other tests still run
        (SelectionCount(collected=5, selected=1, kept=1), False),
        (SelectionCount(collected=0, selected=0, kept=0), False),  # no benchmark test at all
    ],
)
def test_emptied_only_when_the_selection_left_nothing(count: SelectionCount, emptied: bool) -> None:
    assert count.emptied is emptied


def test_merged_keeps_the_larger_counts() -> None:
    merged = SelectionCount(4, 0, 0).merged(SelectionCount(5, 1, 2))
    assert merged == SelectionCount(5, 1, 2)


def test_closest_is_case_insensitive_and_keeps_the_spelling() -> None:
    assert closest("TITANC", ["titanic", "digits"]) == ["titanic"]
    assert closest("zzzz", ["titanic", "digits"]) == []


@pytest.mark.parametrize(
    ("markexpr", "keywordexpr", "expected"),
    [
        ("", "titanc", ["no competition matches -k 'titanc'; did you mean: titanic, titanic-toy?"]),
        ("", "zzzz", ["no competition matches -k 'zzzz'"]),
        ("tosy", "", ["no competition matches -m 'tosy'; did you mean: toys?"]),
        ("toys and image", "", ["no competition matches -m 'toys and image'"]),
        (
            "blank",
            "",
            [
                "no competition matches -m 'blank'",
                "split 'blank' lists no competition ids: add ids to splits/blank.txt",
            ],
        ),
    ],
)
def test_empty_selection_lines(
    registry: Registry, markexpr: str, keywordexpr: str, expected: list[str]
) -> None:
    markers = MARKERS | {"blank"}
    assert empty_selection_lines(registry, markexpr, keywordexpr, markers) == expected


def test_split_with_nothing_available_names_its_ids_and_the_fix(
    registry: Registry, tmp_path: Path
) -> None:
    lines = empty_selection_lines(registry, "future", "", MARKERS, [tmp_path])
    assert lines[0] == "no competition matches -m 'future'"
    assert lines[1].startswith(
        "split 'future' lists 2 competition ids and none is available: "
        "no competition folder for any of them (ghost-a, ghost-b) in "
    )
    assert str(tmp_path) in lines[1]
    assert lines[2].endswith("pytest --mle-competitions-dir DIR -m future")
