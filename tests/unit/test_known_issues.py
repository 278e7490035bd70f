"""Known issues: parsed from config.yaml, checked, and turned into the leaky / crowded marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.definition import load_competition
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.known_issues import KnownIssue, marks_of, parse_known_issues
from pytest_mlebench.run_params import marks_for
from tests.factories import toy_config, write_competition

CONFIG = Path("defs/toy/config.yaml")


def test_issues_parse_and_map_to_marks() -> None:
    issues = parse_known_issues(
        [
            {"kind": "leak", "removed": True, "text": "a field reveals the outcome "},
            {"kind": "crowded", "text": "the top is packed"},
            {"kind": "public-data", "text": "the images are public"},
        ],
        CONFIG,
    )
    assert issues[0] == KnownIssue("leak", "a field reveals the outcome", removed=True)
    assert marks_of(issues) == ["crowded", "leaky"]
    assert parse_known_issues(None, CONFIG) == ()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("a leak", "must be a list"),
        ([{"kind": "leak"}], "needs 'kind' and a 'text'"),
        ([{"kind": "typo", "text": "x"}], "kind 'typo' is not one of leak, public-data, crowded"),
        ([{"kind": "crowded", "text": "x", "removed": True}], "only for kind leak"),
        ([{"kind": "leak", "text": "x", "removed": "yes"}], "'removed' is true or false"),
        ([{"kind": "leak", "text": "x", "fixed": True}], "unknown keys fixed"),
    ],
)
def test_a_malformed_entry_names_the_file_and_the_entry(section: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        parse_known_issues(section, CONFIG)
    assert str(CONFIG) in str(info.value)


def test_a_competition_carries_its_issues_into_its_marks(tmp_path: Path) -> None:
    config = toy_config("toy", known_issues=[{"kind": "crowded", "text": "packed top"}])
    competition = load_competition(write_competition(tmp_path, "toy", config=config))
    assert competition.known_issues == (KnownIssue("crowded", "packed top"),)
    names = [mark.name for mark in marks_for(competition, None)]
    assert "crowded" in names and "leaky" not in names


def test_the_timeout_backstop_times_the_run_and_not_its_set_up(tmp_path: Path) -> None:
    # A first run's set-up may build the session's images or prepare a large competition.
    competition = load_competition(write_competition(tmp_path, "toy"))
    (timeout,) = [mark.mark for mark in marks_for(competition, 60) if mark.name == "timeout"]
    assert timeout.args == (60 + 600,)
    assert timeout.kwargs == {"method": "signal", "func_only": True}
