"""Competition registry: the built-in and extra folders load, splits resolve, unknown ids fail.

One folder's own checks (config, leaderboard, prepare.py) are in ``test_definition.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.errors import ConfigError, UnknownCompetition
from pytest_mlebench.registry import SPLIT_COMPLEXITY, load_one, load_registry
from tests.factories import toy_config, write_competition


def test_builtin_competitions_load() -> None:
    registry = load_registry()
    assert {"digits", "titanic"} <= set(registry.competitions)
    assert "lite" in registry.splits


def test_registry_splits_and_unknown_ids(tmp_path: Path) -> None:
    write_competition(tmp_path, "toy", splits={"mine": ["toy", "not-shipped"]})
    registry = load_registry([tmp_path])
    assert [c.id for c in registry.split("mine")] == ["toy"]
    assert registry.unavailable["mine"] == ("not-shipped",)
    assert "mine" in registry.get("toy").splits
    with pytest.raises(UnknownCompetition, match="known competitions"):
        registry.get("nope")
    with pytest.raises(UnknownCompetition, match="known splits"):
        registry.split("nope")


def test_a_broken_folder_stops_the_whole_registry(tmp_path: Path) -> None:
    write_competition(tmp_path, "toy", config=toy_config("toy", complexity="easy"))
    with pytest.raises(ConfigError, match=r"toy/config\.yaml: complexity 'easy'"):
        load_registry([tmp_path])


def test_a_missing_competitions_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="competitions folder does not exist"):
        load_registry([tmp_path / "absent"])


def test_the_mlebench_splits_hold_the_originals_75_ids() -> None:
    registry = load_registry()
    listed = {
        name: set(registry.splits[name]) | set(registry.unavailable[name])
        for name in ("lite", "medium", "high", "all")
    }
    assert {name: len(ids) for name, ids in listed.items()} == {
        "lite": 22,
        "medium": 38,
        "high": 15,
        "all": 75,
    }
    assert listed["all"] == listed["lite"] | listed["medium"] | listed["high"]
    assert not listed["lite"] & listed["medium"] and not listed["medium"] & listed["high"]
    assert {"AI4Code", "ventilator-pressure-prediction"} <= listed["medium"]
    assert {"vinbigdata-chest-xray-abnormalities-detection"} <= listed["high"]


def test_every_built_member_declares_its_splits_complexity() -> None:
    registry = load_registry()
    for split, level in SPLIT_COMPLEXITY.items():
        assert all(c.complexity == level for c in registry.split(split)), split
    assert {c.id for c in registry.split("all")} == {
        c.id for split in SPLIT_COMPLEXITY for c in registry.split(split)
    }


def test_a_member_of_the_medium_split_must_declare_medium(tmp_path: Path) -> None:
    write_competition(tmp_path, "toy", splits={"medium": ["toy"]})
    with pytest.raises(ConfigError, match=r"toy/config\.yaml: complexity 'low', but .*medium"):
        load_registry([tmp_path])
    write_competition(tmp_path, "toy", config=toy_config("toy", complexity="medium"))
    registry = load_registry([tmp_path])
    assert "toy" in {c.id for c in registry.split("medium")}
    assert "toy" not in registry.unavailable["medium"]


def test_one_competition_loads_as_the_whole_registry_gives_it() -> None:
    registry = load_registry()
    for competition in registry:
        assert load_one(competition.id) == competition, competition.id
    with pytest.raises(UnknownCompetition, match="did you mean: digits"):
        load_one("digitz")


def test_loading_one_competition_still_checks_its_split(tmp_path: Path) -> None:
    write_competition(tmp_path, "toy", splits={"medium": ["toy"]})
    with pytest.raises(ConfigError, match=r"toy/config\.yaml: complexity 'low', but .*medium"):
        load_one("toy", [tmp_path])
    write_competition(tmp_path, "toy", config=toy_config("toy", complexity="medium"))
    assert load_one("toy", [tmp_path]).splits == frozenset({"medium"})
