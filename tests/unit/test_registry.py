"""Competition registry: valid folders load; each kind of broken folder fails with file + fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.errors import ConfigError, UnknownCompetition
from pytest_mlebench.registry import load_competition, load_registry
from tests.factories import toy_config, write_competition


def test_toy_competition_loads(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    comp = load_competition(folder / "config.yaml")
    assert comp.id == "toy"
    assert comp.metric == "accuracy"
    assert comp.lower_is_better is False
    assert comp.submission.target_columns == ("label",)
    assert comp.leaderboard_scores[0] == 1.0
    assert comp.thresholds.gold == 1.0


def test_resources_pids_has_a_default_and_can_be_set(tmp_path: Path) -> None:
    default = write_competition(tmp_path, "toy-default")
    assert load_competition(default / "config.yaml").resources.pids == 4096
    config = toy_config("toy-pids", resources={"cpus": 1, "memory": "1g", "pids": 128})
    folder = write_competition(tmp_path, "toy-pids", config=config)
    assert load_competition(folder / "config.yaml").resources.pids == 128


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


BROKEN_CONFIGS = [
    (toy_config("toy", metric={"name": "accuracy", "lower_is_better": True}), "lower_is_better"),
    (
        toy_config("toy", metric={"name": "no-such-metric", "lower_is_better": False}),
        "no-such-metric",
    ),
    (toy_config("toy", complexity="easy"), "complexity 'easy' must be one of"),
    (toy_config("toy", source="web"), "source 'web'"),
    (toy_config("toy", modality="smell"), "modality 'smell'"),
    (toy_config("other"), "must equal the folder name"),
    (toy_config("toy", time_limit=-5), "time_limit"),
    (toy_config("toy", submission={"id_column": "id"}), "'columns'"),
    (toy_config("toy", resources={"cpu": 2}), "unknown resources key"),
]


@pytest.mark.parametrize(("config", "message"), BROKEN_CONFIGS)
def test_broken_config_names_file_and_problem(
    tmp_path: Path, config: dict[str, object], message: str
) -> None:
    folder = write_competition(tmp_path, "toy", config=config)
    with pytest.raises(ConfigError, match=message) as info:
        load_competition(folder / "config.yaml")
    assert str(folder / "config.yaml") in str(info.value)


def test_missing_key(tmp_path: Path) -> None:
    config = toy_config("toy")
    del config["metric"]
    folder = write_competition(tmp_path, "toy", config=config)
    with pytest.raises(ConfigError, match="missing key 'metric'.*docs/competition-format.md"):
        load_competition(folder / "config.yaml")


def test_invalid_yaml(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / "config.yaml").write_text("id: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_competition(folder / "config.yaml")


@pytest.mark.parametrize(
    ("leaderboard", "message"),
    [
        ("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n", "git lfs pull"),
        ("team,points\na,1\n", "'score' column"),
        ("score\n", "no rows"),
        ("", "'score' column"),
        ("score\n0.5\n0.9\n", "contradict the declared direction"),
        ("score\n0.9\nabc\n", "must be a number"),
        ("score\n0.9\nnan\n", "must be finite"),
    ],
)
def test_broken_leaderboard(tmp_path: Path, leaderboard: str, message: str) -> None:
    folder = write_competition(tmp_path, "toy", leaderboard=leaderboard)
    with pytest.raises(ConfigError, match=message) as info:
        load_competition(folder / "config.yaml")
    assert "leaderboard.csv" in str(info.value)


def test_lower_is_better_leaderboard_must_ascend(tmp_path: Path) -> None:
    config = toy_config("toy", metric={"name": "rmse", "lower_is_better": True})
    folder = write_competition(tmp_path, "toy", config=config, leaderboard="score\n0.1\n0.2\n0.3\n")
    assert load_competition(folder / "config.yaml").thresholds.gold == 0.1
    (folder / "leaderboard.csv").write_text("score\n0.3\n0.2\n")
    with pytest.raises(ConfigError, match="ascending"):
        load_competition(folder / "config.yaml")


def test_missing_prepare_file(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / "prepare.py").unlink()
    with pytest.raises(ConfigError, match="prepare.py: missing"):
        load_competition(folder / "config.yaml")
